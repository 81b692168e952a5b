/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The registry of the kit's tests: grading/tests.list, read by one parser
 * for every program that needs it (plan, grade-report). The table's
 * format is at the top of tests.list: "ID LAB POINTS WHERE WHAT" lines.
 */
#ifndef BPFLOOP_REGISTRY_H
#define BPFLOOP_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#define REGISTRY_MAX_TESTS 512
#define REGISTRY_MAX_LABS 10

struct reg_test {
	char id[96];
	int lab;
	double points;
	char where[16];		/* suite, suite-own, lab3, ... */
	char what[400];
};

/*
 * Reads the table at PATH into TESTS (room for MAX). Returns how many it
 * declares, or -1 with ERR (of ERRLEN bytes) saying what is wrong: the
 * file, the line and the fix.
 */
int registry_read(const char *path, struct reg_test *tests, int max, char *err, size_t errlen);

/*
 * The ids of the tests that WHERE runs (a host-side lab's judge: "lab4"),
 * in the table's order: at most MAX in IDS, which point into storage of
 * the registry's own. TABLE as registry_path takes it. Returns how many,
 * or -1 with ERR.
 */
int registry_where_ids(const char *table, const char *where, const char **ids, int max, char *err,
		       size_t errlen);

/* Where T runs: a suite-own test runs in the suite. */
const char *registry_where(const struct reg_test *t);

/* The table's path: FILE when given, else $KIT/grading/tests.list. */
const char *registry_path(const char *file);

#endif
