// SPDX-License-Identifier: GPL-2.0
/*
 * bpfloop-suite: the kit's in-guest tests, in KTAP.
 *
 *   bpfloop-suite [--lab N] [--only ID[,ID...]] [--after ID] [--verbose]
 *   bpfloop-suite --list
 *
 * --lab N runs the tests of labs 0..N as a kernel at the end of lab N
 * should pass them (default: every lab). --only runs just the named tests.
 * --after ID skips the tests up to and including ID: the host resumes with
 * it after a test crashed the guest. Before each test a diagnostic line
 * "# running ID" is flushed, so a crash can be pinned on its test.
 * Output (stdout): KTAP version 1, one subtest per lab, one result per test.
 * Exit status: 0 every test passed or skipped, 1 some failed, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "suite.h"

extern int ktap_indent;

static const struct suite_lab suite_labs[] = {
	{ 0, "boot", lab0_tests },
	{ 1, "helper", lab1_tests },
	{ 2, "verifier", lab2_tests },
	{ 6, "inlining", lab6_tests },
};
#define NR_LABS (int)(sizeof(suite_labs) / sizeof(suite_labs[0]))

struct options {
	int lab;		/* highest lab to run */
	const char *only;	/* comma-separated ids, or NULL */
	const char *after;	/* resume after this id, or NULL */
	bool verbose;
};

static bool selected(const struct options *o, const struct suite_lab *lab,
		     const struct suite_test *t)
{
	if (o->only)
		return in_list(o->only, t->id);
	if (lab->number > o->lab)
		return false;
	if ((t->flags & TEST_ONLY_AT_OWN_LAB) && lab->number != o->lab)
		return false;
	return true;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfloop-suite [--lab N] [--only ID[,ID...]] [--after ID] [--verbose]\n"
		   "       bpfloop-suite --list\n");
}

int main(int argc, char **argv)
{
	struct options o = { .lab = 99 };
	int i, l, lab_count = 0, lab_no = 0, failed_any = 0;
	bool list = false, resumed;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--list")) {
			list = true;
		} else if (!strcmp(argv[i], "--verbose")) {
			o.verbose = true;
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (i + 1 < argc && !strcmp(argv[i], "--lab")) {
			o.lab = atoi(argv[++i]);
		} else if (i + 1 < argc && !strcmp(argv[i], "--only")) {
			o.only = argv[++i];
		} else if (i + 1 < argc && !strcmp(argv[i], "--after")) {
			o.after = argv[++i];
		} else {
			usage(stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	suite_libbpf_quiet(o.verbose);
	if (!list && !in_lab_guest()) {
		fprintf(stderr, "bpfloop-suite: this is not a lab guest (no bpfloop.guest on the kernel\n"
				"command line). The suite loads BPF programs into the running kernel:\n"
				"run it in QEMU with 'make check' or 'make boot', never on the host.\n");
		return 2;
	}

	if (list) {
		for (l = 0; l < NR_LABS; l++)
			for (i = 0; suite_labs[l].tests[i].id; i++)
				printf("%-36s lab %d  %s\n", suite_labs[l].tests[i].id,
				       suite_labs[l].number, suite_labs[l].tests[i].what);
		return 0;
	}

	for (l = 0; l < NR_LABS; l++)
		for (i = 0; suite_labs[l].tests[i].id; i++)
			if (selected(&o, &suite_labs[l], &suite_labs[l].tests[i])) {
				lab_count++;
				break;
			}
	printf("KTAP version 1\n1..%d\n", lab_count);
	resumed = o.after == NULL;
	for (l = 0; l < NR_LABS; l++) {
		const struct suite_lab *lab = &suite_labs[l];
		int planned = 0, number = 0, lab_failed = 0;

		for (i = 0; lab->tests[i].id; i++)
			planned += selected(&o, lab, &lab->tests[i]);
		if (!planned)
			continue;
		lab_no++;
		ktap_indent = 4;
		printf("    KTAP version 1\n    # Subtest: lab%d\n    1..%d\n", lab->number, planned);
		for (i = 0; lab->tests[i].id; i++) {
			const struct suite_test *t = &lab->tests[i];
			struct test_ctx ctx = { .verbose = o.verbose };
			double t0;

			if (!selected(&o, lab, t))
				continue;
			number++;
			if (!resumed) {
				resumed = !strcmp(t->id, o.after);
				continue;
			}
			diag("running %s: %s", t->id, t->what);
			t0 = seconds();
			t->run(&ctx);
			diag("duration %s %.3f s", t->id, seconds() - t0);
			if (ctx.skipped && !ctx.failed) {
				printf("    ok %d %s # SKIP %s\n", number, t->id, ctx.skip_reason);
			} else {
				printf("    %s %d %s\n", ctx.failed ? "not ok" : "ok", number, t->id);
				lab_failed |= ctx.failed;
			}
			fflush(stdout);
		}
		ktap_indent = 0;
		printf("%s %d lab%d\n", lab_failed ? "not ok" : "ok", lab_no, lab->number);
		failed_any |= lab_failed;
	}
	return failed_any ? 1 : 0;
}
