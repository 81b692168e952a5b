// SPDX-License-Identifier: GPL-2.0
/*
 * suite-judge: the host's verdicts on the in-guest suite's reports.
 *
 *   suite-judge --seed S --plan ID,ID,... [--state FILE] BOOT...
 *
 * BOOT is a boot's folder, in order: BOOT/output is what the guest sent on
 * the result channel (grading/pipeline/run-suite), BOOT/end, when it exists, is the
 * host's word on a boot that did not finish ("crashed REASON", "timeout
 * REASON", "tampered REASON", ...). PLAN is every test the run must give a
 * verdict, in the suite's order.
 *
 * This program is the suite itself, built for the host without libbpf: it
 * cannot load a BPF program. For each test the guest reported, it checks
 * that the report is this run's (the test's nonce is the one the seed
 * gives), runs the test's JUDGE on the reported observations, and takes
 * its own verdict; a guest whose ok or not ok differs from it, a test out
 * of the plan's order, a result without its "# running" line, a name
 * twice: each is tampering, and then every test of the plan gets the
 * verdict "tampered" with the reason, since nothing in the report can be
 * believed. A test that started and has no result is a crash or a timeout
 * (BOOT/end says which).
 *
 * Prints one line per test of the plan: ID <TAB> VERDICT <TAB> SECONDS
 * <TAB> REASON, VERDICT pass, fail, crash, timeout, tampered or missing.
 * --state FILE gets what the caller does next, KEY<TAB>VALUE lines:
 *   state   done (every test has a verdict), resume (boot again and run
 *           the tests after "after"), tampered, or stopped (the guest did
 *           not reach the suite)
 *   after   the last test with a verdict (resume)
 *   reason  why, for tampered and stopped
 * Exit status: 0 every test passed, 1 some did not, 2 usage or I/O error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pipeline/ktap.h"
#include "guest.h"
#include "suite.h"

struct suite_test {
	const char *id;
	int lab;
	void (*judge)(struct test_ctx *ctx);
};

static const struct suite_test tests[] = {
#define SUITE_TEST(lab, name, id, own, what) { id, lab, judge_##name },
#include "tests.h"
#undef SUITE_TEST
};
#define NR_TESTS (int)(sizeof(tests) / sizeof(tests[0]))

#define MAX_PLAN NR_TESTS

struct result {
	const struct suite_test *test;
	char verdict[12];	/* "" until known */
	double seconds;
	char reason[400];
};

static struct result plan[MAX_PLAN];
static int nr_plan;
static uint64_t seed;
static char tampered[400];
/* Index of the next test the report may start, and of the running one. */
static int next_test, running = -1;
static struct test_ctx ctx;
static bool any_started;

static void tamper(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tamper(const char *fmt, ...)
{
	va_list ap;

	if (tampered[0])
		return;
	va_start(ap, fmt);
	vsnprintf(tampered, sizeof(tampered), fmt, ap);
	va_end(ap);
}

static const struct suite_test *find_test(const char *id)
{
	int i;

	for (i = 0; i < NR_TESTS; i++)
		if (!strcmp(tests[i].id, id))
			return &tests[i];
	return NULL;
}

static void set(struct result *r, const char *verdict, const char *reason)
{
	snprintf(r->verdict, sizeof(r->verdict), "%s", verdict);
	snprintf(r->reason, sizeof(r->reason), "%s", reason ? reason : "");
}


static void start(const char *id)
{
	if (running >= 0) {
		tamper("the report starts %s while %s has no result", id, plan[running].test->id);
		return;
	}
	if (next_test >= nr_plan || strcmp(plan[next_test].test->id, id)) {
		tamper("the report runs %s where the plan has %s", id,
		       next_test < nr_plan ? plan[next_test].test->id : "no more tests");
		return;
	}
	running = next_test++;
	any_started = true;
	memset(&ctx, 0, sizeof(ctx));
	ctx.id = plan[running].test->id;
	ctx.seed = seed;
}

/* The guest's "ok" or "not ok" for the running test: judge it here. */
static void finish(const char *id, bool guest_ok, bool skip)
{
	struct result *r;
	long long nonce;

	if (running < 0 || strcmp(plan[running].test->id, id)) {
		tamper("the report gives a result for %s, which it did not start", id);
		return;
	}
	r = &plan[running];
	running = -1;
	if (skip) {
		tamper("the report skips %s: the suite never skips a test", id);
		return;
	}
	if (ctx.obs_trouble) {
		tamper("the report's observations for %s are malformed (a bad name, a name twice, "
		       "or too many)", id);
		return;
	}
	nonce = has_seen(&ctx, "nonce") ? seen(&ctx, "nonce") : OBS_MISSING;
	if (nonce != (long long)param(&ctx, "nonce", 0, UINT32_MAX)) {
		tamper("the report for %s is not this run's (its nonce is not the one this run's "
		       "seed gives)", id);
		return;
	}
	r->test->judge(&ctx);
	if (ctx.failed == guest_ok) {
		tamper("the guest says %s for %s, but its own observations say %s%s", guest_ok ?
		       "ok" : "not ok", id, ctx.failed ? "fail: " : "pass", ctx.failed ? ctx.reason : "");
		return;
	}
	set(r, ctx.failed ? "fail" : "pass", ctx.reason);
}

static void read_output(FILE *f)
{
	char line[4096], id[96];

	while (fgets(line, sizeof(line), f) && !tampered[0]) {
		char *p = ktap_skip_space(line), *rest;
		bool not_ok = false;

		p[strcspn(p, "\r\n")] = '\0';
		if (!strncmp(p, "# running ", 10)) {
			if (ktap_take_id(p + 10, id, sizeof(id)))
				start(id);
			continue;
		}
		if (!strncmp(p, "# obs ", 6)) {
			char *eq = strchr(p + 6, '='), *end;
			long long v;

			if (running < 0) {
				tamper("the report has an observation outside a test: %.80s", p);
				continue;
			}
			if (!eq) {
				ctx.obs_trouble = true;
				continue;
			}
			*eq = '\0';
			errno = 0;
			v = strtoll(eq + 1, &end, 10);
			if (errno || end == eq + 1 || *end || !obs_add(&ctx, p + 6, v))
				ctx.obs_trouble = true;
			continue;
		}
		if (!strncmp(p, "# duration ", 11)) {
			if (ktap_take_id(p + 11, id, sizeof(id)) && running >= 0 &&
			    !strcmp(plan[running].test->id, id))
				plan[running].seconds = strtod(p + 11 + strlen(id), NULL);
			continue;
		}
		if (!strncmp(p, "# seed ", 7)) {
			if (strtoull(p + 7, NULL, 10) != seed)
				tamper("the report was made with another seed (%.40s), not this run's", p + 7);
			continue;
		}
		if (!strncmp(p, "not ok ", 7)) {
			not_ok = true;
			p += 7;
		} else if (!strncmp(p, "ok ", 3)) {
			p += 3;
		} else {
			continue;
		}
		strtol(p, &rest, 10);
		if (rest == p)
			continue;
		rest = ktap_skip_space(rest);
		/* Tests have a dot ("lab1.name"); a lab's summary line does not. */
		if (!ktap_take_id(rest, id, sizeof(id)) || !strchr(id, '.'))
			continue;
		finish(id, !not_ok, strstr(rest, "# SKIP") != NULL);
	}
}

/* A boot that did not finish: the running test gets the host's word. */
static void read_end(const char *path, char *word, char *why, size_t size)
{
	char line[512] = "";
	FILE *f = fopen(path, "r");

	word[0] = why[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f)) {
		char *rest;

		line[strcspn(line, "\r\n")] = '\0';
		sscanf(line, "%31s", word);
		rest = line + strlen(word);
		rest += strspn(rest, " ");
		snprintf(why, size, "%s: %s", word, rest);
	}
	fclose(f);
}

static void add_plan(const char *list)
{
	char *copy = strdup(list), *save = NULL, *id;

	for (id = strtok_r(copy, ",", &save); id; id = strtok_r(NULL, ",", &save)) {
		const struct suite_test *t = find_test(id);
		int i;

		if (!t) {
			fprintf(stderr, "suite-judge: the plan names %s, which the suite does not have\n",
				id);
			exit(2);
		}
		for (i = 0; i < nr_plan; i++)
			if (plan[i].test == t) {
				fprintf(stderr, "suite-judge: the plan names %s twice\n", id);
				exit(2);
			}
		plan[nr_plan++].test = t;
	}
	free(copy);
}

int main(int argc, char **argv)
{
	const char *state_path = NULL, *state = "done", *after = "";
	char state_reason[600] = "";
	int i, bad = 0;
	bool seeded = false;

	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--seed")) {
			seed = strtoull(argv[++i], NULL, 10);
			seeded = true;
		} else if (i + 1 < argc && !strcmp(argv[i], "--plan")) {
			add_plan(argv[++i]);
		} else if (i + 1 < argc && !strcmp(argv[i], "--state")) {
			state_path = argv[++i];
		} else {
			fprintf(stderr, "usage: suite-judge --seed S --plan ID,... [--state FILE] BOOT...\n");
			return 2;
		}
	}
	if (!seeded || !nr_plan || i == argc) {
		fprintf(stderr, "usage: suite-judge --seed S --plan ID,... [--state FILE] BOOT...\n");
		return 2;
	}
	for (; i < argc && !tampered[0]; i++) {
		char path[4096], word[32], why[512];
		FILE *f;

		snprintf(path, sizeof(path), "%s/output", argv[i]);
		f = fopen(path, "r");
		if (f) {
			read_output(f);
			fclose(f);
		}
		snprintf(path, sizeof(path), "%s/end", argv[i]);
		read_end(path, word, why, sizeof(why));
		if (!strcmp(word, "tampered")) {
			tamper("%s", why + strlen(word) + 2);
		} else if (running >= 0) {
			/* It started and has no result: it took the guest or
			 * the suite down with it. */
			set(&plan[running], !strcmp(word, "timeout") ? "timeout" : "crash",
			    word[0] ? why : "the suite stopped during this test without a result");
			running = -1;
		} else if (word[0] && i == argc - 1) {
			snprintf(state_reason, sizeof(state_reason),
				 "the guest did not reach the suite: %s", why);
		}
	}

	if (tampered[0]) {
		state = "tampered";
		snprintf(state_reason, sizeof(state_reason), "%s", tampered);
		for (i = 0; i < nr_plan; i++)
			set(&plan[i], "tampered", tampered);
	} else if (next_test < nr_plan) {
		if (state_reason[0]) {
			state = "stopped";
		} else if (next_test > 0 && plan[next_test - 1].verdict[0] &&
			   strcmp(plan[next_test - 1].verdict, "pass") &&
			   strcmp(plan[next_test - 1].verdict, "fail")) {
			state = "resume";
			after = plan[next_test - 1].test->id;
		} else if (!any_started) {
			state = "stopped";
			snprintf(state_reason, sizeof(state_reason),
				 "the suite reported nothing (see the console)");
		} else {
			/* The report ends between two tests: the suite does
			 * not do that. */
			state = "tampered";
			snprintf(state_reason, sizeof(state_reason),
				 "the report ends before %s without a crash", plan[next_test].test->id);
			for (i = 0; i < nr_plan; i++)
				set(&plan[i], "tampered", state_reason);
		}
		for (i = next_test; i < nr_plan && strcmp(state, "tampered"); i++)
			set(&plan[i], !strcmp(state, "stopped") ? "crash" : "missing",
			    !strcmp(state, "stopped") ? state_reason : "not run yet");
	}
	for (i = 0; i < nr_plan; i++) {
		struct result *r = &plan[i];
		char *c;

		for (c = r->reason; *c; c++)
			if (*c == '\t' || *c == '\n')
				*c = ' ';
		printf("%s\t%s\t%.3f\t%s\n", r->test->id, r->verdict, r->seconds, r->reason);
		bad |= strcmp(r->verdict, "pass") != 0;
	}
	if (state_path) {
		FILE *f = fopen(state_path, "w");

		if (!f || fprintf(f, "state\t%s\nafter\t%s\nreason\t%s\n", state, after,
				  state_reason) < 0 || fclose(f)) {
			fprintf(stderr, "suite-judge: cannot write %s: %s\n", state_path,
				strerror(errno));
			return 2;
		}
	}
	return bad;
}
