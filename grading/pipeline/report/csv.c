// SPDX-License-Identifier: GPL-2.0
/* grade-report: gradebook.csv. */
#include <stdio.h>
#include <string.h>

#include "report.h"

/*
 * One CSV cell. A cell that a spreadsheet would read as a formula (its
 * first character one of = + - @, a tab or a carriage return: OWASP's CSV
 * injection list) gets a leading ' and quotes, and so does a cell with a
 * comma, a quote or a line break; quotes are doubled.
 */
static void csv_field(FILE *f, const char *s)
{
	bool formula = s[0] && strchr("=+-@\t\r", s[0]);

	if (!formula && !strpbrk(s, ",;\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_gradebook(const char *out, const char **warnings, int nr_warnings)
{
	char tmp[4200];
	FILE *f = open_tmp(out, "gradebook.csv", tmp, sizeof(tmp));
	int i, lab;

	(void)warnings;
	(void)nr_warnings;

	fprintf(f, "student");
	for (lab = 0; lab < MAX_LABS; lab++)
		if (lab_used[lab])
			fprintf(f, ",lab%d", lab);
	fprintf(f, ",total,max,status,flags\n");
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];

		csv_field(f, s->name);
		for (lab = 0; lab < MAX_LABS; lab++)
			if (lab_used[lab])
				fprintf(f, ",%g", s->lab_points[lab]);
		fprintf(f, ",%g,%g,", s->total, s->max);
		csv_field(f, meta(s, "status"));
		fputc(',', f);
		csv_field(f, meta(s, "flags"));
		fputc('\n', f);
	}
	/* Not graded (kit error): no points at all, not a zero. */
	for (i = 0; i < nr_ungraded; i++) {
		csv_field(f, ungraded[i]->name);
		for (lab = 0; lab < MAX_LABS; lab++)
			if (lab_used[lab])
				fputc(',', f);
		fprintf(f, ",,,kit-error,\n");
	}
	commit_tmp(f, tmp, out, "gradebook.csv");
}
REPORT_WRITER("gradebook.csv", write_gradebook)
