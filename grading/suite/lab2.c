// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: the verifier. Callbacks now run: loops count, sum and stop right,
 * with or without a ctx, nested, at the limit, with a callback picked at
 * run time, and the limits still hold. Each of these runs on two paths
 * (progs/lab2.bpf.c): one the verifier may inline, one that always reaches
 * the C helper.
 *
 * And the verifier refuses callbacks that break its rules: a return other
 * than 0 or 1, a read of R3, an unchecked index, a write out of the
 * caller's stack, recursion, too much stack over the nesting. Each bad
 * program has a twin with the bug fixed that must load first
 * (progs/lab2_reject.bpf.c), and the refusal must name the problem.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suite.h"
#include "lab2.skel.h"
#include "lab2_reject.skel.h"

/* count's stop_at when it should not stop. */
#define NEVER UINT32_MAX

struct path {
	const char *suffix;	/* of the program's name */
	const char *name;	/* for diagnostics */
};

static const struct path paths[] = {
	{ "_inline", "flags the constant 0: the verifier may inline the call" },
	{ "_helper", "flags from a global: the call reaches the C helper" },
};
#define NR_PATHS (int)(sizeof(paths) / sizeof(paths[0]))
#define HELPER_PATH (&paths[1])

/* One program of lab2.bpf.c on one path, loaded and run once. */
struct run {
	struct lab2 *skel;
	int fd;
	int32_t retval;
	char call[200];		/* "program (path): inputs", for diagnostics */
};

/* "call: what", the label of one check; good until the next call. */
static const char *at(const struct run *r, const char *what)
{
	static char buf[300];

	snprintf(buf, sizeof(buf), "%s: %s", r->call, what);
	return buf;
}

/* Open lab2 and load base + the path's suffix; false after a diagnostic. */
static bool run_load(struct test_ctx *ctx, struct run *r, const char *base, const struct path *p)
{
	struct verdict v = { 0 };
	char prog[64];

	snprintf(prog, sizeof(prog), "%s%s", base, p->suffix);
	snprintf(r->call, sizeof(r->call), "%s (%s)", prog, p->name);
	r->skel = lab2__open();
	if (!CHECK(ctx, r->skel != NULL, "opening the lab2 object: %s", strerror(errno)))
		return false;
	r->fd = load_one_skel(r->skel->skeleton, prog, 1, &v);
	if (!CHECK(ctx, r->fd >= 0, "%s did not load (%s)", r->call, strerror(-v.err)))
		diag_log(v.log, 20);
	verdict_free(&v);
	if (r->fd < 0) {
		lab2__destroy(r->skel);
		r->skel = NULL;
	}
	return r->skel != NULL;
}

/* Run it once, after the test set the inputs in r->skel->bss and said
 * what they are; false after a diagnostic. */
static bool run_go(struct test_ctx *ctx, struct run *r, const char *inputs)
{
	uint32_t retval = 0;
	int err;

	snprintf(r->call + strlen(r->call), sizeof(r->call) - strlen(r->call), ", %s", inputs);
	err = tc_test_run(r->fd, 1, &retval, NULL);
	r->retval = (int32_t)retval;
	return CHECK(ctx, err == 0, "%s: BPF_PROG_TEST_RUN: %s", r->call, strerror(-err));
}

static void run_end(struct run *r)
{
	lab2__destroy(r->skel);
	r->skel = NULL;
}

/* The helper's return, in the global and as the program's return value. */
static void check_ret(struct test_ctx *ctx, const struct run *r, int64_t want)
{
	char what[64];

	snprintf(what, sizeof(what), "bpf_loop's return%s", errno_note(want));
	CHECK_EQ(ctx, r->skel->bss->result, want, at(r, what));
	CHECK_EQ(ctx, r->retval, (int32_t)want, at(r, "the program's return value"));
}

/* count: nr_loops calls of a callback that sums its indices and stops
 * (returns 1) at stop_at. */
static void expect_count(struct test_ctx *ctx, const struct path *p, uint32_t nr_loops,
			 uint32_t stop_at, uint64_t flags, int64_t want_ret, uint64_t want_calls)
{
	uint64_t want_sum = want_calls ? want_calls * (want_calls - 1) / 2 : 0;
	char inputs[100], stop[32] = "no stop";
	struct run r;

	if (!run_load(ctx, &r, "count", p))
		return;
	r.skel->bss->nr_loops = nr_loops;
	r.skel->bss->stop_at = stop_at;
	r.skel->bss->flags_rt = flags;
	if (stop_at != NEVER)
		snprintf(stop, sizeof(stop), "stop at index %u", stop_at);
	snprintf(inputs, sizeof(inputs), "%u loops, %s, flags %#llx", nr_loops, stop,
		 (unsigned long long)flags);
	if (run_go(ctx, &r, inputs)) {
		check_ret(ctx, &r, want_ret);
		CHECK_EQ(ctx, r.skel->bss->calls, want_calls, at(&r, "the callback's calls"));
		CHECK_EQ(ctx, r.skel->bss->index_sum, want_sum,
			 at(&r, "the sum of the indices it got"));
	}
	run_end(&r);
}

static void count_500(struct test_ctx *ctx)
{
	int i;

	for (i = 0; i < NR_PATHS; i++)
		expect_count(ctx, &paths[i], 500, NEVER, 0, 500, 500);
}

/* The call that returns 1 counts. */
static void early_stop(struct test_ctx *ctx)
{
	int i;

	for (i = 0; i < NR_PATHS; i++)
		expect_count(ctx, &paths[i], 500, 50, 0, 51, 51);
}

static void max_loops(struct test_ctx *ctx)
{
	int i;

	for (i = 0; i < NR_PATHS; i++)
		expect_count(ctx, &paths[i], LOOP_LIMIT, NEVER, 0, LOOP_LIMIT, LOOP_LIMIT);
}

/* Only the helper path can pass non-zero flags. */
static void limits_still_hold(struct test_ctx *ctx)
{
	int i;

	for (i = 0; i < NR_PATHS; i++) {
		expect_count(ctx, &paths[i], LOOP_LIMIT + 1, NEVER, 0, -E2BIG, 0);
		expect_count(ctx, &paths[i], UINT32_MAX, NEVER, 0, -E2BIG, 0);
	}
	expect_count(ctx, HELPER_PATH, 5, NEVER, 1, -EINVAL, 0);
	expect_count(ctx, HELPER_PATH, LOOP_LIMIT + 1, NEVER, 1, -EINVAL, 0);
}

static void null_ctx(struct test_ctx *ctx)
{
	struct run r;
	int i;

	for (i = 0; i < NR_PATHS; i++) {
		if (!run_load(ctx, &r, "null_ctx", &paths[i]))
			continue;
		r.skel->bss->nr_loops = 10;
		if (run_go(ctx, &r, "10 loops, ctx NULL")) {
			check_ret(ctx, &r, 10);
			CHECK_EQ(ctx, r.skel->bss->calls, 10, at(&r, "the callback's calls"));
			CHECK_EQ(ctx, r.skel->bss->ctx_not_null, 0,
				 at(&r, "the ctx values the callback got, OR-ed (0: all NULL)"));
		}
		run_end(&r);
	}
}

static void nested(struct test_ctx *ctx)
{
	struct run r;
	int i;

	for (i = 0; i < NR_PATHS; i++) {
		if (!run_load(ctx, &r, "nested", &paths[i]))
			continue;
		r.skel->bss->n1 = 3;
		r.skel->bss->n2 = 4;
		r.skel->bss->n3 = 5;
		if (run_go(ctx, &r, "3 x 4 x 5 loops")) {
			check_ret(ctx, &r, 3);
			CHECK_EQ(ctx, r.skel->bss->calls2, 3 * 4, at(&r, "second-level calls"));
			CHECK_EQ(ctx, r.skel->bss->calls3, 3 * 4 * 5, at(&r, "innermost calls"));
			CHECK_EQ(ctx, r.skel->bss->wrong2, 0,
				 at(&r, "second-level bpf_loop returns other than 4"));
			CHECK_EQ(ctx, r.skel->bss->wrong3, 0,
				 at(&r, "innermost bpf_loop returns other than 5"));
		}
		run_end(&r);
	}
}

/* pick_a runs all 7 loops; pick_b stops at index 2 (3 calls). */
static void runtime_callback(struct test_ctx *ctx)
{
	static const struct {
		uint32_t selector;
		const char *inputs;
		int64_t ret;
		uint64_t a, b;
	} picks[] = {
		{ 0, "7 loops, callback pick_a (runs to the end)", 7, 7, 0 },
		{ 1, "7 loops, callback pick_b (stops at index 2)", 3, 0, 3 },
	};
	struct run r;
	int i, k;

	for (i = 0; i < NR_PATHS; i++)
		for (k = 0; k < 2; k++) {
			if (!run_load(ctx, &r, "runtime_callback", &paths[i]))
				continue;
			r.skel->bss->nr_loops = 7;
			r.skel->bss->selector = picks[k].selector;
			if (run_go(ctx, &r, picks[k].inputs)) {
				check_ret(ctx, &r, picks[k].ret);
				CHECK_EQ(ctx, r.skel->bss->calls_a, picks[k].a,
					 at(&r, "pick_a's calls"));
				CHECK_EQ(ctx, r.skel->bss->calls_b, picks[k].b,
					 at(&r, "pick_b's calls"));
			}
			run_end(&r);
		}
}

/* Load one program of lab2_reject.bpf.c, each in an object of its own. */
static int load_reject(const char *prog, struct verdict *v)
{
	struct lab2_reject *skel = lab2_reject__open();
	int fd;

	if (!skel) {
		v->err = -errno;
		v->log = NULL;
		return v->err;
	}
	fd = load_one_skel(skel->skeleton, prog, 1, v);
	lab2_reject__destroy(skel);
	return fd;
}

/*
 * base_good must load; base_bad must not, with error err and a verifier
 * log that contains says. bug says what is wrong with the bad one.
 */
static void expect_refusal(struct test_ctx *ctx, const char *base, const char *bug, int err,
			   const char *says)
{
	struct verdict v = { 0 };
	char good[64], bad[64];
	int fd;

	snprintf(good, sizeof(good), "%s_good", base);
	snprintf(bad, sizeof(bad), "%s_bad", base);
	fd = load_reject(good, &v);
	if (!CHECK(ctx, fd >= 0, "%s, the twin without the bug, did not load (%s): the verifier "
		   "must accept it before a refusal of %s counts", good, strerror(-v.err), bad))
		diag_log(v.log, 20);
	verdict_free(&v);

	fd = load_reject(bad, &v);
	if (fd >= 0) {
		check_failed(ctx, __FILE__, __LINE__, "%s loaded: the verifier must refuse %s",
			     bad, bug);
	} else {
		char what[160];
		bool ok;

		snprintf(what, sizeof(what), "the load's error for %s%s", bad, errno_note(err));
		ok = CHECK_EQ(ctx, v.err, err, what);
		ok &= CHECK(ctx, v.log && strstr(v.log, says),
			    "%s was refused, but the verifier's log does not say \"%s\"", bad, says);
		if (!ok)
			diag_log(v.log, 20);
	}
	verdict_free(&v);
}

/* prepare_func_exit(): the callback's R0 is checked against [0, 1]. */
static void reject_ret_2(struct test_ctx *ctx)
{
	expect_refusal(ctx, "ret", "a callback that returns 2", -EINVAL,
		       "At callback return the register R0 has value (0x2; 0x0)");
}

/* check_reg_arg(): R3 of the callback is not initialised. */
static void reject_r3_read(struct test_ctx *ctx)
{
	expect_refusal(ctx, "r3", "a callback that reads R3", -EACCES, "R3 !read_ok");
}

/* check_stack_access_within_bounds(): the index is any u32. */
static void reject_unchecked_index(struct test_ctx *ctx)
{
	expect_refusal(ctx, "index", "a callback that indexes ctx's array without a bound",
		       -EACCES, "invalid unbounded variable-offset write to stack");
}

/* check_stack_access_within_bounds(): ctx + 512 is past the caller's frame. */
static void reject_ctx_oob(struct test_ctx *ctx)
{
	expect_refusal(ctx, "oob", "a callback that writes past the caller's stack", -EACCES,
		       "invalid write to stack");
}

/*
 * __check_func_call(): each nested callback takes a frame, up to 8, and
 * the ninth is refused. (check_max_stack_depth() would say "8 frames ...
 * too deep !" of a kernel that never checks the callbacks' bodies.)
 */
static void reject_recursion(struct test_ctx *ctx)
{
	expect_refusal(ctx, "recursion", "a callback that passes itself to bpf_loop", -E2BIG,
		       "the call stack of 9 frames is too deep");
}

/* check_max_stack_depth(): the frames of a call chain share 512 bytes. */
static void reject_deep_nesting(struct test_ctx *ctx)
{
	expect_refusal(ctx, "deep", "nested callbacks whose frames add up to 640 bytes", -EACCES,
		       "combined stack size of ");
}

const struct suite_test lab2_tests[] = {
	{ "lab2.count_500", "500 loops: returns 500, 500 calls, indices 0..499 (both paths)",
	  count_500, 0 },
	{ "lab2.early_stop", "a callback returning 1 at index 50: returns 51, 51 calls",
	  early_stop, 0 },
	{ "lab2.null_ctx", "a NULL ctx reaches the callback as NULL", null_ctx, 0 },
	{ "lab2.nested", "3 x 4 x 5 nested loops: 60 innermost calls, right returns", nested, 0 },
	{ "lab2.max_loops", "exactly 1 << 23 loops run and return 1 << 23", max_loops, 0 },
	{ "lab2.runtime_callback", "a callback picked at run time: each choice runs right",
	  runtime_callback, 0 },
	{ "lab2.limits_still_hold", "too many loops give -E2BIG, bad flags -EINVAL",
	  limits_still_hold, 0 },
	{ "lab2.reject_ret_2", "a callback returning 2 is refused", reject_ret_2, 0 },
	{ "lab2.reject_r3_read", "a callback reading R3 is refused", reject_r3_read, 0 },
	{ "lab2.reject_unchecked_index", "an unchecked index into the caller's stack is refused",
	  reject_unchecked_index, 0 },
	{ "lab2.reject_ctx_oob", "a write through ctx past the caller's stack is refused",
	  reject_ctx_oob, 0 },
	{ "lab2.reject_recursion", "a callback passing itself to bpf_loop is refused",
	  reject_recursion, 0 },
	{ "lab2.reject_deep_nesting", "nested callbacks over 512 bytes of stack are refused",
	  reject_deep_nesting, 0 },
	{ 0 },
};
