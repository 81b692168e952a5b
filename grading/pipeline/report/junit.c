// SPDX-License-Identifier: GPL-2.0
/* grade-report: junit.xml. */
#include <stdio.h>
#include <string.h>

#include "report.h"

/* XML character data or an attribute's value: markup characters as
 * references, control characters as spaces, bytes that are not UTF-8 as
 * '?' (XML allows neither). */
static void xml_ascii(FILE *f, unsigned char c)
{
	if (c == '&')
		fputs("&amp;", f);
	else if (c == '<')
		fputs("&lt;", f);
	else if (c == '>')
		fputs("&gt;", f);
	else if (c == '"')
		fputs("&quot;", f);
	else if (c == '\'')
		fputs("&apos;", f);
	else
		plain_ascii(f, c);
}

static void xml_text(FILE *f, const char *s)
{
	write_text(f, s, xml_ascii);
}

static void write_junit(const char *out, const char **warnings, int nr_warnings)
{
	char tmp[4200];
	FILE *f = open_tmp(out, "junit.xml", tmp, sizeof(tmp));
	int i, j;

	(void)warnings;
	(void)nr_warnings;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"bpfloop-lab\">\n");
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];
		int failures = 0, errors = 0, skipped = 0, tests = 0;
		double time = 0;

		for (j = 0; j < s->nr_scores; j++) {
			const char *v = s->scores[j].verdict;

			tests++;
			time += s->scores[j].seconds;
			if (!strcmp(v, "fail") || !strcmp(v, "missing"))
				failures++;
			else if (!strcmp(v, "skip") || !strcmp(v, "not-run"))
				skipped++;
			else if (strcmp(v, "pass"))
				errors++;
		}
		fprintf(f, "  <testsuite name=\"");
		xml_text(f, s->name);
		fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.2f\">\n",
			tests, failures, errors, skipped, time);
		fprintf(f, "    <properties><property name=\"status\" value=\"");
		xml_text(f, meta(s, "status"));
		fprintf(f, "\"/><property name=\"score\" value=\"%g of %g\"/></properties>\n",
			s->total, s->max);
		for (j = 0; j < s->nr_scores; j++) {
			struct score *c = &s->scores[j];
			const char *v = c->verdict;

			fprintf(f, "    <testcase classname=\"");
			xml_text(f, s->name);
			fprintf(f, ".lab%d\" name=\"", c->lab);
			xml_text(f, c->id);
			fprintf(f, "\" time=\"%.2f\"", c->seconds);
			if (!strcmp(v, "pass")) {
				fprintf(f, "/>\n");
				continue;
			}
			fprintf(f, ">");
			if (!strcmp(v, "fail") || !strcmp(v, "missing"))
				fprintf(f, "<failure type=\"%s\" message=\"", v);
			else if (!strcmp(v, "skip") || !strcmp(v, "not-run"))
				fprintf(f, "<skipped message=\"");
			else
				fprintf(f, "<error type=\"%s\" message=\"", v);
			xml_text(f, c->reason);
			fprintf(f, "\"/></testcase>\n");
		}
		fprintf(f, "  </testsuite>\n");
	}
	/* Not graded (kit error): one error, the machine's, and no score. */
	for (i = 0; i < nr_ungraded; i++) {
		struct student *s = ungraded[i];

		fprintf(f, "  <testsuite name=\"");
		xml_text(f, s->name);
		fprintf(f, "\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n");
		fprintf(f, "    <properties><property name=\"status\" value=\"kit-error\"/></properties>\n");
		fprintf(f, "    <testcase classname=\"");
		xml_text(f, s->name);
		fprintf(f, "\" name=\"not graded\"><error type=\"kit-error\" message=\"");
		xml_text(f, meta(s, "reason"));
		fprintf(f, "\"/></testcase>\n  </testsuite>\n");
	}
	fprintf(f, "</testsuites>\n");
	commit_tmp(f, tmp, out, "junit.xml");
}
REPORT_WRITER("junit.xml", write_junit)
