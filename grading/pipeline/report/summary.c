// SPDX-License-Identifier: GPL-2.0
/* grade-report: summary.md: the class's results for the instructor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void write_summary(const char *out, const char **warnings, int nr_warnings)
{
	static struct count failed[MAX_RUBRIC * 2], reasons[1024], statuses[32];
	int nr_failed = 0, nr_reasons = 0, nr_statuses = 0, i, j, lab, b;
	double *pct = calloc(nr_students + 1, sizeof(double)), mean = 0;
	char tmp[4200], cls[400];
	int buckets[11] = { 0 };
	FILE *f = open_tmp(out, "summary.md", tmp, sizeof(tmp));

	fprintf(f, "# The class at a glance\n\n");
	fprintf(f, "%d student%s graded with %s.\n\n", nr_students,
		nr_students == 1 ? "" : "s", rubric_path ? rubric_path : "the kit's default points");
	if (nr_ungraded) {
		fprintf(f, "## Not graded (kit error)\n\nThe grading machine failed for %d student%s: no grade "
			"was given. Fix the cause, then run the same `make grade` again: it grades them.\n\n",
			nr_ungraded, nr_ungraded == 1 ? "" : "s");
		for (i = 0; i < nr_ungraded; i++) {
			fprintf(f, "- ");
			md_text(f, ungraded[i]->name);
			fprintf(f, ": ");
			md_text(f, meta(ungraded[i], "reason"));
			fprintf(f, "\n");
		}
		fprintf(f, "\n");
	}
	if (!nr_students) {
		commit_tmp(f, tmp, out, "summary.md");
		free(pct);
		return;
	}
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];

		pct[i] = s->max > 0 ? 100.0 * s->total / s->max : 0;
		mean += pct[i];
		b = (int)(pct[i] / 10);
		buckets[b > 10 ? 10 : b]++;
		count_add(statuses, &nr_statuses, 32, meta(s, "status"));
		for (j = 0; j < s->nr_scores; j++) {
			struct score *c = &s->scores[j];

			if (c->lab < 0 || !strcmp(c->verdict, "pass") || c->max == 0 ||
			    !strcmp(c->verdict, "not-run"))
				continue;
			count_add(failed, &nr_failed, MAX_RUBRIC * 2, c->id);
			{
				snprintf(cls, sizeof(cls), "%s: ", c->verdict);
				reason_class(c->reason, cls + strlen(cls), sizeof(cls) - strlen(cls));
				count_add(reasons, &nr_reasons, 1024, cls);
			}
		}
		if (strcmp(meta(s, "status"), "graded")) {
			snprintf(cls, sizeof(cls), "%s: ", meta(s, "status"));
			reason_class(meta(s, "reason"), cls + strlen(cls), sizeof(cls) - strlen(cls));
			count_add(reasons, &nr_reasons, 1024, cls);
		}
	}
	mean /= nr_students;
	qsort(pct, nr_students, sizeof(double), cmp_double);
	fprintf(f, "## Scores\n\n");
	fprintf(f, "Mean %.1f%%, median %.1f%%, lowest %.1f%%, highest %.1f%%.\n\n", mean,
		nr_students % 2 ? pct[nr_students / 2] :
		(pct[nr_students / 2 - 1] + pct[nr_students / 2]) / 2, pct[0], pct[nr_students - 1]);
	fprintf(f, "| Score | Students |\n|---|---|\n");
	for (b = 0; b < 11; b++)
		if (buckets[b])
			fprintf(f, "| %s%d%% | %d %.*s |\n", b == 10 ? "" : "from ", b * 10, buckets[b],
				buckets[b] > 40 ? 40 : buckets[b], "########################################");
	fprintf(f, "\n| Status | Students |\n|---|---|\n");
	qsort(statuses, nr_statuses, sizeof(statuses[0]), cmp_count);
	for (i = 0; i < nr_statuses; i++) {
		fprintf(f, "| ");
		md_text(f, statuses[i].key);
		fprintf(f, " | %d |\n", statuses[i].n);
	}
	for (i = 0, b = 0; i < nr_students; i++) {
		struct student *s = students[i];

		if (!meta(s, "flags")[0])
			continue;
		if (!b++)
			fprintf(f, "\n## For a person to read\n\n"
				"Graded all the same; `tampered`: a report that was not the run's own "
				"(its tests score 0); `flagged`: code no bpf_loop solution needs; "
				"`reference:N`: lab N's change is the kit's own reference, as it ships.\n\n");
		fprintf(f, "- ");
		md_text(f, s->name);
		fprintf(f, " (");
		md_text(f, meta(s, "flags"));
		fprintf(f, ")\n");
		for (j = 0; j < s->nr_meta; j++)
			if (!strcmp(s->meta_keys[j], "flag") || !strcmp(s->meta_keys[j], "reference")) {
				fprintf(f, "  - ");
				md_code(f, s->meta_vals[j]);
				fprintf(f, "\n");
			}
	}
	fprintf(f, "\n## Per lab (mean points)\n\n| Lab | Mean | Of |\n|---|---|---|\n");
	for (lab = 0; lab < MAX_LABS; lab++) {
		double sum = 0, max = 0;

		if (!lab_used[lab])
			continue;
		for (i = 0; i < nr_students; i++) {
			sum += students[i]->lab_points[lab];
			max = students[i]->lab_max[lab];
		}
		fprintf(f, "| %d | %.1f | %g |\n", lab, sum / nr_students, max);
	}
	qsort(failed, nr_failed, sizeof(failed[0]), cmp_count);
	fprintf(f, "\n## The tests most failed\n\n");
	if (!nr_failed)
		fprintf(f, "Every student passed every scored test.\n");
	for (i = 0; i < nr_failed && i < 10; i++) {
		fprintf(f, "%d. ", i + 1);
		md_code(f, failed[i].key);
		fprintf(f, ": %d of %d students\n", failed[i].n, nr_students);
	}
	qsort(reasons, nr_reasons, sizeof(reasons[0]), cmp_count);
	fprintf(f, "\n## The common reasons (numbers shown as N)\n\n");
	for (i = 0; i < nr_reasons && i < 10; i++) {
		fprintf(f, "%d. %d× ", i + 1, reasons[i].n);
		md_code(f, reasons[i].key);
		fputc('\n', f);
	}
	if (nr_warnings) {
		fprintf(f, "\n## Rubric warnings\n\n");
		for (i = 0; i < nr_warnings; i++)
			fprintf(f, "- %s\n", warnings[i]);
	}
	fprintf(f, "\nPer student: students/NAME/feedback.md. Everything: results.json, "
		"gradebook.csv, junit.xml.\n");
	commit_tmp(f, tmp, out, "summary.md");
	free(pct);
}
REPORT_WRITER("summary.md", write_summary)
