// SPDX-License-Identifier: GPL-2.0
/* grade-report: A student's feedback.md. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

void write_feedback(struct student *s, const char *dir)
{
	char path[4096], final[4096], tmp[4200], line[1024], reason[KTAP_REASON_MAX];
	bool any = false;
	FILE *f, *e;
	int i, j, lab;

	snprintf(final, sizeof(final), "%s/feedback.md", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", final);
	f = fopen(tmp, "w");
	if (!f)
		fail("cannot write %s: %s", tmp, strerror(errno));
	/* Every text that came from the student, or from their kernel or
	 * build, goes out through md_text or md_code (or, for the compiler's
	 * lines, a code block that nothing inside can close). */
	fprintf(f, "# Feedback for ");
	md_text(f, s->name);
	fprintf(f, "\n\nScore: **%g of %g**. Status: ", s->total, s->max);
	md_text(f, meta(s, "status"));
	fprintf(f, ".\n\n");
	if (strcmp(meta(s, "status"), "graded")) {
		copy_text(reason, sizeof(reason), meta(s, "reason"));
		scrub(reason, sizeof(reason), dir);
		fprintf(f, "Why: ");
		md_code(f, reason);
		fprintf(f, "\n\n");
	}
	snprintf(path, sizeof(path), "%s/error.txt", dir);
	e = fopen(path, "r");
	if (e) {
		int fence = 3, n;

		while (fgets(line, sizeof(line), e))
			if ((n = backtick_run(line) + 1) > fence)
				fence = n;
		rewind(e);
		fprintf(f, "The first error:\n\n");
		repeat(f, '`', fence);
		fputc('\n', f);
		while (fgets(line, sizeof(line), e)) {
			chomp(line);
			plain(line);
			scrub(line, sizeof(line), dir);
			fprintf(f, "%s\n", line);
		}
		repeat(f, '`', fence);
		fprintf(f, "\n\n");
		fclose(e);
	}
	fprintf(f, "| Lab | Points |\n|---|---|\n");
	for (lab = 0; lab < MAX_LABS; lab++)
		if (s->lab_max[lab] > 0)
			fprintf(f, "| %d | %g of %g |\n", lab, s->lab_points[lab], s->lab_max[lab]);
	fprintf(f, "\n");
	for (i = 0; i < s->nr_meta; i++)
		if (!strcmp(s->meta_keys[i], "ignored")) {
			if (!any)
				fprintf(f, "## Not graded: files outside what a submission may change\n\n");
			any = true;
			fprintf(f, "- ");
			md_code(f, s->meta_vals[i]);
			fprintf(f, "\n");
		}
	if (any)
		fprintf(f, "\n");
	any = false;
	for (lab = -1; lab < MAX_LABS; lab++) {
		int failed = 0, scored = 0, first = -1;

		for (i = 0; i < s->nr_scores; i++) {
			struct score *c = &s->scores[i];

			if (c->lab != lab || c->max == 0)
				continue;
			scored++;
			if (strcmp(c->verdict, "pass")) {
				failed++;
				if (first < 0)
					first = i;
			}
		}
		if (!failed)
			continue;
		if (!any)
			fprintf(f, "## What did not pass\n\n");
		any = true;
		/* A lab with no test passed: said once, with its first reason. */
		if (lab >= 1 && failed == scored && scored > 2 && strcmp(meta(s, "status"), "graded") == 0) {
			struct score *c = &s->scores[first];

			copy(reason, sizeof(reason), c->reason);
			scrub(reason, sizeof(reason), dir);
			fprintf(f, "- Lab %d: none of its %d tests passed (if you did not hand in lab %d, "
				"that is why). The first, ", lab, scored, lab);
			md_code(f, c->id);
			fprintf(f, " (");
			md_text(f, c->verdict);
			fprintf(f, "): ");
			if (reason[0])
				md_code(f, reason);
			else
				fprintf(f, "no reason was reported");
			fprintf(f, "\n");
			fprintf(f, "  Reproduce on your lab branch: `make check N=%d`\n", lab);
			continue;
		}
		for (j = 0; j < s->nr_scores; j++) {
			struct score *c = &s->scores[j];

			if (c->lab != lab || c->max == 0 || !strcmp(c->verdict, "pass"))
				continue;
			fprintf(f, "- ");
			md_code(f, c->id);
			fprintf(f, " (");
			md_text(f, c->verdict);
			fprintf(f, ", %g of %g points): ", c->points, c->max);
			if (c->private_test) {
				fprintf(f, "one of your instructor's own tests; ask them about it\n");
				continue;
			}
			copy(reason, sizeof(reason), c->reason);
			scrub(reason, sizeof(reason), dir);
			if (reason[0])
				md_code(f, reason);
			else
				fprintf(f, "no reason was reported");
			fprintf(f, "\n");
			if (!strcmp(c->verdict, "not-run") || c->lab < 0)
				continue;
			fprintf(f, "  Reproduce on your lab branch: `make check N=%d ONLY=%s`\n", c->lab,
				c->id);
		}
	}
	if (!any)
		fprintf(f, "Every scored test passed.\n");
	fprintf(f, "\nLogs next to this file: build.log (the kernel build), console.log (the guest's "
		"console), results.ktap (the tests' own output).\n");
	if (fclose(f) || rename(tmp, final))
		fail("cannot write %s: %s", final, strerror(errno));
}
