// SPDX-License-Identifier: GPL-2.0
/*
 * grade-report: the grader's scoring and reports.
 *
 *   grade-report student [--rubric FILE] --dir DIR [--lab N] [--only ID,...] [--print]
 *	Scores one submission. Reads DIR/meta (KEY<TAB>VALUE lines: what was
 *	graded, written by grading/pipeline/run), DIR/stages/NAME (each stage's
 *	status: verdict, reason, log) and DIR/results.tsv (ID<TAB>VERDICT
 *	<TAB>SECONDS<TAB>REASON), decides the submission's status from the
 *	stages (invalid, does-not-apply, does-not-build, timed-out or
 *	graded), and writes DIR/status (KEY<TAB>VALUE: status, reason,
 *	flags, total, max), DIR/scores.tsv (ID, LAB, VERDICT, POINTS, MAX,
 *	SECONDS, REASON) and DIR/feedback.md; prints "TOTAL of MAX points
 *	(STATUS)". A test with no result scores 0 with verdict "not-run" (the
 *	submission was not graded: the stage's reason) or "missing" (the
 *	run reported nothing for it). --lab N scores labs 0..N only, --only
 *	the named tests (make check); --print adds, for make check, the
 *	points per lab and each test not passed, with its reason and the
 *	command that reruns it. The instructor's private tests
 *	(DIR/private/results.tsv, ids the test table does not have) score
 *	like the rest; feedback.md gives their verdicts, never their output.
 *
 *   grade-report class [--rubric FILE] --out OUT
 *	Reads every OUT/students/NAME/ that has scores.tsv and writes
 *	OUT/gradebook.csv, OUT/results.json, OUT/junit.xml and
 *	OUT/summary.md, each atomically (a temporary file renamed), warning
 *	on stderr and in summary.md about rubric lines that name no test and
 *	tests that reported results but score nothing; and OUT/index.md with
 *	OUT/scores.svg, the same class for a browser (grading/instructor/render-report
 *	renders it).
 *
 * The points come from the test table, grading/tests.list (--tests FILE,
 * default $KIT/grading/tests.list); a RUBRIC file of 'ID LAB POINTS'
 * lines changes them and adds the private tests' lines.
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

#include "registry.h"
#include "report/report.h"

/* The test table: every test the kit has, from the registry (registry.c). */
static void read_table(const char *path)
{
	static struct reg_test table[REGISTRY_MAX_TESTS];
	char err[1200];
	int n = registry_read(path, table, REGISTRY_MAX_TESTS, err, sizeof(err)), i;

	if (n < 0)
		fail("%s", err);
	for (i = 0; i < n; i++) {
		struct rubric_line *r = &rubric[nr_rubric++];

		copy(r->id, sizeof(r->id), table[i].id);
		r->lab = table[i].lab;
		r->points = table[i].points;
		r->in_table = true;
		r->scored = true;
	}
}

/*
 * An instructor's rubric ("ID LAB POINTS" lines): new points for the
 * table's tests, and lines for private tests.
 */
static void read_rubric(const char *path)
{
	char line[1024];
	int lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		fail("cannot read the rubric %s: %s", path, strerror(errno));
	rubric_path = path;
	while (fgets(line, sizeof(line), f)) {
		struct rubric_line *r;
		char id[96], extra[2];
		int lab, n;
		double points;
		char *p = chomp(line);

		lineno++;
		p += strspn(p, " \t");
		if (!*p || *p == '#')
			continue;
		n = sscanf(p, "%95s %d %lf %1s", id, &lab, &points, extra);
		if (n != 3 || lab < 0 || lab >= MAX_LABS || points < 0)
			fail("%s:%d: expected 'TEST_ID LAB POINTS' (lab 0..%d, points >= 0), got '%s'",
			     path, lineno, MAX_LABS - 1, p);
		r = rubric_find(id);
		if (r && r->in_rubric)
			fail("%s:%d: test %s has two lines", path, lineno, id);
		if (r && r->lab != lab)
			fail("%s:%d: test %s is a test of lab %d, not %d (grading/tests.list)", path,
			     lineno, id, r->lab, lab);
		if (!r) {
			if (nr_rubric == MAX_RUBRIC)
				fail("%s: more than %d lines", path, MAX_RUBRIC);
			r = &rubric[nr_rubric++];
			copy(r->id, sizeof(r->id), id);
			r->lab = lab;
			r->in_table = false;
			r->scored = true;
		}
		r->in_rubric = true;
		r->points = points;
	}
	fclose(f);
}

/* --lab N and --only: which tests this score counts. */
static void select_scored(int lab, const char *only)
{
	int i;

	for (i = 0; i < nr_rubric; i++) {
		struct rubric_line *r = &rubric[i];

		if (only) {
			char want[100];
			const char *p = only;
			size_t n;

			r->scored = false;
			while (*p) {
				n = strcspn(p, ",");
				copy(want, n + 1 < sizeof(want) ? n + 1 : sizeof(want), p);
				if (!strcmp(want, r->id) ||
				    (!strncmp(want, "lab", 3) && !strchr(want, '.') && atoi(want + 3) == r->lab))
					r->scored = true;
				p += n + (p[n] == ',');
			}
		} else if (lab >= 0) {
			r->scored = r->lab <= lab;
		}
	}
}

static void meta_add(struct student *s, const char *key, const char *value)
{
	if (s->nr_meta == MAX_META)
		return;
	copy(s->meta_keys[s->nr_meta], sizeof(s->meta_keys[0]), key);
	copy_text(s->meta_vals[s->nr_meta], sizeof(s->meta_vals[0]), value);
	s->nr_meta++;
}

/* KEY<TAB>VALUE lines of a file into meta; false if it does not exist. */
static bool read_kv(struct student *s, const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(chomp(line), '\t');

		if (!tab)
			continue;
		*tab = '\0';
		meta_add(s, line, tab + 1);
	}
	fclose(f);
	return true;
}

static void read_meta(struct student *s, const char *dir)
{
	char path[8192];

	snprintf(path, sizeof(path), "%s/meta", dir);
	if (!read_kv(s, path))
		fail("cannot read %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/status", dir);
	read_kv(s, path);
}

/*
 * The submission's status, from its stages in the pipeline's order: the
 * first that did not go through decides (grading/pipeline/run writes them).
 */
static void decide_status(const char *dir, char *status, size_t slen, char *reason, size_t rlen)
{
	static const struct {
		const char *stage, *status;
	} order[] = {
		{ "submission", "timed-out" },
		{ "intake", "invalid" },
		{ "apply", "does-not-apply" },
		{ "build", "does-not-build" },
	};
	size_t i;

	copy(status, slen, "graded");
	reason[0] = '\0';
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		struct student st = { 0 };
		char path[8192];
		const char *v;

		snprintf(path, sizeof(path), "%s/stages/%s", dir, order[i].stage);
		if (!read_kv(&st, path))
			continue;
		v = meta(&st, "verdict");
		if (!strcmp(v, "ok") || !v[0])
			continue;
		copy(status, slen, order[i].status);
		copy(reason, rlen, meta(&st, "reason"));
		return;
	}
}

static struct score *add_score(struct student *s)
{
	s->scores = realloc(s->scores, (s->nr_scores + 1) * sizeof(*s->scores));
	if (!s->scores)
		fail("out of memory");
	memset(&s->scores[s->nr_scores], 0, sizeof(*s->scores));
	return &s->scores[s->nr_scores++];
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
		copy_text(c->id, sizeof(c->id), field[0]);
		c->lab = atoi(field[1]);
		copy(c->verdict, sizeof(c->verdict), field[2]);
		c->points = strtod(field[3], NULL);
		c->max = strtod(field[4], NULL);
		c->seconds = strtod(field[5], NULL);
		copy_text(c->reason, sizeof(c->reason), field[6]);
	}
	fclose(f);
	tally(s);
}

/*
 * One results file into the scores. A private run (the instructor's tests,
 * on the student's kernel) may only speak of tests the table does not
 * have: a line about one of the kit's tests is the kernel writing into it.
 */
static void read_results(struct student *s, const char *path, bool private_run, bool *tampered)
{
	char line[2048];
	FILE *f = fopen(path, "r");

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
		if (private_run && r && r->in_table) {
			*tampered = true;
			continue;
		}
		if (!strcmp(verdict, "tampered"))
			*tampered = true;
		if (r && !r->scored)
			continue;
		c = score_find(s, id);
		if (!c && r) {
			c = add_score(s);
			copy(c->id, sizeof(c->id), id);
			c->lab = r->lab;
			c->max = r->points;
		} else if (!c) {
			/* A test the rubric does not score: kept, worth nothing. */
			c = add_score(s);
			copy_text(c->id, sizeof(c->id), id);
			c->lab = -1;
		}
		c->private_test = private_run;
		copy(c->verdict, sizeof(c->verdict), verdict);
		c->seconds = strtod(secs, NULL);
		copy_text(c->reason, sizeof(c->reason), reason ? reason : "");
		c->points = r && !strcmp(verdict, "pass") ? r->points : 0;
	}
	if (f)
		fclose(f);
}

/*
 * make check's summary: the points per lab, then what did not pass, then
 * the unscored tests that failed, as warnings (they give no points, but a
 * failure says something: keeps_ tests that a later lab breaks).
 */
static void print_check(struct student *s, const char *dir)
{
	char reason[KTAP_REASON_MAX];
	bool any = false;
	int i, lab, pass;

	for (lab = 0; lab < MAX_LABS; lab++)
		if (s->lab_max[lab] > 0)
			printf("  lab %d  %5g of %g points\n", lab, s->lab_points[lab], s->lab_max[lab]);
	/* Pass 0: the tests with points (and results the rubric does not
	 * know); pass 1: the kit's unscored tests. */
	for (pass = 0; pass < 2; pass++) {
		bool section = false;

		for (i = 0; i < s->nr_scores; i++) {
			struct score *c = &s->scores[i];
			bool unscored = c->max == 0 && c->lab >= 0;

			if (unscored != (pass == 1) || !strcmp(c->verdict, "pass") ||
			    (unscored && !strcmp(c->verdict, "missing")))
				continue;
			if (!section)
				printf(pass ? "\nWarnings: unscored tests that failed (they give no points; read why):\n" :
				       "\nNot passed:\n");
			section = any = true;
			copy(reason, sizeof(reason), c->reason);
			scrub(reason, sizeof(reason), dir);
			printf("  %s%s (%s): %s\n", pass ? "warning: " : "", c->id, c->verdict,
			       reason[0] ? reason : "see the log");
			if (c->lab >= 0 && strcmp(c->verdict, "not-run"))
				printf("    rerun just this test: make check N=%d ONLY=%s\n", c->lab, c->id);
		}
	}
	if (any)
		printf("\n");
}

static int do_student(const char *dir, bool print)
{
	char path[8192], status[32], reason[400], flags[64] = "";
	struct student s = { 0 };
	bool graded, tampered = false;
	FILE *f;
	int i;

	read_meta(&s, dir);
	copy_text(s.name, sizeof(s.name), meta(&s, "student"));
	if (!s.name[0])
		fail("%s/meta names no student", dir);
	decide_status(dir, status, sizeof(status), reason, sizeof(reason));
	plain(reason);
	meta_add(&s, "status", status);
	meta_add(&s, "reason", reason);
	graded = !strcmp(status, "graded");

	for (i = 0; i < nr_rubric; i++) {
		struct score *c;

		/* A line worth nothing counts only if the test ran. */
		if (rubric[i].points == 0 || !rubric[i].scored)
			continue;
		c = add_score(&s);
		copy(c->id, sizeof(c->id), rubric[i].id);
		c->lab = rubric[i].lab;
		c->max = rubric[i].points;
		c->private_test = !rubric[i].in_table;
		strcpy(c->verdict, graded ? "missing" : "not-run");
		copy(c->reason, sizeof(c->reason), graded ?
			 "the run reported no result for this test (see console.log)" : reason);
	}
	snprintf(path, sizeof(path), "%s/results.tsv", dir);
	read_results(&s, path, false, &tampered);
	snprintf(path, sizeof(path), "%s/private/results.tsv", dir);
	read_results(&s, path, true, &tampered);
	tally(&s);

	if (tampered)
		strcat(flags, "tampered");
	if (meta(&s, "flag")[0])
		strcat(flags, flags[0] ? " flagged" : "flagged");
	/* The labs whose change is the kit's reference (30-keep): reference:1,2. */
	for (i = 0; i < s.nr_meta; i++) {
		const char *lab = strstr(s.meta_vals[i], "(lab ");
		char n[8];

		if (strcmp(s.meta_keys[i], "reference") || !lab ||
		    snprintf(n, sizeof(n), "%d", atoi(lab + 5)) >= (int)sizeof(n) ||
		    strlen(flags) + strlen(n) + 12 >= sizeof(flags))
			continue;
		strcat(flags, strstr(flags, "reference:") ? "," : flags[0] ? " reference:" : "reference:");
		strcat(flags, n);
	}
	snprintf(path, sizeof(path), "%s/status", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "status\t%s\nreason\t%s\nflags\t%s\ntotal\t%g\nmax\t%g\n", status, reason,
			  flags, s.total, s.max) < 0 || fclose(f))
		fail("cannot write %s: %s", path, strerror(errno));
	meta_add(&s, "flags", flags);

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
	if (print)
		print_check(&s, dir);
	printf("%g of %g points (%s%s%s)\n", s.total, s.max, status, flags[0] ? ", " : "", flags);
	return 0;
}

/* ---- the class ---- */

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
		s = calloc(1, sizeof(*s));
		if (!s)
			fail("out of memory");
		if (stat(scores, &st)) {
			/* Not graded: the machine's fault (kit-error), or not done. */
			struct student st_only = { 0 };
			char status[4500];

			snprintf(status, sizeof(status), "%s/status", dir);
			if (!read_kv(&st_only, status) || strcmp(meta(&st_only, "status"), "kit-error") ||
			    nr_ungraded == MAX_STUDENTS) {
				free(s);
				continue;
			}
			read_kv(s, status);
			snprintf(status, sizeof(status), "%s/meta", dir);
			read_kv(s, status);
			copy_text(s->name, sizeof(s->name), meta(s, "student"));
			if (!s->name[0])
				copy_text(s->name, sizeof(s->name), e->d_name);
			ungraded[nr_ungraded++] = s;
			continue;
		}
		if (nr_students == MAX_STUDENTS)
			fail("more than %d students in %s", MAX_STUDENTS, path);
		read_meta(s, dir);
		copy_text(s->name, sizeof(s->name), meta(s, "student"));
		if (!s->name[0])
			copy_text(s->name, sizeof(s->name), e->d_name);
		read_scores(s, dir);
		students[nr_students++] = s;
	}
	closedir(d);
	qsort(students, nr_students, sizeof(students[0]), cmp_student);
	qsort(ungraded, nr_ungraded, sizeof(ungraded[0]), cmp_student);
}

static int do_class(const char *out)
{
	static char warnbuf[MAX_RUBRIC * 2][256];
	static const char *warnings[MAX_RUBRIC * 2];
	int nr_warnings = 0, i, j, k;

	read_class(out);
	for (i = 0; i < nr_rubric; i++)
		lab_used[rubric[i].lab] = true;
	for (i = 0; i < nr_students; i++)
		for (j = 0; j < students[i]->nr_scores; j++) {
			struct score *c = &students[i]->scores[j];
			struct rubric_line *r = rubric_find(c->id);
			bool dup = false;

			/* Seen: some run reported a result for it. */
			if (r && strcmp(c->verdict, "missing") && strcmp(c->verdict, "not-run"))
				r->seen = true;
			if (c->lab >= 0 || nr_warnings >= MAX_RUBRIC * 2)
				continue;
			for (k = 0; k < nr_warnings; k++)
				dup |= strstr(warnings[k], c->id) != NULL;
			if (dup)
				continue;
			snprintf(warnbuf[nr_warnings], sizeof(warnbuf[0]),
				 "test %.96s reported results but has no rubric line: it scores nothing", c->id);
			warnings[nr_warnings] = warnbuf[nr_warnings];
			nr_warnings++;
		}
	/* A private test's line that no run ever answered. */
	for (i = 0; i < nr_rubric && nr_warnings < MAX_RUBRIC * 2; i++) {
		if (rubric[i].in_table || rubric[i].seen || !nr_students)
			continue;
		snprintf(warnbuf[nr_warnings], sizeof(warnbuf[0]),
			 "rubric line %.96s names no test the kit or EXTRA_TESTS has", rubric[i].id);
		warnings[nr_warnings] = warnbuf[nr_warnings];
		nr_warnings++;
	}
	for (i = 0; i < nr_warnings; i++)
		fprintf(stderr, "warning: %s\n", warnings[i]);
	report_write_all(out, warnings, nr_warnings);
	return 0;
}

int main(int argc, char **argv)
{
	const char *rubric_file = NULL, *tests = NULL, *dir = NULL, *out = NULL, *only = NULL;
	bool print = false;
	int i, lab = -1;

	if (argc < 2)
		goto usage;
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--print")) {
			print = true;
			continue;
		}
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--rubric"))
			rubric_file = argv[++i];
		else if (!strcmp(argv[i], "--tests"))
			tests = argv[++i];
		else if (!strcmp(argv[i], "--dir"))
			dir = argv[++i];
		else if (!strcmp(argv[i], "--out"))
			out = argv[++i];
		else if (!strcmp(argv[i], "--lab"))
			lab = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--only"))
			only = argv[++i];
		else
			goto usage;
	}
	read_table(registry_path(tests));
	if (rubric_file)
		read_rubric(rubric_file);
	if (!strcmp(argv[1], "student") && dir) {
		select_scored(lab, only);
		return do_student(dir, print);
	}
	if (!strcmp(argv[1], "class") && out)
		return do_class(out);
usage:
	fprintf(stderr, "usage: grade-report student [--tests FILE] [--rubric FILE] --dir DIR [--lab N] "
		"[--only IDS] [--print]\n"
		"       grade-report class [--tests FILE] [--rubric FILE] --out OUT\n");
	return 2;
}
