/* SPDX-License-Identifier: GPL-2.0 */
/*
 * grade-report's result tree and its writers. grade-report.c reads a
 * student's or a class's files and scores them (the tree below: the
 * rubric, the students, their scores); each output is one file here that
 * writes the tree in one format, with that format's one escaping rule:
 *
 *	feedback.c	a student's feedback.md (Markdown: md.c)
 *	csv.c		gradebook.csv (csv_field)
 *	json.c		results.json (json_string)
 *	junit.c		junit.xml (xml_text)
 *	summary.c	summary.md (md.c)
 *	index.c		index.md and scores.svg (md.c, url_part)
 *
 * A class output registers itself with REPORT_WRITER(FILE, FUNCTION):
 * grade-report class runs every registered writer, in the order of their
 * file names; adding an output is adding one file here (the Makefile
 * builds every .c of this folder into grade-report).
 */
#ifndef BPFLOOP_REPORT_H
#define BPFLOOP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../ktap.h"
#include "../registry.h"

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

struct score {
	char id[96];
	int lab;
	char verdict[16];
	double points, max, seconds;
	char reason[KTAP_REASON_MAX];
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

struct count {
	char key[400];
	int n;
};

/* ---- the tree: grade-report.c ---- */

extern struct rubric_line rubric[MAX_RUBRIC];
extern int nr_rubric;
extern const char *rubric_path;
extern struct student *students[MAX_STUDENTS];
extern int nr_students;
/*
 * The students the machine kept from a grade (status kit-error: a fault
 * of the grading machine, grading/pipeline/run): no points, in no
 * statistic; every class output lists them as "not graded (kit error)"
 * with the cause (meta "reason"), and the next run grades them.
 */
extern struct student *ungraded[MAX_STUDENTS];
extern int nr_ungraded;
extern bool lab_used[MAX_LABS];

struct rubric_line *rubric_find(const char *id);
void fail(const char *fmt, ...);
void copy(char *dst, size_t size, const char *src);
void plain(char *s);
void write_text(FILE *f, const char *s, void (*ascii)(FILE *f, unsigned char c));
void plain_ascii(FILE *f, unsigned char c);
void copy_text(char *dst, size_t size, const char *src);
char *chomp(char *s);
const char *meta(const struct student *s, const char *key);
struct score *score_find(struct student *s, const char *id);
void scrub(char *reason, size_t size, const char *dir);
int utf8_len(const unsigned char *p);

/* ---- shared by the writers: report.c ---- */

FILE *open_tmp(const char *out, const char *name, char *tmp, size_t len);
void commit_tmp(FILE *f, const char *tmp, const char *out, const char *name);
void count_add(struct count *c, int *nr, int cap, const char *key);
void reason_class(const char *in, char *out, size_t len);
int cmp_count(const void *a, const void *b);
int cmp_double(const void *a, const void *b);

/* ---- Markdown: md.c ---- */

void md_text(FILE *f, const char *s);
void repeat(FILE *f, int c, int n);
int backtick_run(const char *s);
void md_code(FILE *f, const char *s);

/* ---- the outputs ---- */

void write_feedback(struct student *s, const char *dir);

typedef void report_writer_fn(const char *out, const char **warnings, int nr_warnings);
void report_register(const char *file, report_writer_fn *fn);
/* Every class writer of report/: run in the order of their files' names. */
void report_write_all(const char *out, const char **warnings, int nr_warnings);
#define REPORT_WRITER(file, fn)						\
	static void __attribute__((constructor)) register_##fn(void)	\
	{								\
		report_register(file, fn);				\
	}

#endif
