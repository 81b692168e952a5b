// SPDX-License-Identifier: GPL-2.0
/* grade-report: index.md and scores.svg: the class at a glance, for a browser. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* ---- the class report for a browser: index.md and scores.svg ---- */

/* A student's name in a link: anything but [A-Za-z0-9._~-] %-encoded. */
static void url_part(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("._~-", c))
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}

/* Students per tenth of the maximum (the last bucket: full marks). */
static void write_score_plot(const char *out, const int *buckets)
{
	enum { W = 640, H = 280, ML = 56, MR = 16, MT = 20, MB = 56 };
	char tmp[4200];
	FILE *f = open_tmp(out, "scores.svg", tmp, sizeof(tmp));
	double bw = (double)(W - ML - MR) / 11, scale;
	int b, top = 1, step, y;

	for (b = 0; b < 11; b++)
		if (buckets[b] > top)
			top = buckets[b];
	step = top <= 10 ? 1 : (top + 9) / 10;
	top = (top + step - 1) / step * step;
	scale = (double)(H - MT - MB) / top;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n",
		W, H, W, H);
	fprintf(f, "<title>Students per score, in tenths of the maximum (%d students)</title>\n",
		nr_students);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	for (y = 0; y <= top; y += step) {
		double py = H - MB - y * scale;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ML, py,
			W - MR, py);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", ML - 6, py + 4, y);
	}
	for (b = 0; b < 11; b++) {
		double x = ML + b * bw, h = buckets[b] * scale;

		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#0b57a4\"><title>%s%d%%: %d</title></rect>\n", x + 3, H - MB - h, bw - 6, h,
			b == 10 ? "" : "from ", b * 10, buckets[b]);
		if (buckets[b])
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n",
				x + bw / 2, H - MB - h - 4, buckets[b]);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x + bw / 2,
			H - MB + 16, b * 10);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", ML, H - MB,
		W - MR, H - MB);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">score, %% of the maximum "
		"(each bar: from that tenth; 100: full marks)</text>\n", (ML + W - MR) / 2, H - 14);
	fprintf(f, "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">"
		"students</text>\n", (MT + H - MB) / 2, (MT + H - MB) / 2);
	fprintf(f, "</svg>\n");
	commit_tmp(f, tmp, out, "scores.svg");
}

/*
 * OUT/index.md (grading/instructor/render-report makes it OUT/index.html with pandoc)
 * and OUT/scores.svg: the class for a browser. The score distribution as
 * a plot, the statuses, the mean per lab, the tests most failed with their
 * commonest reasons, and a row per student (status and integrity flags
 * shown) linking to students/NAME/feedback.html. It names no path of the
 * grader's machine: the rubric by its file name, reasons scrubbed.
 */
static void write_index(const char *out, const char **warnings, int nr_warnings)
{
	static struct count failed[MAX_RUBRIC * 2], reasons[64], statuses[32];
	int nr_failed = 0, nr_statuses = 0, flagged = 0, buckets[11] = { 0 }, i, j, k, lab, b;
	char tmp[4200], cls[400], reason[400];
	const char *rubric_name = rubric_path ? strrchr(rubric_path, '/') : NULL;
	FILE *f = open_tmp(out, "index.md", tmp, sizeof(tmp));
	double mean = 0;

	rubric_name = rubric_name ? rubric_name + 1 : rubric_path;
	fprintf(f, "---\ntitle: The class at a glance\nlang: en\n---\n\n");
	if (nr_ungraded) {
		fprintf(f, "**Not graded (kit error)**: the grading machine failed for %d student%s, and no "
			"grade was given. Fix the cause, then run the same `make grade` again.\n\n",
			nr_ungraded, nr_ungraded == 1 ? "" : "s");
		for (i = 0; i < nr_ungraded; i++) {
			copy(reason, sizeof(reason), meta(ungraded[i], "reason"));
			scrub(reason, sizeof(reason), out);
			fprintf(f, "- [");
			md_text(f, ungraded[i]->name);
			fprintf(f, "]{.status-bad}: ");
			md_text(f, reason);
			fprintf(f, "\n");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "%d student%s, graded with ", nr_students, nr_students == 1 ? "" : "s");
	if (rubric_name) {
		fprintf(f, "the rubric ");
		md_text(f, rubric_name);
	} else {
		fprintf(f, "the kit's own points");
	}
	fprintf(f, ". Per student: the feedback page linked from the table below. "
		"Everything: [results.json](results.json), [gradebook.csv](gradebook.csv), "
		"[junit.xml](junit.xml), [summary.md](summary.md).\n\n");
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];
		double pct = s->max > 0 ? 100.0 * s->total / s->max : 0;

		mean += pct;
		b = (int)(pct / 10);
		buckets[b > 10 ? 10 : b]++;
		count_add(statuses, &nr_statuses, 32, meta(s, "status"));
		flagged += meta(s, "flags")[0] != '\0';
		for (j = 0; j < s->nr_scores; j++) {
			struct score *c = &s->scores[j];

			if (c->lab < 0 || !strcmp(c->verdict, "pass") || c->max == 0 ||
			    !strcmp(c->verdict, "not-run"))
				continue;
			count_add(failed, &nr_failed, MAX_RUBRIC * 2, c->id);
		}
	}
	write_score_plot(out, buckets);
	fprintf(f, "## Scores\n\n");
	if (nr_students)
		fprintf(f, "Mean %.1f%% of the maximum.\n\n", mean / nr_students);
	fprintf(f, "![Students per score, in tenths of the maximum](scores.svg)\n\n");
	fprintf(f, "| Status | Students |\n|---|---|\n");
	qsort(statuses, nr_statuses, sizeof(statuses[0]), cmp_count);
	for (i = 0; i < nr_statuses; i++) {
		fprintf(f, "| ");
		md_text(f, statuses[i].key);
		fprintf(f, " | %d |\n", statuses[i].n);
	}
	if (flagged)
		fprintf(f, "| [with a flag, for a person to read](#flags) | %d |\n", flagged);
	fprintf(f, "\n## Per lab\n\n| Lab | Mean points | Of | Mean |\n|---|---|---|---|\n");
	for (lab = 0; lab < MAX_LABS; lab++) {
		double sum = 0, max = 0;

		if (!lab_used[lab])
			continue;
		for (i = 0; i < nr_students; i++) {
			sum += students[i]->lab_points[lab];
			if (students[i]->lab_max[lab] > max)
				max = students[i]->lab_max[lab];
		}
		fprintf(f, "| %d | %.1f | %g | %.0f%% |\n", lab, nr_students ? sum / nr_students : 0, max,
			nr_students && max > 0 ? 100 * sum / nr_students / max : 0);
	}
	qsort(failed, nr_failed, sizeof(failed[0]), cmp_count);
	fprintf(f, "\n## The tests most failed, and why\n\n");
	if (!nr_failed)
		fprintf(f, "Every student passed every scored test.\n");
	else
		fprintf(f, "| Test | Students | The commonest reasons (numbers as N) |\n|---|---|---|\n");
	for (i = 0; i < nr_failed && i < 15; i++) {
		int nr_reasons = 0;

		for (j = 0; j < nr_students; j++) {
			struct score *c = score_find(students[j], failed[i].key);

			if (!c || c->lab < 0 || !strcmp(c->verdict, "pass") || c->max == 0 ||
			    !strcmp(c->verdict, "not-run"))
				continue;
			copy(reason, sizeof(reason), c->reason);
			scrub(reason, sizeof(reason), out);
			snprintf(cls, sizeof(cls), "%s: ", c->verdict);
			reason_class(reason[0] ? reason : "no reason was reported", cls + strlen(cls),
				     sizeof(cls) - strlen(cls));
			count_add(reasons, &nr_reasons, 64, cls);
		}
		qsort(reasons, nr_reasons, sizeof(reasons[0]), cmp_count);
		fprintf(f, "| ");
		md_text(f, failed[i].key);
		fprintf(f, " | %d of %d | ", failed[i].n, nr_students);
		for (k = 0; k < nr_reasons && k < 3; k++) {
			fprintf(f, "%s%d× ", k ? "; " : "", reasons[k].n);
			md_text(f, reasons[k].key);
		}
		fprintf(f, " |\n");
	}
	fprintf(f, "\n## Students\n\n| Student | Score | %% |");
	for (lab = 0; lab < MAX_LABS; lab++)
		if (lab_used[lab])
			fprintf(f, " Lab %d |", lab);
	fprintf(f, " Status | Flags |\n|---|---|---|");
	for (lab = 0; lab < MAX_LABS; lab++)
		if (lab_used[lab])
			fprintf(f, "---|");
	fprintf(f, "---|---|\n");
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];

		fprintf(f, "| [");
		md_text(f, s->name);
		fprintf(f, "](students/");
		url_part(f, s->name);
		fprintf(f, "/feedback.html) | %g of %g | %.0f%% |", s->total, s->max,
			s->max > 0 ? 100 * s->total / s->max : 0);
		for (lab = 0; lab < MAX_LABS; lab++)
			if (lab_used[lab])
				fprintf(f, " %g |", s->lab_points[lab]);
		fprintf(f, " ");
		if (strcmp(meta(s, "status"), "graded")) {
			fprintf(f, "[");
			md_text(f, meta(s, "status"));
			fprintf(f, "]{.status-bad}");
		} else {
			md_text(f, meta(s, "status"));
		}
		fprintf(f, " | ");
		if (meta(s, "flags")[0]) {
			fprintf(f, "[");
			md_text(f, meta(s, "flags"));
			fprintf(f, "]{.flag}");
		}
		fprintf(f, " |\n");
	}
	if (flagged) {
		fprintf(f, "\n## For a person to read {#flags}\n\nGraded all the same. *tampered*: a "
			"report that was not the run's own (its tests score 0); *flagged*: code no "
			"bpf_loop solution needs, these lines; *reference:N*: lab N's change is the kit's "
			"own reference, as it ships:\n\n");
		for (i = 0; i < nr_students; i++) {
			struct student *s = students[i];

			if (!meta(s, "flags")[0])
				continue;
			fprintf(f, "- [");
			md_text(f, s->name);
			fprintf(f, "](students/");
			url_part(f, s->name);
			fprintf(f, "/feedback.html) ([");
			md_text(f, meta(s, "flags"));
			fprintf(f, "]{.flag})\n");
			for (j = 0; j < s->nr_meta; j++)
				if (!strcmp(s->meta_keys[j], "flag") || !strcmp(s->meta_keys[j], "reference")) {
					fprintf(f, "    - ");
					md_text(f, s->meta_vals[j]);
					fprintf(f, "\n");
				}
		}
	}
	if (nr_warnings) {
		fprintf(f, "\n## Rubric warnings\n\n");
		for (i = 0; i < nr_warnings; i++) {
			fprintf(f, "- ");
			md_text(f, warnings[i]);
			fprintf(f, "\n");
		}
	}
	commit_tmp(f, tmp, out, "index.md");
}
REPORT_WRITER("index.md", write_index)
