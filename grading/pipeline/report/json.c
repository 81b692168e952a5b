// SPDX-License-Identifier: GPL-2.0
/* grade-report: results.json. */
#include <stdio.h>
#include <string.h>

#include "report.h"

/* A JSON string: valid UTF-8 whatever S holds, and with < > & escaped so
 * that it stays text even inside a page. */
static void json_ascii(FILE *f, unsigned char c)
{
	if (c == '"' || c == '\\')
		fprintf(f, "\\%c", c);
	else if (c == '\n')
		fputs("\\n", f);
	else if (c == '\t')
		fputs("\\t", f);
	else if (c < 0x20 || c == 0x7f || strchr("<>&", c))
		fprintf(f, "\\u%04x", c);
	else
		fputc(c, f);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	write_text(f, s, json_ascii);
	fputc('"', f);
}

/* The values of every KEY line of S's meta, as a JSON array. */
static void json_meta_array(FILE *f, const struct student *s, const char *key)
{
	bool first = true;
	int j;

	fputc('[', f);
	for (j = 0; j < s->nr_meta; j++)
		if (!strcmp(s->meta_keys[j], key)) {
			fprintf(f, "%s", first ? "" : ", ");
			json_string(f, s->meta_vals[j]);
			first = false;
		}
	fputc(']', f);
}

static const char *const meta_in_json[] = {
	"folder", "status", "reason", "flags", "format", "submission", "commit", "kernel", "base",
	"kit", "config", "accel", "tools", "seed", "seconds", "time", NULL,
};

static void write_json(const char *out, const char **warnings, int nr_warnings)
{
	static const char *const logs[] = {
		"build", "build.log", "console", "console.log", "ktap", "results.ktap",
		"feedback", "feedback.md", NULL,
	};
	char tmp[4200];
	FILE *f = open_tmp(out, "results.json", tmp, sizeof(tmp));
	int i, j, k, lab;

	(void)warnings;
	(void)nr_warnings;

	fprintf(f, "{\n  \"rubric\": ");
	json_string(f, rubric_path ? rubric_path : "grading/tests.list");
	fprintf(f, ",\n  \"students\": [");
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];
		bool first = true;

		fprintf(f, "%s\n    {\n      \"student\": ", i ? "," : "");
		json_string(f, s->name);
		for (k = 0; meta_in_json[k]; k++) {
			fprintf(f, ",\n      ");
			json_string(f, meta_in_json[k]);
			fprintf(f, ": ");
			json_string(f, meta(s, meta_in_json[k]));
		}
		fprintf(f, ",\n      \"ignored\": ");
		json_meta_array(f, s, "ignored");
		fprintf(f, ",\n      \"flagged_lines\": ");
		json_meta_array(f, s, "flag");
		fprintf(f, ",\n      \"matches_reference\": ");
		json_meta_array(f, s, "reference");
		fprintf(f, ",\n      \"total\": %g, \"max\": %g,\n      \"labs\": {", s->total, s->max);
		for (lab = 0; lab < MAX_LABS; lab++)
			if (lab_used[lab]) {
				fprintf(f, "%s\"%d\": %g", first ? "" : ", ", lab, s->lab_points[lab]);
				first = false;
			}
		fprintf(f, "},\n      \"logs\": {");
		for (k = 0; logs[k]; k += 2) {
			char log[200];

			snprintf(log, sizeof(log), "students/%s/%s", s->name, logs[k + 1]);
			fprintf(f, "%s\"%s\": ", k ? ", " : "", logs[k]);
			json_string(f, log);
		}
		fprintf(f, "},\n      \"tests\": [");
		for (j = 0; j < s->nr_scores; j++) {
			struct score *c = &s->scores[j];

			fprintf(f, "%s\n        {\"id\": ", j ? "," : "");
			json_string(f, c->id);
			fprintf(f, ", \"lab\": %d, \"verdict\": ", c->lab);
			json_string(f, c->verdict);
			fprintf(f, ", \"points\": %g, \"max\": %g, \"seconds\": %.2f, \"reason\": ",
				c->points, c->max, c->seconds);
			json_string(f, c->reason);
			fprintf(f, "}");
		}
		fprintf(f, "\n      ]\n    }");
	}
	/* Not graded (kit error): the cause and the fix, no points. */
	fprintf(f, "\n  ],\n  \"not_graded\": [");
	for (i = 0; i < nr_ungraded; i++) {
		struct student *s = ungraded[i];

		fprintf(f, "%s\n    {\"student\": ", i ? "," : "");
		json_string(f, s->name);
		fprintf(f, ", \"status\": \"kit-error\", \"reason\": ");
		json_string(f, meta(s, "reason"));
		fprintf(f, ", \"fix\": ");
		json_string(f, meta(s, "fix"));
		fprintf(f, ", \"total\": null}");
	}
	fprintf(f, "%s]\n}\n", nr_ungraded ? "\n  " : "");
	commit_tmp(f, tmp, out, "results.json");
}
REPORT_WRITER("results.json", write_json)
