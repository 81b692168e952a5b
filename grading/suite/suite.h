/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-guest test suite: shared declarations.
 *
 * A test is two functions, named after its id in grading/tests.list
 * (lab2.count_500: run_lab2_count_500 and judge_lab2_count_500):
 *
 *   RUN(name)    runs in the guest only. It exercises the kernel (loads
 *                programs, runs them, reads maps and the verifier's
 *                verdicts) and reports what it saw as observations,
 *                observe(ctx, value, "name"). It never decides a verdict.
 *   JUDGE(name)  decides, from the observations alone, with the CHECK
 *                macros. It runs in the guest right after RUN, and again
 *                on the host (grading/suite/judge.c), built without
 *                libbpf, on the observations the guest reported: the
 *                host's verdict is the one that counts, and a guest that
 *                reports a verdict the host does not reach is tampering.
 *
 * Inputs that could be anything (loop counts, stop indices, values that
 * travel through the ctx) come from param(), a function of the run's seed,
 * the test's id and the parameter's name: the host draws the seed, so
 * both sides know the inputs and a report from another run fails.
 */
#ifndef SUITE_H
#define SUITE_H

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/bpf.h>

/* bpf_loop's helper ID: positional in 6.1, and ABI. */
#define HELPER_LOOP 181
/* The most loops bpf_loop accepts (1 << 23), as merged and documented. */
#define LOOP_LIMIT (1u << 23)

#define MAX_OBS 128
#define OBS_NAME 48
/* What seen() gives for an observation the guest did not report. */
#define OBS_MISSING LLONG_MIN

struct observation {
	char name[OBS_NAME];
	long long value;
};

struct test_ctx {
	const char *id;			/* "lab2.count_500" */
	uint64_t seed;			/* the run's, from the host */
	bool verbose;
	bool failed;
	char reason[400];		/* the judge's first failure */
	int nr_obs;
	struct observation obs[MAX_OBS];
	bool obs_trouble;		/* too many, or a name twice */
};

#define RUN(name) void run_##name(struct test_ctx *ctx)
#define JUDGE(name) void judge_##name(struct test_ctx *ctx)

/* The tests of grading/tests.list that the suite runs (generated). */
#define SUITE_TEST(lab, name, id, own, what) RUN(name); JUDGE(name);
#include "tests.h"
#undef SUITE_TEST

/* ---- both sides ---- */

/* An input in [lo, hi], the same for the same seed, test and name. */
uint64_t param(const struct test_ctx *ctx, const char *name, uint64_t lo, uint64_t hi);

/* The guest's report of one value (a name of letters, digits, _ and .). */
void observe(struct test_ctx *ctx, long long value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The judge's reading of one; a missing one fails the test, once. */
long long seen(struct test_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool has_seen(const struct test_ctx *ctx, const char *name);
/* Used by the suite's two mains: false for a bad name, a name twice, too many. */
bool obs_add(struct test_ctx *ctx, const char *name, long long value);

/* KTAP diagnostics: a "# " line at the current nesting, on diag_out (the
 * guest's output; NULL on the host, where the judge keeps quiet). */
extern int ktap_indent;
extern FILE *diag_out;
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void check_failed(struct test_ctx *ctx, const char *file, int line,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#define CHECK(ctx, cond, ...) ({					\
	bool __ok = (cond);						\
	if (!__ok)							\
		check_failed((ctx), __FILE__, __LINE__, __VA_ARGS__);	\
	__ok;								\
})

/* A missing observation has failed the test already: no second line. */
#define CHECK_EQ(ctx, got, want, what) ({				\
	long long __g = (long long)(got), __w = (long long)(want);	\
	__g == OBS_MISSING ? false :					\
	CHECK((ctx), __g == __w, "%s: expected %lld%s, got %lld%s",	\
	      (what), __w, errno_note(__w), __g, errno_note(__g));	\
})

/* " (-EINVAL)" for the errors bpf_loop and the verifier give, else "". */
const char *errno_note(long long ret);
/* strerror() of a negative errno, the same on both sides. */
const char *err_name(long long err);

/*
 * The verdict a program of grading/suite/progs/ must get, from the
 * REFUSED() line beside it (progs/verdict.h): the load's error and what
 * the verifier's log must say. NULL for a program without one.
 */
struct refused {
	const char *prog;
	int err;
	const char *says;
};
const struct refused *refused(const char *prog);

/*
 * ---- the guest only (grading/suite/kernel.c) ----
 * The host's judge is linked without these and without libbpf; the linker
 * drops every RUN function it never calls, so a JUDGE that reached for
 * the kernel would not link.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* Programs and the verifier. */
#define VLOG_SIZE (1u << 20)
struct verdict {
	int err;		/* 0 loaded; else -errno of the load */
	char *log;		/* the verifier's log (level 1), VLOG_SIZE */
};

/*
 * Load only the program called prog_name of an opened (not loaded)
 * skeleton, with the verifier log captured at the given level (1: verdict
 * and instructions on error; 2 adds states; 4: statistics only). Loading
 * through the skeleton maps the object's global data, so skel->bss reads
 * what the program wrote. Returns the program's fd or a negative error;
 * v gets the verdict.
 */
int load_one_skel(struct bpf_object_skeleton *skel, const char *prog_name, int log_level,
		  struct verdict *v);
void verdict_free(struct verdict *v);
/* Print a (verifier) log as diagnostics, at most max_lines of its tail. */
void diag_log(const char *log, int max_lines);

/* BPF_PROG_TEST_RUN of a tc program on a small Ethernet frame. Returns 0 or
 * -errno; *retval gets the program's return value. */
int tc_test_run(int prog_fd, unsigned int repeat, uint32_t *retval, uint32_t *duration_ns);

/* The calls in a loaded program's translation (xlated): reports TAG.info,
 * TAG.insns, TAG.helper_calls and TAG.bpf_calls. */
void observe_xlated(struct test_ctx *ctx, const char *tag, int fd);

/* The verifier log says the program called an unknown helper ID. */
bool log_says_unknown_func(const char *log, int helper_id);

/*
 * Silence libbpf's own printing unless verbose; verbose also shows the
 * verifier's log of each load, in verdict_free().
 */
void suite_libbpf_quiet(bool verbose);

#endif
