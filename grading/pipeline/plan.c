// SPDX-License-Identifier: GPL-2.0
/*
 * plan: what grading/tests.list declares, for the programs that need it.
 *
 *   plan [--tests FILE] list [--lab N] [--only ID,...] [--where W,...]
 *	The selected tests, one per line: ID LAB POINTS WHERE WHAT (tabs).
 *	--lab N: the tests of labs 0..N (a suite-own test only when its lab
 *	is N); without it, every lab (suite-own tests are left out). --only:
 *	just the named tests (an id, or labN for all of lab N's), whatever
 *	their lab; an unknown id is an error.
 *	--where: only tests that run there (suite-own counts as suite).
 *   plan [--tests FILE] where [--lab N] [--only ID,...]
 *	Where the selected tests run, one per line, in the table's order:
 *	suite, lab3, ... (what a run must start).
 *   plan [--tests FILE] rubric
 *	The default rubric: ID LAB POINTS, one per line.
 *   plan [--tests FILE] header
 *	The suite's table as C (SUITE_TEST(lab, name, "id", own, "what")
 *	lines), for grading/suite/main.c.
 *   plan [--tests FILE] labs
 *	The lab numbers that have tests, one per line.
 *   plan [--tests FILE] table [--lab N] [--only ID,...]
 *	The selected tests as the lab texts' Markdown table (test, points,
 *	checks): docs/lab-tables writes it into each text, tests/16-docs.t
 *	checks that the text's is this one.
 *
 * The table's format is at the top of grading/tests.list; a line that
 * breaks it is an error that names the file, the line and what is wrong.
 * Exit status: 0 done, 1 bad table or bad selection (said on stderr),
 * 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

#define MAX_LABS REGISTRY_MAX_LABS

static struct reg_test tests[REGISTRY_MAX_TESTS];
static bool selected[REGISTRY_MAX_TESTS];
static int nr_tests;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "plan: %s%s\n", msg, arg ? arg : "");
	exit(1);
}

static void read_table(const char *path)
{
	char err[1200];

	nr_tests = registry_read(path, tests, REGISTRY_MAX_TESTS, err, sizeof(err));
	if (nr_tests < 0) {
		fprintf(stderr, "plan: %s\n", err);
		exit(1);
	}
}

static const char *where_of(const struct reg_test *t)
{
	return registry_where(t);
}

/* WORD is one of the comma-separated items of LIST. */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (p && *p) {
		if (!strncmp(p, word, n) && (p[n] == ',' || !p[n]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

/* WORD is "labN" and T a test of lab N: --only lab3 names a whole lab. */
static bool lab_named(const char *word, const struct reg_test *t)
{
	char *end;
	long n;

	if (strncmp(word, "lab", 3) || !word[3])
		return false;
	n = strtol(word + 3, &end, 10);
	return !*end && n == t->lab;
}

static bool lab_in_list(const char *list, const struct reg_test *t)
{
	char word[16];

	snprintf(word, sizeof(word), "lab%d", t->lab);
	return in_list(list, word);
}

static void select_tests(int lab, const char *only, const char *where)
{
	int i;

	if (only) {
		/* Every named id must exist. */
		char *copy = strdup(only), *save = NULL, *id;

		for (id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < nr_tests && strcmp(tests[i].id, id) && !lab_named(id, &tests[i]); i++)
				;
			if (i == nr_tests) {
				fprintf(stderr, "plan: no test is called %s (make check lists them; "
					"grading/tests.list declares them)\n", id);
				exit(1);
			}
		}
		free(copy);
	}
	for (i = 0; i < nr_tests; i++) {
		const struct reg_test *t = &tests[i];
		bool own = !strcmp(t->where, "suite-own");

		if (only)
			selected[i] = in_list(only, t->id) || lab_in_list(only, t);
		else if (lab >= 0)
			selected[i] = t->lab <= lab && (!own || t->lab == lab);
		else
			selected[i] = !own;
		if (where && !in_list(where, where_of(t)))
			selected[i] = false;
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: plan [--tests FILE] list|where|table [--lab N] [--only ID,...] [--where W,...]\n"
			"       plan [--tests FILE] rubric|header|labs\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *table = NULL, *cmd, *only = NULL, *where = NULL;
	int i = 1, lab = -1, k;

	if (i + 1 < argc && !strcmp(argv[i], "--tests")) {
		table = argv[i + 1];
		i += 2;
	}
	if (i >= argc)
		usage();
	cmd = argv[i++];
	for (; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--lab")) {
			char *end;

			lab = (int)strtol(argv[++i], &end, 10);
			if (*end || lab < 0 || lab >= MAX_LABS)
				die("--lab takes a lab number, not ", argv[i]);
		} else if (i + 1 < argc && !strcmp(argv[i], "--only")) {
			only = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--where")) {
			where = argv[++i];
		} else {
			usage();
		}
	}
	read_table(registry_path(table));
	select_tests(lab, only, where);

	if (!strcmp(cmd, "list")) {
		for (k = 0; k < nr_tests; k++)
			if (selected[k])
				printf("%s\t%d\t%g\t%s\t%s\n", tests[k].id, tests[k].lab,
				       tests[k].points, where_of(&tests[k]), tests[k].what);
	} else if (!strcmp(cmd, "where")) {
		for (k = 0; k < nr_tests; k++) {
			int j;

			if (!selected[k])
				continue;
			for (j = 0; j < k; j++)
				if (selected[j] && !strcmp(where_of(&tests[j]), where_of(&tests[k])))
					break;
			if (j == k)
				printf("%s\n", where_of(&tests[k]));
		}
	} else if (!strcmp(cmd, "rubric")) {
		for (k = 0; k < nr_tests; k++)
			printf("%s %d %g\n", tests[k].id, tests[k].lab, tests[k].points);
	} else if (!strcmp(cmd, "labs")) {
		for (k = 0; k < MAX_LABS; k++) {
			int j;

			for (j = 0; j < nr_tests && tests[j].lab != k; j++)
				;
			if (j < nr_tests)
				printf("%d\n", k);
		}
	} else if (!strcmp(cmd, "table")) {
		printf("| test | points | checks |\n|---|---|---|\n");
		for (k = 0; k < nr_tests; k++) {
			const char *c;

			if (!selected[k])
				continue;
			printf("| `%s` | %g | ", tests[k].id, tests[k].points);
			for (c = tests[k].what; *c; c++)
				printf(*c == '|' ? "\\|" : "%c", *c);
			printf(" |\n");
		}
	} else if (!strcmp(cmd, "header")) {
		printf("/* Generated from grading/tests.list by grading/pipeline/plan.c: do not edit. */\n");
		for (k = 0; k < nr_tests; k++) {
			const struct reg_test *t = &tests[k];
			const char *c;

			if (strcmp(where_of(t), "suite"))
				continue;
			printf("SUITE_TEST(%d, ", t->lab);
			for (c = t->id; *c; c++)
				putchar(*c == '.' || *c == '-' ? '_' : *c);
			printf(", \"%s\", %d, \"", t->id, !strcmp(t->where, "suite-own"));
			for (c = t->what; *c; c++) {
				if (*c == '"' || *c == '\\')
					putchar('\\');
				putchar(*c);
			}
			printf("\")\n");
		}
	} else {
		usage();
	}
	return 0;
}
