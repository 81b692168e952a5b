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

#define MAX_RUBRIC	512
#define MAX_STUDENTS	2000
#define MAX_LABS	REGISTRY_MAX_LABS
#define MAX_META	64

struct rubric_line {
	char id[96];
	int lab;
	double points;
	bool in_table;		/* a test of grading/tests.list */
	bool in_rubric;		/* the instructor's rubric has a line for it */
	bool scored;		/* counted in this score (--lab, --only) */
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

/*
 * The length of the UTF-8 character at P (1 to 4), or 0 when the bytes
 * there are not one.
 */
static int utf8_len(const unsigned char *p)
{
	int len, k;

	if (*p < 0x80)
		return 1;
	if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
		len = 2;
	else if ((*p & 0xf0) == 0xe0)
		len = 3;
	else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
		len = 4;
	else
		return 0;
	for (k = 1; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * Text that came from a student (a reason, a name, a console or compiler
 * line), made plain in place: control characters become spaces and bytes
 * that are not UTF-8 '?', so that no output (a terminal, Markdown, CSV,
 * JSON, XML) gets a byte it would read as anything but text. Each writer
 * then escapes what its format gives a meaning to.
 */
static void plain(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		int len = utf8_len(p);

		if (!len)
			*p++ = '?';
		else if (len == 1 && (*p < 0x20 || *p == 0x7f))
			*p++ = ' ';
		else
			p += len;
	}
}

/*
 * S written to F one character at a time: bytes that are not UTF-8 as
 * '?', other characters beyond ASCII as they are, and each ASCII byte as
 * the format's ASCII writer says (its escaping).
 */
static void write_text(FILE *f, const char *s, void (*ascii)(FILE *f, unsigned char c))
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int len = utf8_len(p);

		if (!len) {
			fputc('?', f);
			p++;
		} else if (len > 1) {
			fwrite(p, 1, len, f);
			p += len;
		} else {
			ascii(f, *p++);
		}
	}
}

/* ASCII as itself, a control character as a space. */
static void plain_ascii(FILE *f, unsigned char c)
{
	fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
}

/* copy() of text from a student, made plain. */
static void copy_text(char *dst, size_t size, const char *src)
{
	copy(dst, size, src);
	plain(dst);
}

static char *chomp(char *s)
{
	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

static struct rubric_line *rubric_find(const char *id);

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
	bool private_test;	/* the instructor's: its reason stays out of feedback */
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

/*
 * A reason for the student's eyes: the grader's own folders (the kit, the
 * work folder, the student's folder in OUT) taken out of the paths in it.
 */
static void scrub(char *reason, size_t size, const char *dir)
{
	const char *prefixes[4];
	char partial[4200], out[1024];
	int i, k;

	snprintf(partial, sizeof(partial), "%s", dir);
	if (strlen(partial) > 8 && !strcmp(partial + strlen(partial) - 8, ".partial"))
		partial[strlen(partial) - 8] = '\0';
	prefixes[0] = dir;
	prefixes[1] = partial;
	prefixes[2] = getenv("WORK");
	prefixes[3] = getenv("KIT");
	for (k = 0; k < 4; k++) {
		const char *pre = prefixes[k];
		size_t n = pre ? strlen(pre) : 0;
		char *hit;

		if (n < 2)
			continue;
		while ((hit = strstr(reason, pre))) {
			const char *rest = hit + n;

			if (*rest == '/')
				rest++;
			i = snprintf(out, sizeof(out), "%.*s%s%s", (int)(hit - reason), reason,
				     k == 2 ? "work/" : "", rest);
			(void)i;
			copy(reason, size, out);
		}
	}
}

/*
 * Text into Markdown that pandoc reads as text, whatever it holds (a
 * reason may carry a kernel's console line): every ASCII punctuation
 * character escaped, control characters and invalid UTF-8 as spaces and
 * '?', so that nothing in it becomes markup or breaks the page.
 */
static void md_ascii(FILE *f, unsigned char c)
{
	if (c >= 0x20 && c != 0x7f && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c))
		fprintf(f, "\\%c", c);
	else
		plain_ascii(f, c);
}

static void md_text(FILE *f, const char *s)
{
	write_text(f, s, md_ascii);
}

static void repeat(FILE *f, int c, int n)
{
	while (n-- > 0)
		fputc(c, f);
}

/* The longest run of backticks in S. */
static int backtick_run(const char *s)
{
	int run = 0, longest = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

/*
 * Text as a Markdown code span that nothing inside can close: its fence
 * is one backtick longer than the longest run in the text, a space pads a
 * text that starts or ends with one, and what follows the span is always
 * the kit's (so no {...} attribute can be attached to it). Control
 * characters and invalid UTF-8 become spaces and '?'. Used where a person
 * reads the .md as it is (feedback.md): the text stays as it was.
 */
static void md_code(FILE *f, const char *s)
{
	int fence = backtick_run(s) + 1;
	bool pad = s[0] == '`' || (s[0] && s[strlen(s) - 1] == '`');

	if (!s[0]) {
		fputs("(none)", f);
		return;
	}
	repeat(f, '`', fence);
	if (pad)
		fputc(' ', f);
	write_text(f, s, plain_ascii);
	if (pad)
		fputc(' ', f);
	repeat(f, '`', fence);
}

static void write_feedback(struct student *s, const char *dir)
{
	char path[4096], final[4096], tmp[4200], line[1024], reason[400];
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
	char reason[400];
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
		copy_text(s->name, sizeof(s->name), meta(s, "student"));
		if (!s->name[0])
			copy_text(s->name, sizeof(s->name), e->d_name);
		read_scores(s, dir);
		students[nr_students++] = s;
	}
	closedir(d);
	qsort(students, nr_students, sizeof(students[0]), cmp_student);
}

static bool lab_used[MAX_LABS];

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
	commit_tmp(f, tmp, out, "gradebook.csv");
}

static const char *const meta_in_json[] = {
	"folder", "status", "reason", "flags", "format", "submission", "commit", "kernel", "base",
	"kit", "config", "accel", "seed", "seconds", "time", NULL,
};

static void write_json(const char *out)
{
	static const char *const logs[] = {
		"build", "build.log", "console", "console.log", "ktap", "results.ktap",
		"feedback", "feedback.md", NULL,
	};
	char tmp[4200];
	FILE *f = open_tmp(out, "results.json", tmp, sizeof(tmp));
	int i, j, k, lab;

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
		fprintf(f, ",\n      \"ignored\": [");
		for (j = 0; j < s->nr_meta; j++)
			if (!strcmp(s->meta_keys[j], "ignored")) {
				fprintf(f, "%s", first ? "" : ", ");
				json_string(f, s->meta_vals[j]);
				first = false;
			}
		fprintf(f, "],\n      \"flagged_lines\": [");
		first = true;
		for (j = 0; j < s->nr_meta; j++)
			if (!strcmp(s->meta_keys[j], "flag")) {
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
	fprintf(f, "%d student%s graded with %s.\n\n", nr_students,
		nr_students == 1 ? "" : "s", rubric_path ? rubric_path : "the kit's default points");
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
				"(its tests score 0); `flagged`: code no bpf_loop solution needs.\n\n");
		fprintf(f, "- ");
		md_text(f, s->name);
		fprintf(f, " (");
		md_text(f, meta(s, "flags"));
		fprintf(f, ")\n");
		for (j = 0; j < s->nr_meta; j++)
			if (!strcmp(s->meta_keys[j], "flag")) {
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
			"bpf_loop solution needs, these lines:\n\n");
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
				if (!strcmp(s->meta_keys[j], "flag")) {
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
	write_gradebook(out);
	write_json(out);
	write_junit(out);
	write_summary(out, warnings, nr_warnings);
	write_index(out, warnings, nr_warnings);
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
