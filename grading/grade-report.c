// SPDX-License-Identifier: GPL-2.0
/*
 * grade-report: the grader's scoring and reports.
 *
 *   grade-report student --rubric FILE --dir DIR
 *	Scores one student. Reads DIR/meta (KEY<TAB>VALUE lines written by
 *	grading/grade-one) and DIR/results.tsv (ID<TAB>VERDICT<TAB>SECONDS
 *	<TAB>REASON, from grading/ktap), writes DIR/scores.tsv (ID, LAB,
 *	VERDICT, POINTS, MAX, SECONDS, REASON) and DIR/feedback.md, and
 *	prints "TOTAL MAX". A rubric test with no result scores 0 with
 *	verdict "not-run" (the submission was not graded: meta's reason) or
 *	"missing" (the run reported nothing for it).
 *
 *   grade-report class --rubric FILE --out OUT [--known FILE]
 *	Reads every OUT/students/NAME/ that has scores.tsv and writes
 *	OUT/gradebook.csv, OUT/results.json, OUT/junit.xml and
 *	OUT/summary.md, each atomically (a temporary file renamed). --known
 *	lists the test ids that exist (one per line): the report warns, on
 *	stderr and in summary.md, about tests with no rubric line and rubric
 *	lines with no test.
 *
 * Exit status: 0 done, 1 bad input (named on stderr), 2 usage.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RUBRIC	512
#define MAX_STUDENTS	2000
#define MAX_LABS	10
#define MAX_META	64

struct rubric_line {
	char id[96];
	int lab;
	double points;
	bool seen;
};

static struct rubric_line rubric[MAX_RUBRIC];
static int nr_rubric;
static const char *rubric_path;

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "grade-report: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Copies SRC into DST of SIZE bytes, cut short if need be. */
static void copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static char *chomp(char *s)
{
	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

static void read_rubric(const char *path)
{
	char line[512];
	int lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		fail("cannot read the rubric %s: %s", path, strerror(errno));
	rubric_path = path;
	while (fgets(line, sizeof(line), f)) {
		struct rubric_line *r;
		char id[96], extra[2];
		int lab, i;
		double points;
		char *p = chomp(line);

		lineno++;
		p += strspn(p, " \t");
		if (!*p || *p == '#')
			continue;
		if (sscanf(p, "%95s %d %lf %1s", id, &lab, &points, extra) != 3 ||
		    lab < 0 || lab >= MAX_LABS || points < 0)
			fail("%s:%d: expected 'TEST_ID LAB POINTS' (lab 0..%d, points >= 0), got '%s'",
			     path, lineno, MAX_LABS - 1, p);
		for (i = 0; i < nr_rubric; i++)
			if (!strcmp(rubric[i].id, id))
				fail("%s:%d: test %s has two lines", path, lineno, id);
		if (nr_rubric == MAX_RUBRIC)
			fail("%s: more than %d lines", path, MAX_RUBRIC);
		r = &rubric[nr_rubric++];
		copy(r->id, sizeof(r->id), id);
		r->lab = lab;
		r->points = points;
	}
	fclose(f);
	if (!nr_rubric)
		fail("the rubric %s has no test lines", path);
}

static struct rubric_line *rubric_find(const char *id)
{
	int i;

	for (i = 0; i < nr_rubric; i++)
		if (!strcmp(rubric[i].id, id))
			return &rubric[i];
	return NULL;
}

/* ---- one student ---- */

struct score {
	char id[96];
	int lab;
	char verdict[16];
	double points, max, seconds;
	char reason[400];
};

struct student {
	char name[80];
	char meta_keys[MAX_META][24];
	char meta_vals[MAX_META][400];
	int nr_meta;
	struct score *scores;
	int nr_scores;
	double lab_points[MAX_LABS], lab_max[MAX_LABS], total, max;
};

static const char *meta(const struct student *s, const char *key)
{
	int i;

	for (i = 0; i < s->nr_meta; i++)
		if (!strcmp(s->meta_keys[i], key))
			return s->meta_vals[i];
	return "";
}

static void read_meta(struct student *s, const char *dir)
{
	char path[8192], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/meta", dir);
	f = fopen(path, "r");
	if (!f)
		fail("cannot read %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f) && s->nr_meta < MAX_META) {
		char *tab = strchr(chomp(line), '\t');

		if (!tab)
			continue;
		*tab = '\0';
		copy(s->meta_keys[s->nr_meta], sizeof(s->meta_keys[0]), line);
		copy(s->meta_vals[s->nr_meta], sizeof(s->meta_vals[0]), tab + 1);
		s->nr_meta++;
	}
	fclose(f);
}

static struct score *add_score(struct student *s)
{
	s->scores = realloc(s->scores, (s->nr_scores + 1) * sizeof(*s->scores));
	if (!s->scores)
		fail("out of memory");
	memset(&s->scores[s->nr_scores], 0, sizeof(*s->scores));
	return &s->scores[s->nr_scores++];
}

static struct score *score_find(struct student *s, const char *id)
{
	int i;

	for (i = 0; i < s->nr_scores; i++)
		if (!strcmp(s->scores[i].id, id))
			return &s->scores[i];
	return NULL;
}

static void tally(struct student *s)
{
	int i;

	memset(s->lab_points, 0, sizeof(s->lab_points));
	memset(s->lab_max, 0, sizeof(s->lab_max));
	s->total = s->max = 0;
	for (i = 0; i < s->nr_scores; i++) {
		struct score *c = &s->scores[i];

		if (c->lab < 0)
			continue;
		s->lab_points[c->lab] += c->points;
		s->lab_max[c->lab] += c->max;
		s->total += c->points;
		s->max += c->max;
	}
}

static void write_feedback(struct student *s, const char *dir)
{
	char path[4096], final[4096], tmp[4200], line[1024];
	bool any = false;
	FILE *f, *e;
	int i, lab;

	snprintf(final, sizeof(final), "%s/feedback.md", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", final);
	f = fopen(tmp, "w");
	if (!f)
		fail("cannot write %s: %s", tmp, strerror(errno));
	fprintf(f, "# Feedback for %s\n\n", s->name);
	fprintf(f, "Score: **%g of %g**. Status: %s.\n\n", s->total, s->max, meta(s, "status"));
	if (strcmp(meta(s, "status"), "graded"))
		fprintf(f, "Why: %s\n\n", meta(s, "reason"));
	e = NULL;
	snprintf(path, sizeof(path), "%s/error.txt", dir);
	e = fopen(path, "r");
	if (e) {
		fprintf(f, "The first error:\n\n```\n");
		while (fgets(line, sizeof(line), e))
			fputs(line, f);
		fprintf(f, "```\n\n");
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
			fprintf(f, "- %s\n", s->meta_vals[i]);
		}
	if (any)
		fprintf(f, "\n");
	any = false;
	for (i = 0; i < s->nr_scores; i++) {
		struct score *c = &s->scores[i];

		if (!strcmp(c->verdict, "pass") || c->lab < 0 || c->max == 0)
			continue;
		if (!any)
			fprintf(f, "## What did not pass\n\n");
		any = true;
		fprintf(f, "- `%s` (%s, %g of %g points): %s\n", c->id, c->verdict, c->points,
			c->max, c->reason[0] ? c->reason : "no reason was reported");
		if (!strcmp(c->verdict, "not-run"))
			continue;
		if (c->lab == 3)
			fprintf(f, "  Reproduce on your lab branch: `make check N=3 ONLY=lab3`\n");
		else
			fprintf(f, "  Reproduce on your lab branch: `make check N=%d ONLY=%s`\n",
				c->lab, c->id);
	}
	if (!any)
		fprintf(f, "Every scored test passed.\n");
	fprintf(f, "\nLogs next to this file: build.log (the kernel build), console.log (the guest's "
		"console), results.ktap (the tests' own output).\n");
	if (fclose(f) || rename(tmp, final))
		fail("cannot write %s: %s", final, strerror(errno));
}

static void read_scores(struct student *s, const char *dir)
{
	char path[8192], line[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/scores.tsv", dir);
	f = fopen(path, "r");
	if (!f)
		fail("cannot read %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *field[7], *p = chomp(line);
		struct score *c;
		int n;

		for (n = 0; n < 7; n++) {
			field[n] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (n < 6)
			continue;
		c = add_score(s);
		copy(c->id, sizeof(c->id), field[0]);
		c->lab = atoi(field[1]);
		copy(c->verdict, sizeof(c->verdict), field[2]);
		c->points = strtod(field[3], NULL);
		c->max = strtod(field[4], NULL);
		c->seconds = strtod(field[5], NULL);
		copy(c->reason, sizeof(c->reason), field[6]);
	}
	fclose(f);
	tally(s);
}

static int do_student(const char *dir)
{
	char path[8192], line[2048];
	struct student s = { 0 };
	FILE *f;
	int i;
	bool graded;

	read_meta(&s, dir);
	copy(s.name, sizeof(s.name), meta(&s, "student"));
	if (!s.name[0])
		fail("%s/meta names no student", dir);
	graded = !strcmp(meta(&s, "status"), "graded");

	for (i = 0; i < nr_rubric; i++) {
		struct score *c;

		/* A line worth nothing counts only if the test ran. */
		if (rubric[i].points == 0)
			continue;
		c = add_score(&s);

		copy(c->id, sizeof(c->id), rubric[i].id);
		c->lab = rubric[i].lab;
		c->max = rubric[i].points;
		strcpy(c->verdict, graded ? "missing" : "not-run");
		copy(c->reason, sizeof(c->reason), graded ?
			 "the run reported no result for this test (see console.log)" : meta(&s, "reason"));
	}
	snprintf(path, sizeof(path), "%s/results.tsv", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *id = chomp(line), *verdict, *secs, *reason;
		struct rubric_line *r;
		struct score *c;

		verdict = strchr(id, '\t');
		if (!verdict)
			continue;
		*verdict++ = '\0';
		secs = strchr(verdict, '\t');
		if (!secs)
			continue;
		*secs++ = '\0';
		reason = strchr(secs, '\t');
		if (reason)
			*reason++ = '\0';
		r = rubric_find(id);
		c = score_find(&s, id);
		if (!c && r) {
			c = add_score(&s);
			copy(c->id, sizeof(c->id), id);
			c->lab = r->lab;
			c->max = r->points;
		} else if (!c) {
			/* A test the rubric does not score: kept, worth nothing. */
			c = add_score(&s);
			copy(c->id, sizeof(c->id), id);
			c->lab = -1;
		}
		copy(c->verdict, sizeof(c->verdict), verdict);
		c->seconds = strtod(secs, NULL);
		copy(c->reason, sizeof(c->reason), reason ? reason : "");
		c->points = r && !strcmp(verdict, "pass") ? r->points : 0;
	}
	if (f)
		fclose(f);
	tally(&s);

	snprintf(path, sizeof(path), "%s/scores.tsv", dir);
	f = fopen(path, "w");
	if (!f)
		fail("cannot write %s: %s", path, strerror(errno));
	for (i = 0; i < s.nr_scores; i++) {
		struct score *c = &s.scores[i];

		/* Reasons are one line of text: no tabs. */
		for (char *p = c->reason; *p; p++)
			if (*p == '\t')
				*p = ' ';
		fprintf(f, "%s\t%d\t%s\t%g\t%g\t%.2f\t%s\n", c->id, c->lab, c->verdict,
			c->points, c->max, c->seconds, c->reason);
	}
	if (fclose(f))
		fail("cannot write %s: %s", path, strerror(errno));
	write_feedback(&s, dir);
	printf("%g %g\n", s.total, s.max);
	return 0;
}

/* ---- the class ---- */

static struct student *students[MAX_STUDENTS];
static int nr_students;

static int cmp_student(const void *a, const void *b)
{
	return strcmp((*(struct student *const *)a)->name, (*(struct student *const *)b)->name);
}

static void read_class(const char *out)
{
	char path[4096];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/students", out);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char dir[4400], scores[4500];
		struct student *s;
		struct stat st;

		if (e->d_name[0] == '.' || strchr(e->d_name, '.'))
			continue;	/* NAME.partial: not finished */
		snprintf(dir, sizeof(dir), "%s/%s", path, e->d_name);
		snprintf(scores, sizeof(scores), "%s/scores.tsv", dir);
		if (stat(scores, &st))
			continue;
		if (nr_students == MAX_STUDENTS)
			fail("more than %d students in %s", MAX_STUDENTS, path);
		s = calloc(1, sizeof(*s));
		if (!s)
			fail("out of memory");
		read_meta(s, dir);
		copy(s->name, sizeof(s->name), meta(s, "student"));
		if (!s->name[0])
			copy(s->name, sizeof(s->name), e->d_name);
		read_scores(s, dir);
		students[nr_students++] = s;
	}
	closedir(d);
	qsort(students, nr_students, sizeof(students[0]), cmp_student);
}

static bool lab_used[MAX_LABS];

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\n' && c != '\t')
			fputc(' ', f);
		else
			fputc(c, f);
	}
}

static FILE *open_tmp(const char *out, const char *name, char *tmp, size_t len)
{
	FILE *f;

	snprintf(tmp, len, "%s/.%s.tmp", out, name);
	f = fopen(tmp, "w");
	if (!f)
		fail("cannot write %s: %s", tmp, strerror(errno));
	return f;
}

static void commit_tmp(FILE *f, const char *tmp, const char *out, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", out, name);
	if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path))
		fail("cannot write %s: %s", path, strerror(errno));
}

static void write_gradebook(const char *out)
{
	char tmp[4200];
	FILE *f = open_tmp(out, "gradebook.csv", tmp, sizeof(tmp));
	int i, lab;

	fprintf(f, "student");
	for (lab = 0; lab < MAX_LABS; lab++)
		if (lab_used[lab])
			fprintf(f, ",lab%d", lab);
	fprintf(f, ",total,max,status\n");
	for (i = 0; i < nr_students; i++) {
		struct student *s = students[i];

		csv_field(f, s->name);
		for (lab = 0; lab < MAX_LABS; lab++)
			if (lab_used[lab])
				fprintf(f, ",%g", s->lab_points[lab]);
		fprintf(f, ",%g,%g,", s->total, s->max);
		csv_field(f, meta(s, "status"));
		fputc('\n', f);
	}
	commit_tmp(f, tmp, out, "gradebook.csv");
}

static const char *const meta_in_json[] = {
	"folder", "status", "reason", "format", "submission", "commit", "kernel", "base",
	"kit", "config", "accel", "seconds", "time", NULL,
};

static void write_json(const char *out)
{
	char tmp[4200];
	FILE *f = open_tmp(out, "results.json", tmp, sizeof(tmp));
	int i, j, k, lab;

	fprintf(f, "{\n  \"rubric\": ");
	json_string(f, rubric_path);
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
		fprintf(f, ",\n      \"ignored\": [");
		for (j = 0; j < s->nr_meta; j++)
			if (!strcmp(s->meta_keys[j], "ignored")) {
				fprintf(f, "%s", first ? "" : ", ");
				json_string(f, s->meta_vals[j]);
				first = false;
			}
		fprintf(f, "],\n      \"total\": %g, \"max\": %g,\n      \"labs\": {", s->total, s->max);
		first = true;
		for (lab = 0; lab < MAX_LABS; lab++)
			if (lab_used[lab]) {
				fprintf(f, "%s\"%d\": %g", first ? "" : ", ", lab, s->lab_points[lab]);
				first = false;
			}
		fprintf(f, "},\n      \"logs\": {\"build\": \"students/%s/build.log\", "
			"\"console\": \"students/%s/console.log\", \"ktap\": \"students/%s/results.ktap\", "
			"\"feedback\": \"students/%s/feedback.md\"},\n      \"tests\": [",
			s->name, s->name, s->name, s->name);
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
	fprintf(f, "\n  ]\n}\n");
	commit_tmp(f, tmp, out, "results.json");
}

static void write_junit(const char *out)
{
	char tmp[4200];
	FILE *f = open_tmp(out, "junit.xml", tmp, sizeof(tmp));
	int i, j;

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
	fprintf(f, "</testsuites>\n");
	commit_tmp(f, tmp, out, "junit.xml");
}

struct count {
	char key[400];
	int n;
};

static void count_add(struct count *c, int *nr, int cap, const char *key)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(c[i].key, key)) {
			c[i].n++;
			return;
		}
	if (*nr < cap) {
		copy(c[*nr].key, sizeof(c[0].key), key);
		c[(*nr)++].n = 1;
	}
}

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	return x->n != y->n ? y->n - x->n : strcmp(x->key, y->key);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A reason without the numbers that differ between students. */
static void reason_class(const char *in, char *out, size_t len)
{
	size_t n = 0;

	while (*in && n + 1 < len) {
		if (*in >= '0' && *in <= '9') {
			/* A number, decimal or hex (an address): one N. */
			while ((*in >= '0' && *in <= '9') || (*in >= 'a' && *in <= 'f') || *in == 'x')
				in++;
			out[n++] = 'N';
			continue;
		}
		/* Runs of spaces as one (the console pads its timestamps). */
		if (*in == ' ' && n && out[n - 1] == ' ') {
			in++;
			continue;
		}
		out[n++] = *in++;
	}
	out[n] = '\0';
}

static void write_summary(const char *out, const char **warnings, int nr_warnings)
{
	static struct count failed[MAX_RUBRIC * 2], reasons[1024], statuses[32];
	int nr_failed = 0, nr_reasons = 0, nr_statuses = 0, i, j, lab, b;
	double *pct = calloc(nr_students + 1, sizeof(double)), mean = 0;
	char tmp[4200], cls[400];
	int buckets[11] = { 0 };
	FILE *f = open_tmp(out, "summary.md", tmp, sizeof(tmp));

	fprintf(f, "# The class at a glance\n\n");
	fprintf(f, "%d student%s graded with the rubric %s.\n\n", nr_students,
		nr_students == 1 ? "" : "s", rubric_path);
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
	for (i = 0; i < nr_statuses; i++)
		fprintf(f, "| %s | %d |\n", statuses[i].key, statuses[i].n);
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
	for (i = 0; i < nr_failed && i < 10; i++)
		fprintf(f, "%d. `%s`: %d of %d students\n", i + 1, failed[i].key, failed[i].n,
			nr_students);
	qsort(reasons, nr_reasons, sizeof(reasons[0]), cmp_count);
	fprintf(f, "\n## The common reasons (numbers shown as N)\n\n");
	for (i = 0; i < nr_reasons && i < 10; i++) {
		fprintf(f, "%d. %d× ", i + 1, reasons[i].n);
		for (const char *p = reasons[i].key; *p; p++)
			fputc(*p == '|' ? '/' : *p, f);
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

static int do_class(const char *out, const char *known_path)
{
	static char known[MAX_RUBRIC * 2][96];
	static char warnbuf[MAX_RUBRIC * 2][256];
	static const char *warnings[MAX_RUBRIC * 2];
	int nr_known = 0, nr_warnings = 0, i, j, k;
	char line[256];

	read_class(out);
	if (known_path) {
		FILE *f = fopen(known_path, "r");

		if (!f)
			fail("cannot read %s: %s", known_path, strerror(errno));
		while (fgets(line, sizeof(line), f) && nr_known < MAX_RUBRIC * 2) {
			char *p = chomp(line);

			if (*p)
				copy(known[nr_known++], sizeof(known[0]), p);
		}
		fclose(f);
	}
	for (i = 0; i < nr_rubric; i++)
		lab_used[rubric[i].lab] = true;
	/* Tests that ran or exist but are not in the rubric. */
	for (i = 0; i < nr_students; i++)
		for (j = 0; j < students[i]->nr_scores; j++) {
			struct score *c = &students[i]->scores[j];
			struct rubric_line *r = rubric_find(c->id);

			/* Seen: some run reported a result for it. */
			if (r && strcmp(c->verdict, "missing") && strcmp(c->verdict, "not-run"))
				r->seen = true;
		}
	for (k = 0; k < nr_known; k++) {
		struct rubric_line *r = rubric_find(known[k]);

		if (r) {
			r->seen = true;
			continue;
		}
		snprintf(warnbuf[nr_warnings], sizeof(warnbuf[0]),
			 "test %.96s has no rubric line: it scores nothing", known[k]);
		warnings[nr_warnings] = warnbuf[nr_warnings];
		nr_warnings++;
	}
	for (i = 0; i < nr_students; i++)
		for (j = 0; j < students[i]->nr_scores; j++) {
			struct score *c = &students[i]->scores[j];
			bool dup = false;

			if (c->lab >= 0 || nr_warnings >= MAX_RUBRIC * 2)
				continue;
			for (k = 0; k < nr_known; k++)
				dup |= !strcmp(known[k], c->id);
			for (k = 0; k < nr_warnings; k++)
				dup |= strstr(warnings[k], c->id) != NULL;
			if (dup)
				continue;
			snprintf(warnbuf[nr_warnings], sizeof(warnbuf[0]),
				 "test %.96s reported results but has no rubric line: it scores nothing", c->id);
			warnings[nr_warnings] = warnbuf[nr_warnings];
			nr_warnings++;
		}
	if (nr_known)
		for (i = 0; i < nr_rubric && nr_warnings < MAX_RUBRIC * 2; i++) {
			if (rubric[i].seen)
				continue;
			snprintf(warnbuf[nr_warnings], sizeof(warnbuf[0]),
				 "rubric line %.96s names no test the kit or EXTRA_TESTS has", rubric[i].id);
			warnings[nr_warnings] = warnbuf[nr_warnings];
			nr_warnings++;
		}
	for (i = 0; i < nr_warnings; i++)
		fprintf(stderr, "warning: %s\n", warnings[i]);
	write_gradebook(out);
	write_json(out);
	write_junit(out);
	write_summary(out, warnings, nr_warnings);
	return 0;
}

int main(int argc, char **argv)
{
	const char *rubric_file = NULL, *dir = NULL, *out = NULL, *known = NULL;
	int i;

	if (argc < 2)
		goto usage;
	for (i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--rubric"))
			rubric_file = argv[i + 1];
		else if (!strcmp(argv[i], "--dir"))
			dir = argv[i + 1];
		else if (!strcmp(argv[i], "--out"))
			out = argv[i + 1];
		else if (!strcmp(argv[i], "--known"))
			known = argv[i + 1];
		else
			goto usage;
	}
	if (i != argc || !rubric_file)
		goto usage;
	read_rubric(rubric_file);
	if (!strcmp(argv[1], "student") && dir)
		return do_student(dir);
	if (!strcmp(argv[1], "class") && out)
		return do_class(out, known);
usage:
	fprintf(stderr, "usage: grade-report student --rubric FILE --dir DIR\n"
		"       grade-report class --rubric FILE --out OUT [--known FILE]\n");
	return 2;
}
