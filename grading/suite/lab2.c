// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: the verifier. Callbacks now run: loops count, sum and stop right,
 * with or without a ctx, nested, at the limit, with a callback picked at
 * run time, and the limits still hold. Each of these runs on two paths
 * (progs/lab2.bpf.c): one the verifier may inline, one that always reaches
 * the C helper. Loop counts, stop indices and the cookie that travels
 * through the ctx are drawn from the run's seed; the limits are exact.
 *
 * And the verifier refuses callbacks that break its rules: a return other
 * than 0 or 1, a read of R3, an unchecked index, a write out of the
 * caller's stack, recursion, too much stack over the nesting. Each bad
 * program has a twin with the bug fixed that must load and run first
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
	const char *suffix;	/* of the program's name, and its observations' tag */
	const char *name;	/* for diagnostics */
};

static const struct path paths[] = {
	{ "inline", "flags the constant 0: the verifier may inline the call" },
	{ "helper", "flags from a global: the call reaches the C helper" },
};
#define NR_PATHS (int)(sizeof(paths) / sizeof(paths[0]))
#define HELPER_PATH (&paths[1])

/* The inputs of one run of a program of lab2.bpf.c. */
struct inputs {
	uint32_t nr_loops, stop_at, selector, n1, n2, n3;
	uint64_t flags, cookie;
};

/*
 * Load prog_PATH, set the inputs (after the load: the verifier cannot know
 * them), run it once, and report as TAG.*: open, load, run, and every
 * output.
 */
static void exercise(struct test_ctx *ctx, const char *tag, const char *prog,
		     const struct path *p, const struct inputs *in)
{
	struct verdict v = { 0 };
	uint32_t retval = 0;
	struct lab2 *skel;
	char name[64];
	int fd, err;

	snprintf(name, sizeof(name), "%s_%s", prog, p->suffix);
	skel = lab2__open();
	observe(ctx, skel ? 0 : -errno, "%s.open", tag);
	if (!skel)
		return;
	fd = load_one_skel(skel->skeleton, name, 1, &v);
	observe(ctx, fd < 0 ? v.err : 0, "%s.load", tag);
	if (fd < 0) {
		diag_log(v.log, 20);
		goto out;
	}
	skel->bss->nr_loops = in->nr_loops;
	skel->bss->stop_at = in->stop_at;
	skel->bss->selector = in->selector;
	skel->bss->n1 = in->n1;
	skel->bss->n2 = in->n2;
	skel->bss->n3 = in->n3;
	skel->bss->flags_rt = in->flags;
	skel->bss->cookie = in->cookie;
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "%s.run", tag);
	if (err)
		goto out;
	observe(ctx, skel->bss->result, "%s.result", tag);
	observe(ctx, (int32_t)retval, "%s.retval", tag);
	observe(ctx, (long long)skel->bss->calls, "%s.calls", tag);
	observe(ctx, (long long)skel->bss->index_sum, "%s.index_sum", tag);
	observe(ctx, (long long)skel->bss->ctx_not_null, "%s.ctx_not_null", tag);
	observe(ctx, (long long)skel->bss->calls2, "%s.calls2", tag);
	observe(ctx, (long long)skel->bss->calls3, "%s.calls3", tag);
	observe(ctx, (long long)skel->bss->wrong2, "%s.wrong2", tag);
	observe(ctx, (long long)skel->bss->wrong3, "%s.wrong3", tag);
	observe(ctx, (long long)skel->bss->calls_a, "%s.calls_a", tag);
	observe(ctx, (long long)skel->bss->calls_b, "%s.calls_b", tag);
out:
	verdict_free(&v);
	lab2__destroy(skel);
}

/* The judge's side of one run: it loaded and ran; false after a failure. */
static bool ran(struct test_ctx *ctx, const char *tag, const char *call)
{
	long long open = seen(ctx, "%s.open", tag), load, run;

	if (!CHECK(ctx, open == 0, "opening the lab2 object: %s", err_name(open)))
		return false;
	load = seen(ctx, "%s.load", tag);
	if (!CHECK(ctx, load == 0, "%s did not load (%s)", call, err_name(load)))
		return false;
	run = seen(ctx, "%s.run", tag);
	return CHECK(ctx, run == 0, "%s: BPF_PROG_TEST_RUN: %s", call, err_name(run));
}

/* One output of a run is want. */
static bool out_is(struct test_ctx *ctx, const char *tag, const char *call, const char *output,
		   long long want, const char *what)
{
	char label[300];

	snprintf(label, sizeof(label), "%s: %s", call, what);
	return CHECK_EQ(ctx, seen(ctx, "%s.%s", tag, output), want, label);
}

/* The helper's return, in the global and as the program's return value. */
static void check_ret(struct test_ctx *ctx, const char *tag, const char *call, int64_t want)
{
	out_is(ctx, tag, call, "result", want, "bpf_loop's return");
	out_is(ctx, tag, call, "retval", (int32_t)want, "the program's return value");
}

/* ---- count: nr_loops calls of a callback that sums its indices and the
 * cookie, stopping (returning 1) at stop_at ---- */

static void count_label(char *buf, size_t size, const char *tag, const struct path *p,
			const struct inputs *in)
{
	char stop[32] = "no stop";

	if (in->stop_at != NEVER)
		snprintf(stop, sizeof(stop), "stop at index %u", in->stop_at);
	snprintf(buf, size, "count_%s (%s): %u loops, %s, flags %#llx [%s]", p->suffix, p->name,
		 in->nr_loops, stop, (unsigned long long)in->flags, tag);
}

static void count_run(struct test_ctx *ctx, const char *tag, const struct path *p,
		      const struct inputs *in)
{
	exercise(ctx, tag, "count", p, in);
}

static void count_judge(struct test_ctx *ctx, const char *tag, const struct path *p,
			const struct inputs *in, int64_t want_ret, uint64_t want_calls)
{
	uint64_t want_sum = want_calls * (want_calls - (want_calls > 0)) / 2 +
			    want_calls * in->cookie;
	char call[200];

	count_label(call, sizeof(call), tag, p, in);
	if (!ran(ctx, tag, call))
		return;
	check_ret(ctx, tag, call, want_ret);
	out_is(ctx, tag, call, "calls", want_calls, "the callback's calls");
	out_is(ctx, tag, call, "index_sum", want_sum,
	       "the sum of the indices it got, each plus the ctx's cookie");
}

static struct inputs count_inputs(const struct test_ctx *ctx, uint32_t nr_loops, uint32_t stop_at,
				  uint64_t flags)
{
	struct inputs in = { .nr_loops = nr_loops, .stop_at = stop_at, .flags = flags };

	in.cookie = param(ctx, "cookie", 1, 1u << 30);
	return in;
}

static uint32_t some_loops(const struct test_ctx *ctx)
{
	return (uint32_t)param(ctx, "nr_loops", 200, 800);
}

RUN(lab2_count_500)
{
	struct inputs in = count_inputs(ctx, some_loops(ctx), NEVER, 0);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		count_run(ctx, paths[i].suffix, &paths[i], &in);
}

JUDGE(lab2_count_500)
{
	struct inputs in = count_inputs(ctx, some_loops(ctx), NEVER, 0);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		count_judge(ctx, paths[i].suffix, &paths[i], &in, in.nr_loops, in.nr_loops);
}

/* The call that returns 1 counts. */
static struct inputs early_inputs(const struct test_ctx *ctx)
{
	uint32_t n = some_loops(ctx);

	return count_inputs(ctx, n, (uint32_t)param(ctx, "stop_at", 1, n - 2), 0);
}

RUN(lab2_early_stop)
{
	struct inputs in = early_inputs(ctx);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		count_run(ctx, paths[i].suffix, &paths[i], &in);
}

JUDGE(lab2_early_stop)
{
	struct inputs in = early_inputs(ctx);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		count_judge(ctx, paths[i].suffix, &paths[i], &in, in.stop_at + 1, in.stop_at + 1);
}

RUN(lab2_max_loops)
{
	struct inputs in = count_inputs(ctx, LOOP_LIMIT, NEVER, 0);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		count_run(ctx, paths[i].suffix, &paths[i], &in);
}

JUDGE(lab2_max_loops)
{
	struct inputs in = count_inputs(ctx, LOOP_LIMIT, NEVER, 0);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		count_judge(ctx, paths[i].suffix, &paths[i], &in, LOOP_LIMIT, LOOP_LIMIT);
}

/*
 * Too many loops (one past, the largest u32, one between) give -E2BIG on
 * both paths; only the helper path can pass non-zero flags: -EINVAL, with
 * a good count and with a bad one.
 */
struct limit_case {
	char tag[24];
	const struct path *path;
	struct inputs in;
	int64_t want;
};

static int limit_cases(const struct test_ctx *ctx, struct limit_case *c)
{
	uint32_t counts[3] = { LOOP_LIMIT + 1, UINT32_MAX,
			       (uint32_t)param(ctx, "past_limit", LOOP_LIMIT + 2, UINT32_MAX - 1) };
	static const char *const count_tags[3] = { "edge", "max", "between" };
	uint64_t flag = 1ull << param(ctx, "flag_bit", 0, 63);
	int i, k, n = 0;

	for (i = 0; i < NR_PATHS; i++)
		for (k = 0; k < 3; k++, n++) {
			snprintf(c[n].tag, sizeof(c[n].tag), "%s.%s", paths[i].suffix, count_tags[k]);
			c[n].path = &paths[i];
			c[n].in = count_inputs(ctx, counts[k], NEVER, 0);
			c[n].want = -E2BIG;
		}
	for (k = 0; k < 2; k++, n++) {
		snprintf(c[n].tag, sizeof(c[n].tag), "helper.%s", k ? "flags_and_count" : "flags");
		c[n].path = HELPER_PATH;
		c[n].in = count_inputs(ctx, k ? LOOP_LIMIT + 1 : (uint32_t)param(ctx, "few", 1, 20),
				       NEVER, flag);
		c[n].want = -EINVAL;
	}
	return n;
}

RUN(lab2_limits_still_hold)
{
	struct limit_case c[8];
	int i, n = limit_cases(ctx, c);

	for (i = 0; i < n; i++)
		count_run(ctx, c[i].tag, c[i].path, &c[i].in);
}

JUDGE(lab2_limits_still_hold)
{
	struct limit_case c[8];
	int i, n = limit_cases(ctx, c);

	for (i = 0; i < n; i++)
		count_judge(ctx, c[i].tag, c[i].path, &c[i].in, c[i].want, 0);
}

/* ---- a NULL ctx ---- */

static struct inputs null_inputs(const struct test_ctx *ctx)
{
	return (struct inputs){ .nr_loops = (uint32_t)param(ctx, "nr_loops", 5, 50) };
}

RUN(lab2_null_ctx)
{
	struct inputs in = null_inputs(ctx);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		exercise(ctx, paths[i].suffix, "null_ctx", &paths[i], &in);
}

JUDGE(lab2_null_ctx)
{
	struct inputs in = null_inputs(ctx);
	char call[200];
	int i;

	for (i = 0; i < NR_PATHS; i++) {
		const char *tag = paths[i].suffix;

		snprintf(call, sizeof(call), "null_ctx_%s (%s): %u loops, ctx NULL", tag,
			 paths[i].name, in.nr_loops);
		if (!ran(ctx, tag, call))
			continue;
		check_ret(ctx, tag, call, in.nr_loops);
		out_is(ctx, tag, call, "calls", in.nr_loops, "the callback's calls");
		out_is(ctx, tag, call, "ctx_not_null", 0,
		       "the ctx values the callback got, OR-ed (0: all NULL)");
	}
}

/* ---- nested loops ---- */

static struct inputs nested_inputs(const struct test_ctx *ctx)
{
	return (struct inputs){ .n1 = (uint32_t)param(ctx, "n1", 2, 6),
				.n2 = (uint32_t)param(ctx, "n2", 2, 6),
				.n3 = (uint32_t)param(ctx, "n3", 2, 6) };
}

RUN(lab2_nested)
{
	struct inputs in = nested_inputs(ctx);
	int i;

	for (i = 0; i < NR_PATHS; i++)
		exercise(ctx, paths[i].suffix, "nested", &paths[i], &in);
}

JUDGE(lab2_nested)
{
	struct inputs in = nested_inputs(ctx);
	char call[200];
	int i;

	for (i = 0; i < NR_PATHS; i++) {
		const char *tag = paths[i].suffix;

		snprintf(call, sizeof(call), "nested_%s (%s): %u x %u x %u loops", tag,
			 paths[i].name, in.n1, in.n2, in.n3);
		if (!ran(ctx, tag, call))
			continue;
		check_ret(ctx, tag, call, in.n1);
		out_is(ctx, tag, call, "calls2", in.n1 * in.n2, "second-level calls");
		out_is(ctx, tag, call, "calls3", in.n1 * in.n2 * in.n3, "innermost calls");
		out_is(ctx, tag, call, "wrong2", 0, "second-level bpf_loop returns other than n2");
		out_is(ctx, tag, call, "wrong3", 0, "innermost bpf_loop returns other than n3");
	}
}

/* ---- a callback picked at run time: pick_a runs every loop; pick_b stops
 * at index 2 (3 calls) ---- */

static uint32_t picks_loops(const struct test_ctx *ctx)
{
	return (uint32_t)param(ctx, "nr_loops", 4, 20);
}

RUN(lab2_runtime_callback)
{
	struct inputs in = { .nr_loops = picks_loops(ctx) };
	char tag[32];
	int i, k;

	for (i = 0; i < NR_PATHS; i++)
		for (k = 0; k < 2; k++) {
			in.selector = k;
			snprintf(tag, sizeof(tag), "%s.%s", paths[i].suffix, k ? "b" : "a");
			exercise(ctx, tag, "runtime_callback", &paths[i], &in);
		}
}

JUDGE(lab2_runtime_callback)
{
	uint32_t n = picks_loops(ctx);
	char tag[32], call[200];
	int i, k;

	for (i = 0; i < NR_PATHS; i++)
		for (k = 0; k < 2; k++) {
			snprintf(tag, sizeof(tag), "%s.%s", paths[i].suffix, k ? "b" : "a");
			snprintf(call, sizeof(call), "runtime_callback_%s (%s): %u loops, callback %s",
				 paths[i].suffix, paths[i].name, n,
				 k ? "pick_b (stops at index 2)" : "pick_a (runs to the end)");
			if (!ran(ctx, tag, call))
				continue;
			check_ret(ctx, tag, call, k ? 3 : n);
			out_is(ctx, tag, call, "calls_a", k ? 0 : n, "pick_a's calls");
			out_is(ctx, tag, call, "calls_b", k ? 3 : 0, "pick_b's calls");
		}
}

/* ---- refusals ---- */

/* A bad program of lab2_reject.bpf.c beside its good twin: what is wrong
 * with it. The load's error and what the verifier's log must say are
 * beside the program, its REFUSED() line (refused()). */
struct refusal {
	const char *base, *bug;
};

static const struct refusal ret_2 = { "ret", "a callback that returns 2" };
static const struct refusal r3_read = { "r3", "a callback that reads R3" };
static const struct refusal unchecked_index = {
	"index", "a callback that indexes ctx's array without a bound",
};
static const struct refusal ctx_oob = { "oob", "a callback that writes past the caller's stack" };
static const struct refusal recursion = { "recursion", "a callback that passes itself to bpf_loop" };
static const struct refusal deep_nesting = {
	"deep", "nested callbacks whose frames add up to 640 bytes",
};

/* NAME_bad's REFUSED() line (NULL without one: the judge fails the test). */
static const struct refused *bad_verdict(const struct refusal *r)
{
	char prog[64];

	snprintf(prog, sizeof(prog), "%s_bad", r->base);
	return refused(prog);
}

/* Load NAME_good and NAME_bad, each in an object of its own; report
 * good.* and bad.*, and whether the bad one's log says what it must. */
static void refusal_run(struct test_ctx *ctx, const struct refusal *r)
{
	static const char *const which[2] = { "good", "bad" };
	struct lab2_reject *skel;
	struct verdict v = { 0 };
	char prog[64];
	int k, fd;

	for (k = 0; k < 2; k++) {
		skel = lab2_reject__open();
		observe(ctx, skel ? 0 : -errno, "%s.open", which[k]);
		if (!skel)
			return;
		snprintf(prog, sizeof(prog), "%s_%s", r->base, which[k]);
		fd = load_one_skel(skel->skeleton, prog, 1, &v);
		observe(ctx, fd < 0 ? v.err : 0, "%s.load", which[k]);
		if (fd < 0) {
			const struct refused *want = bad_verdict(r);
			bool says = want && v.log && strstr(v.log, want->says);

			if (k == 1)
				observe(ctx, says, "bad.log_says");
			if (k == 0 || !says || v.err != want->err)
				diag_log(v.log, 20);
		}
		verdict_free(&v);
		lab2_reject__destroy(skel);
	}
}

/* The good twin loaded, the bad one did not, with the right error and a
 * log that names the problem. */
static void refusal_judge(struct test_ctx *ctx, const struct refusal *r)
{
	const struct refused *want = bad_verdict(r);
	long long open = seen(ctx, "good.open"), load;
	char what[160];

	if (!CHECK(ctx, open == 0, "opening the lab2_reject object: %s", err_name(open)))
		return;
	load = seen(ctx, "good.load");
	CHECK(ctx, load == 0, "%s_good, the twin without the bug, did not load (%s): the verifier "
	      "must accept it before a refusal of %s_bad counts", r->base, err_name(load), r->base);
	open = seen(ctx, "bad.open");
	if (!CHECK(ctx, open == 0, "opening the lab2_reject object: %s", err_name(open)))
		return;
	load = seen(ctx, "bad.load");
	if (!CHECK(ctx, load != 0, "%s_bad loaded: the verifier must refuse %s", r->base, r->bug))
		return;
	if (!CHECK(ctx, want, "the kit's lab2_reject.bpf.c has no REFUSED() line for %s_bad", r->base))
		return;
	snprintf(what, sizeof(what), "the load's error for %s_bad", r->base);
	CHECK_EQ(ctx, load, want->err, what);
	CHECK(ctx, seen(ctx, "bad.log_says") == 1,
	      "%s_bad was refused, but the verifier's log does not say \"%s\"", r->base, want->says);
}

#define REFUSAL(name, r)						\
	RUN(name) { refusal_run(ctx, &(r)); }				\
	JUDGE(name) { refusal_judge(ctx, &(r)); }

REFUSAL(lab2_reject_ret_2, ret_2)
REFUSAL(lab2_reject_r3_read, r3_read)
REFUSAL(lab2_reject_unchecked_index, unchecked_index)
REFUSAL(lab2_reject_ctx_oob, ctx_oob)
REFUSAL(lab2_reject_recursion, recursion)
REFUSAL(lab2_reject_deep_nesting, deep_nesting)
