// SPDX-License-Identifier: GPL-2.0
/*
 * bpfloop-suite: the kit's in-guest tests, in KTAP.
 *
 *   bpfloop-suite [--lab N] [--only ID[,ID...]] [--after ID] [--seed S] [--verbose]
 *   bpfloop-suite --list
 *
 * --lab N runs the tests of labs 0..N as a kernel at the end of lab N
 * should pass them (default: every lab). --only runs just the named tests.
 * --after ID skips the tests up to and including ID: the host resumes with
 * it after a test crashed the guest. --seed gives the run's seed, from
 * which every test draws its inputs (default: a random one, printed).
 *
 * Before each test a diagnostic line "# running ID" is flushed, so that a
 * crash can be pinned on its test; then the test's observations
 * ("# obs NAME=VALUE", the first its nonce), its diagnostics, and its
 * result. The host judges the observations again (grading/suite/judge.c);
 * this program's own ok/not ok is what the same judge says here.
 * Exit status: 0 every test passed, 1 some failed, 2 usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"
#include "suite.h"

struct suite_test {
	const char *id;
	int lab;
	int own;		/* only when its own lab is the one run */
	const char *what;
	void (*run)(struct test_ctx *ctx);
	void (*judge)(struct test_ctx *ctx);
};

static const struct suite_test tests[] = {
#define SUITE_TEST(lab, name, id, own, what) { id, lab, own, what, run_##name, judge_##name },
#include "tests.h"
#undef SUITE_TEST
};
#define NR_TESTS (int)(sizeof(tests) / sizeof(tests[0]))

struct options {
	int lab;		/* highest lab to run */
	const char *only;	/* comma-separated ids, or NULL */
	const char *after;	/* resume after this id, or NULL */
	uint64_t seed;
	bool verbose;
};

static bool selected(const struct options *o, const struct suite_test *t)
{
	if (o->only)
		return in_list(o->only, t->id);
	if (t->lab > o->lab)
		return false;
	return !t->own || t->lab == o->lab;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t random_seed(void)
{
	uint64_t s = 0;
	FILE *f = fopen("/dev/urandom", "r");

	if (!f || fread(&s, sizeof(s), 1, f) != 1)
		s = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
	if (f)
		fclose(f);
	return s;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bpfloop-suite [--lab N] [--only ID[,ID...]] [--after ID] [--seed S] [--verbose]\n"
		   "       bpfloop-suite --list\n");
}

/* One test: its nonce, its run, its judge; true if it passed. */
static bool run_test(const struct options *o, const struct suite_test *t, int number)
{
	struct test_ctx ctx = { .id = t->id, .seed = o->seed, .verbose = o->verbose };
	double t0;

	diag("running %s: %s", t->id, t->what);
	t0 = seconds();
	observe(&ctx, (long long)param(&ctx, "nonce", 0, UINT32_MAX), "nonce");
	t->run(&ctx);
	diag("duration %s %.3f s", t->id, seconds() - t0);
	t->judge(&ctx);
	printf("%*s%s %d %s\n", ktap_indent, "", ctx.failed ? "not ok" : "ok", number, t->id);
	fflush(stdout);
	return !ctx.failed;
}

int main(int argc, char **argv)
{
	struct options o = { .lab = 99 };
	int i, lab, lab_count = 0, lab_no = 0, failed_any = 0;
	bool list = false, resumed, seeded = false;

	diag_out = stdout;
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
		} else if (i + 1 < argc && !strcmp(argv[i], "--seed")) {
			o.seed = strtoull(argv[++i], NULL, 0);
			seeded = true;
		} else {
			usage(stderr);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (list) {
		for (i = 0; i < NR_TESTS; i++)
			printf("%-36s lab %d  %s\n", tests[i].id, tests[i].lab, tests[i].what);
		return 0;
	}
	if (!in_lab_guest()) {
		fprintf(stderr, "bpfloop-suite: this is not a lab guest (no bpfloop.guest on the kernel\n"
				"command line). The suite loads BPF programs into the running kernel:\n"
				"run it in QEMU with 'make check' or 'make boot', never on the host.\n");
		return 2;
	}
	suite_libbpf_quiet(o.verbose);
	if (!seeded)
		o.seed = random_seed();

	for (lab = 0; lab < 10; lab++)
		for (i = 0; i < NR_TESTS; i++)
			if (tests[i].lab == lab && selected(&o, &tests[i])) {
				lab_count++;
				break;
			}
	printf("KTAP version 1\n# seed %" PRIu64 "\n1..%d\n", o.seed, lab_count);
	resumed = o.after == NULL;
	for (lab = 0; lab < 10; lab++) {
		int planned = 0, number = 0, lab_failed = 0;

		for (i = 0; i < NR_TESTS; i++)
			planned += tests[i].lab == lab && selected(&o, &tests[i]);
		if (!planned)
			continue;
		lab_no++;
		ktap_indent = 4;
		printf("    KTAP version 1\n    # Subtest: lab%d\n    1..%d\n", lab, planned);
		for (i = 0; i < NR_TESTS; i++) {
			if (tests[i].lab != lab || !selected(&o, &tests[i]))
				continue;
			number++;
			if (!resumed) {
				resumed = !strcmp(tests[i].id, o.after);
				continue;
			}
			lab_failed |= !run_test(&o, &tests[i], number);
		}
		ktap_indent = 0;
		printf("%s %d lab%d\n", lab_failed ? "not ok" : "ok", lab_no, lab);
		failed_any |= lab_failed;
	}
	return failed_any ? 1 : 0;
}
