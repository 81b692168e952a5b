// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6: the verifier inlines bpf_loop. A call whose callback is the same
 * on every path and whose flags are a known zero becomes a loop of BPF
 * instructions; any other call still reaches the C helper. The tests read
 * the translated program (bpf_prog_info's xlated_prog_insns) to see which
 * happened, and run the inlined loop against the helper's answers.
 *
 * A kernel without inlining must fail every test here, so each test first
 * requires that its inlinable program really was inlined: a "the call is
 * kept" test alone would pass on any such kernel.
 *
 * The programs are in progs/lab6.bpf.c; the demonstration of the 6.1
 * verifier's callback flaw in progs/lab6_unsound.bpf.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "lab6.skel.h"
#include "lab6_unsound.skel.h"

/* count_cb's stop_at when it should not stop. */
#define NEVER UINT32_MAX

/* The inputs of one run of a program of lab6.bpf.c. */
struct inputs {
	uint64_t nr_loops;	/* nr_loops gets its low half, nr_loops64 all of it */
	uint32_t stop_at, selector;
	uint64_t flags;
	uint64_t regs[4], canary[3];
};

/*
 * Open lab6, load prog, report its translation as TAG.*; with inputs, run
 * it once and report its outputs too.
 */
static void exercise(struct test_ctx *ctx, const char *tag, const char *prog,
		     const struct inputs *in)
{
	struct verdict v = { 0 };
	uint32_t retval = 0;
	struct lab6 *skel;
	int fd, err, i;

	skel = lab6__open();
	observe(ctx, skel ? 0 : -errno, "%s.open", tag);
	if (!skel)
		return;
	fd = load_one_skel(skel->skeleton, prog, 1, &v);
	observe(ctx, fd < 0 ? v.err : 0, "%s.load", tag);
	if (fd < 0) {
		diag_log(v.log, 20);
		goto out;
	}
	observe_xlated(ctx, tag, fd);
	if (!in)
		goto out;
	skel->bss->nr_loops = (uint32_t)in->nr_loops;
	skel->bss->nr_loops64 = in->nr_loops;
	skel->bss->stop_at = in->stop_at;
	skel->bss->selector = in->selector;
	skel->bss->flags_rt = in->flags;
	memcpy(skel->bss->in_reg, in->regs, sizeof(in->regs));
	memcpy(skel->bss->in_canary, in->canary, sizeof(in->canary));
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "%s.run", tag);
	if (err)
		goto out;
	observe(ctx, (int32_t)retval, "%s.retval", tag);
	observe(ctx, skel->bss->result, "%s.result", tag);
	observe(ctx, (long long)skel->bss->calls, "%s.calls", tag);
	observe(ctx, (long long)skel->bss->index_sum, "%s.index_sum", tag);
	observe(ctx, (long long)skel->bss->calls_a, "%s.calls_a", tag);
	observe(ctx, (long long)skel->bss->calls_b, "%s.calls_b", tag);
	for (i = 0; i < 4; i++)
		observe(ctx, (long long)skel->bss->out_reg[i], "%s.out_reg%d", tag, i);
	for (i = 0; i < 3; i++)
		observe(ctx, (long long)skel->bss->out_canary[i], "%s.out_canary%d", tag, i);
out:
	verdict_free(&v);
	lab6__destroy(skel);
}

/* The judge's side of a load: false after a failure. */
static bool loaded(struct test_ctx *ctx, const char *tag, const char *prog)
{
	long long open = seen(ctx, "%s.open", tag), load, info;

	if (!CHECK(ctx, open == 0, "opening the lab6 object: %s", err_name(open)))
		return false;
	load = seen(ctx, "%s.load", tag);
	if (!CHECK(ctx, load == 0, "%s did not load (%s)", prog, err_name(load)))
		return false;
	info = seen(ctx, "%s.info", tag);
	if (!CHECK(ctx, info == 0, "%s: BPF_OBJ_GET_INFO_BY_FD: %s", prog, err_name(info)))
		return false;
	return CHECK(ctx, seen(ctx, "%s.insns", tag) > 0, "%s: the kernel gives no translated "
		     "instructions (xlated_prog_len 0: is the suite running as root?)", prog);
}

/* The call was rewritten: no helper call left, and the callback is now
 * called from the program itself. */
static bool is_inlined(struct test_ctx *ctx, const char *tag, const char *prog, const char *why)
{
	long long helper, bpf;

	if (!loaded(ctx, tag, prog))
		return false;
	helper = seen(ctx, "%s.helper_calls", tag);
	bpf = seen(ctx, "%s.bpf_calls", tag);
	return CHECK(ctx, helper == 0 && bpf > 0,
		     "%s: the bpf_loop call was not inlined (%lld helper call(s) left in the "
		     "translated program, %lld BPF call(s)); %s", prog, helper, bpf, why);
}

static bool is_kept(struct test_ctx *ctx, const char *tag, const char *prog, const char *why)
{
	long long helper;

	if (!loaded(ctx, tag, prog))
		return false;
	helper = seen(ctx, "%s.helper_calls", tag);
	return CHECK(ctx, helper == 1, "%s: the bpf_loop call was inlined (%lld helper calls in "
		     "the translated program, expected 1): %s", prog, helper, why);
}

static bool ran(struct test_ctx *ctx, const char *tag, const char *prog)
{
	long long run = seen(ctx, "%s.run", tag);

	return CHECK(ctx, run == 0, "%s: BPF_PROG_TEST_RUN: %s", prog, err_name(run));
}

#define WHY_INLINE "its callback and flags (0) are the same on every path"

/* The plain case is inlined; also when two paths reach the call with the
 * same callback and different ctx. */
static const char *const inlinable[] = { "count_inline", "same_cb_two_paths",
					 "count_wide_inline", "saved_regs" };
#define NR_INLINABLE (sizeof(inlinable) / sizeof(inlinable[0]))

RUN(lab6_inlined)
{
	size_t i;

	for (i = 0; i < NR_INLINABLE; i++)
		exercise(ctx, inlinable[i], inlinable[i], NULL);
}

JUDGE(lab6_inlined)
{
	size_t i;

	for (i = 0; i < NR_INLINABLE; i++)
		is_inlined(ctx, inlinable[i], inlinable[i], WHY_INLINE);
}

/* twin must be inlined, prog must keep its call. */
static void kept_run(struct test_ctx *ctx, const char *twin, const char *prog)
{
	exercise(ctx, "twin", twin, NULL);
	exercise(ctx, prog, prog, NULL);
}

static void kept_judge(struct test_ctx *ctx, const char *twin, const char *prog, const char *why)
{
	if (!is_inlined(ctx, "twin", twin, "this is the inlinable twin, which must be inlined "
			"before a kept call counts"))
		return;
	is_kept(ctx, prog, prog, why);
}

#define FLAGS_UNKNOWN "its flags come from a global the verifier cannot know"
#define FLAGS_ONE "its flags are the constant 1, which only the helper answers (-EINVAL)"

RUN(lab6_kept_flags_unknown)
{
	exercise(ctx, "twin", "count_inline", NULL);
	exercise(ctx, "count_helper", "count_helper", NULL);
	exercise(ctx, "count_flags_one", "count_flags_one", NULL);
}

JUDGE(lab6_kept_flags_unknown)
{
	if (!is_inlined(ctx, "twin", "count_inline", "this is the inlinable twin, which must be "
			"inlined before a kept call counts"))
		return;
	is_kept(ctx, "count_helper", "count_helper", FLAGS_UNKNOWN);
	is_kept(ctx, "count_flags_one", "count_flags_one", FLAGS_ONE);
}

RUN(lab6_kept_flags_mixed)
{
	kept_run(ctx, "same_cb_two_paths", "flags_mixed");
}

JUDGE(lab6_kept_flags_mixed)
{
	kept_judge(ctx, "same_cb_two_paths", "flags_mixed",
		   "its flags are 0 on one path and unknown on the other");
}

RUN(lab6_kept_callback_differs)
{
	kept_run(ctx, "same_cb_two_paths", "cb_differs");
}

JUDGE(lab6_kept_callback_differs)
{
	kept_judge(ctx, "same_cb_two_paths", "cb_differs",
		   "the two paths that reach its call pass different callbacks");
}

/*
 * The inlined program and its helper twin with the same inputs must give
 * the same return, calls and index sum, and the return must be want (a
 * full 64-bit value, as the helper's long).
 */
struct same_case {
	const char *inl, *hlp;
	struct inputs in;
	int64_t want;
};

static void same_run(struct test_ctx *ctx, const struct same_case *c, int k)
{
	char tag[24];

	snprintf(tag, sizeof(tag), "inl%d", k);
	exercise(ctx, tag, c->inl, &c->in);
	snprintf(tag, sizeof(tag), "hlp%d", k);
	exercise(ctx, tag, c->hlp, &c->in);
}

static void same_judge(struct test_ctx *ctx, const struct same_case *c, int k)
{
	char inl[24], hlp[24], what[200], stop[40] = "";
	long long ret[2], calls[2], sum[2], retval[2];
	const char *tags[2] = { inl, hlp };
	int i;

	snprintf(inl, sizeof(inl), "inl%d", k);
	snprintf(hlp, sizeof(hlp), "hlp%d", k);
	if (!is_inlined(ctx, inl, c->inl, WHY_INLINE) || !ran(ctx, inl, c->inl))
		return;
	if (!loaded(ctx, hlp, c->hlp) || !ran(ctx, hlp, c->hlp))
		return;
	for (i = 0; i < 2; i++) {
		ret[i] = seen(ctx, "%s.result", tags[i]);
		calls[i] = seen(ctx, "%s.calls", tags[i]);
		sum[i] = seen(ctx, "%s.index_sum", tags[i]);
		retval[i] = seen(ctx, "%s.retval", tags[i]);
	}
	if (c->in.stop_at != NEVER)
		snprintf(stop, sizeof(stop), ", stop at index %u", c->in.stop_at);
	snprintf(what, sizeof(what), "%s, %#llx loops%s: bpf_loop's return%s", c->inl,
		 (unsigned long long)c->in.nr_loops, stop, errno_note(c->want));
	if (!CHECK(ctx, ret[0] == c->want, "%s: expected %lld (%#llx), got %lld (%#llx)", what,
		   (long long)c->want, (unsigned long long)c->want, ret[0],
		   (unsigned long long)ret[0]))
		return;
	CHECK(ctx, ret[1] == c->want, "%s (the helper, %s): expected %lld, got %lld", what, c->hlp,
	      (long long)c->want, ret[1]);
	CHECK(ctx, calls[0] == calls[1] && sum[0] == sum[1] && retval[0] == retval[1],
	      "%s: the inlined loop made %lld calls (index sum %lld, program returned %lld), "
	      "the helper %lld (index sum %lld, returned %lld)", what, calls[0], sum[0], retval[0],
	      calls[1], sum[1], retval[1]);
}

/* A test made of such cases: RUN and JUDGE over the same list. */
#define SAME_TEST(name, cases_fn)					\
	RUN(name)							\
	{								\
		struct same_case c[4];					\
		int k, n = cases_fn(ctx, c);				\
									\
		for (k = 0; k < n; k++)					\
			same_run(ctx, &c[k], k);			\
	}								\
	JUDGE(name)							\
	{								\
		struct same_case c[4];					\
		int k, n = cases_fn(ctx, c);				\
									\
		for (k = 0; k < n; k++)					\
			same_judge(ctx, &c[k], k);			\
	}

static struct same_case count_case(uint64_t n, uint32_t stop_at, int64_t want)
{
	return (struct same_case){ "count_inline", "count_helper",
				   { .nr_loops = n, .stop_at = stop_at }, want };
}

static uint32_t some_loops(const struct test_ctx *ctx)
{
	return (uint32_t)param(ctx, "nr_loops", 200, 800);
}

static int count_cases(struct test_ctx *ctx, struct same_case *c)
{
	c[0] = count_case(some_loops(ctx), NEVER, some_loops(ctx));
	return 1;
}
SAME_TEST(lab6_count_500, count_cases)

/* Stops at the first index, at one drawn, at the last: the call that
 * returns 1 counts. */
static int early_cases(struct test_ctx *ctx, struct same_case *c)
{
	uint32_t n = some_loops(ctx), k = (uint32_t)param(ctx, "stop_at", 1, n - 2);

	c[0] = count_case(n, 0, 1);
	c[1] = count_case(n, k, k + 1);
	c[2] = count_case(n, n - 1, n);
	return 3;
}
SAME_TEST(lab6_early_stop, early_cases)

static int zero_cases(struct test_ctx *ctx, struct same_case *c)
{
	(void)ctx;
	c[0] = count_case(0, NEVER, 0);
	return 1;
}
SAME_TEST(lab6_zero_loops, zero_cases)

static int max_cases(struct test_ctx *ctx, struct same_case *c)
{
	(void)ctx;
	c[0] = count_case(LOOP_LIMIT, NEVER, LOOP_LIMIT);
	return 1;
}
SAME_TEST(lab6_max_loops, max_cases)

/* -E2BIG is the long -7: all 64 bits set but the low three. */
static int too_many_cases(struct test_ctx *ctx, struct same_case *c)
{
	c[0] = count_case(LOOP_LIMIT + 1, NEVER, -E2BIG);
	c[1] = count_case(UINT32_MAX, NEVER, -E2BIG);
	c[2] = count_case(param(ctx, "past_limit", LOOP_LIMIT + 2, UINT32_MAX - 1), NEVER, -E2BIG);
	return 3;
}
SAME_TEST(lab6_too_many, too_many_cases)

/* A 64-bit nr_loops: the helper's u32 argument keeps the low half. */
static int wide_cases(struct test_ctx *ctx, struct same_case *c)
{
	uint64_t high = param(ctx, "high", 1, 0xffffffff) << 32;
	uint32_t low = (uint32_t)param(ctx, "low", 1, 50);

	c[0] = (struct same_case){ "count_wide_inline", "count_wide_helper",
				   { .nr_loops = high + low, .stop_at = NEVER }, low };
	c[1] = (struct same_case){ "count_wide_inline", "count_wide_helper",
				   { .nr_loops = high + LOOP_LIMIT + 1, .stop_at = NEVER }, -E2BIG };
	return 2;
}
SAME_TEST(lab6_wide_nr_loops, wide_cases)

/* Non-zero flags reach the helper, which says -EINVAL without a call. */
static const char *const flag_progs[] = { "count_helper", "count_flags_one" };

static struct inputs flags_inputs(const struct test_ctx *ctx)
{
	return (struct inputs){ .nr_loops = param(ctx, "nr_loops", 1, 20), .stop_at = NEVER,
				.flags = 1ull << param(ctx, "flag_bit", 0, 63) };
}

RUN(lab6_bad_flags)
{
	struct inputs in = flags_inputs(ctx);
	int i;

	exercise(ctx, "twin", "count_inline", NULL);
	for (i = 0; i < 2; i++)
		exercise(ctx, flag_progs[i], flag_progs[i], &in);
}

JUDGE(lab6_bad_flags)
{
	struct inputs in = flags_inputs(ctx);
	char what[160];
	int i;

	if (!is_inlined(ctx, "twin", "count_inline", "the inlinable twin must be inlined"))
		return;
	for (i = 0; i < 2; i++) {
		if (!loaded(ctx, flag_progs[i], flag_progs[i]) || !ran(ctx, flag_progs[i], flag_progs[i]))
			continue;
		snprintf(what, sizeof(what), "%s, %llu loops, flags %s: bpf_loop's return",
			 flag_progs[i], (unsigned long long)in.nr_loops, i ? "1" : "non-zero");
		CHECK_EQ(ctx, seen(ctx, "%s.result", flag_progs[i]), -EINVAL, what);
		snprintf(what, sizeof(what), "%s, %llu loops, flags %s: the callback's calls",
			 flag_progs[i], (unsigned long long)in.nr_loops, i ? "1" : "non-zero");
		CHECK_EQ(ctx, seen(ctx, "%s.calls", flag_progs[i]), 0, what);
	}
}

/* Both paths of the one inlined call run their own ctx. */
static uint32_t two_paths_loops(const struct test_ctx *ctx)
{
	return (uint32_t)param(ctx, "nr_loops", 5, 30);
}

RUN(lab6_two_paths_run)
{
	struct inputs in = { .nr_loops = two_paths_loops(ctx), .stop_at = NEVER };

	for (in.selector = 0; in.selector < 2; in.selector++)
		exercise(ctx, in.selector ? "path1" : "path0", "same_cb_two_paths", &in);
}

JUDGE(lab6_two_paths_run)
{
	long long n = two_paths_loops(ctx), ret, a, b;
	uint32_t sel;

	for (sel = 0; sel < 2; sel++) {
		const char *tag = sel ? "path1" : "path0";

		if (!is_inlined(ctx, tag, "same_cb_two_paths", WHY_INLINE) ||
		    !ran(ctx, tag, "same_cb_two_paths"))
			return;
		ret = seen(ctx, "%s.result", tag);
		a = seen(ctx, "%s.calls_a", tag);
		b = seen(ctx, "%s.calls_b", tag);
		CHECK(ctx, ret == n && a == (sel ? 0 : n) && b == (sel ? n : 0),
		      "same_cb_two_paths, %lld loops, path %u: expected return %lld and %lld calls on "
		      "ctx %c, got return %lld, %lld calls on a, %lld on b", n, sel, n, n,
		      sel ? 'b' : 'a', ret, a, b);
	}
}

/* R6 to R9 and the program's stack are as they were before the loop;
 * their values are drawn. */
static struct inputs saved_inputs(const struct test_ctx *ctx)
{
	struct inputs in = { .nr_loops = param(ctx, "nr_loops", 3, 20), .stop_at = NEVER };
	char name[16];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "reg%d", i);
		in.regs[i] = param(ctx, name, 1, UINT64_MAX);
	}
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "canary%d", i);
		in.canary[i] = param(ctx, name, 1, UINT64_MAX);
	}
	return in;
}

RUN(lab6_saved_regs)
{
	struct inputs in = saved_inputs(ctx);

	exercise(ctx, "saved_regs", "saved_regs", &in);
}

JUDGE(lab6_saved_regs)
{
	struct inputs in = saved_inputs(ctx);
	char what[80];
	int i;

	if (!is_inlined(ctx, "saved_regs", "saved_regs", WHY_INLINE) ||
	    !ran(ctx, "saved_regs", "saved_regs"))
		return;
	snprintf(what, sizeof(what), "saved_regs, %llu loops: bpf_loop's return",
		 (unsigned long long)in.nr_loops);
	CHECK_EQ(ctx, seen(ctx, "saved_regs.result"), in.nr_loops, what);
	snprintf(what, sizeof(what), "saved_regs, %llu loops: the callback's calls",
		 (unsigned long long)in.nr_loops);
	CHECK_EQ(ctx, seen(ctx, "saved_regs.calls"), in.nr_loops, what);
	for (i = 0; i < 4; i++) {
		uint64_t got = (uint64_t)seen(ctx, "saved_regs.out_reg%d", i);

		CHECK(ctx, got == in.regs[i],
		      "saved_regs: R%d, kept across the call, was %#llx, is %#llx after it", 6 + i,
		      (unsigned long long)in.regs[i], (unsigned long long)got);
	}
	for (i = 0; i < 3; i++) {
		uint64_t got = (uint64_t)seen(ctx, "saved_regs.out_canary%d", i);

		CHECK(ctx, got == in.canary[i],
		      "saved_regs: the program's stack at fp-%d was %#llx, is %#llx after the call "
		      "(the loop's own slots must lie below the program's stack)", 40 - 8 * i,
		      (unsigned long long)in.canary[i], (unsigned long long)got);
	}
}

/*
 * Going further, a demonstration rather than a lab test: the 6.1 verifier
 * checks a callback once, so a value the callback changes in its ctx is
 * only ever checked with its first value. It passes on a 6.1 kernel with
 * or without inlining; a kernel with the 6.7 fix refuses the program.
 */
static struct lab6_unsound *unsound_load(struct test_ctx *ctx, const char *prog, int *fd)
{
	struct lab6_unsound *skel = lab6_unsound__open();
	struct verdict v = { 0 };

	observe(ctx, skel ? 0 : -errno, "open");
	if (!skel)
		return NULL;
	*fd = load_one_skel(skel->skeleton, prog, 1, &v);
	observe(ctx, *fd < 0 ? v.err : 0, "load");
	if (*fd < 0)
		diag_log(v.log, 20);
	verdict_free(&v);
	if (*fd < 0) {
		lab6_unsound__destroy(skel);
		return NULL;
	}
	return skel;
}

static bool unsound_loaded(struct test_ctx *ctx, const char *prog)
{
	long long open = seen(ctx, "open"), load;

	if (!CHECK(ctx, open == 0, "opening the lab6_unsound object: %s", err_name(open)))
		return false;
	load = seen(ctx, "load");
	return CHECK(ctx, load == 0, "%s was refused (%s): this kernel verifies the callback for "
		     "more than one run, unlike 6.1", prog, err_name(load));
}

static void pair_values(const struct test_ctx *ctx, uint64_t elem[2])
{
	elem[0] = param(ctx, "elem0", 1, UINT64_MAX);
	elem[1] = param(ctx, "elem1", 1, UINT64_MAX);
}

RUN(lab6_unsound_callback_accepted)
{
	struct lab6_unsound *skel;
	uint32_t key, retval = 0;
	uint64_t elem[2];
	int fd, map, err;

	skel = unsound_load(ctx, "reach_next", &fd);
	if (!skel)
		return;
	pair_values(ctx, elem);
	map = bpf_map__fd(skel->maps.pair);
	for (key = 0; key < 2; key++)
		observe(ctx, bpf_map_update_elem(map, &key, &elem[key], BPF_ANY) ? -errno : 0,
			"update%u", key);
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "run");
	if (!err) {
		observe(ctx, skel->bss->result, "result");
		observe(ctx, (long long)skel->bss->seen[0], "seen0");
		observe(ctx, (long long)skel->bss->seen[1], "seen1");
		observe(ctx, (long long)skel->bss->idx_after, "idx_after");
	}
	lab6_unsound__destroy(skel);
}

JUDGE(lab6_unsound_callback_accepted)
{
	uint64_t elem[2], got;
	long long run;
	unsigned int key;

	if (!unsound_loaded(ctx, "reach_next"))
		return;
	pair_values(ctx, elem);
	for (key = 0; key < 2; key++) {
		long long up = seen(ctx, "update%u", key);

		CHECK(ctx, up == 0, "writing element %u of the map pair: %s", key, err_name(up));
	}
	run = seen(ctx, "run");
	if (!CHECK(ctx, run == 0, "reach_next: BPF_PROG_TEST_RUN: %s", err_name(run)))
		return;
	CHECK_EQ(ctx, seen(ctx, "result"), 2, "reach_next: bpf_loop's return");
	got = (uint64_t)seen(ctx, "seen0");
	CHECK(ctx, got == elem[0], "reach_next: the first run read %#llx, expected element 0's %#llx",
	      (unsigned long long)got, (unsigned long long)elem[0]);
	got = (uint64_t)seen(ctx, "seen1");
	CHECK(ctx, got == elem[1], "reach_next: the second run read %#llx; the flaw would make it "
	      "element 1's %#llx, out of the 8 bytes the verifier approved", (unsigned long long)got,
	      (unsigned long long)elem[1]);
	CHECK_EQ(ctx, seen(ctx, "idx_after"), 2,
		 "reach_next: the counter after the loop (the verifier believes 1)");
}

/* table[0] and the bytes 8, 16 and 24 past the start of the value. */
static void walk_bytes(const struct test_ctx *ctx, uint8_t b[4])
{
	char name[8];
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "byte%d", i);
		b[i] = (uint8_t)param(ctx, name, 1, 60);
	}
}

RUN(lab6_handbook_walk_prog)
{
	struct lab6_unsound *skel;
	uint32_t retval = 0;
	uint8_t *page, b[4];
	int fd, err, i;

	skel = unsound_load(ctx, "walk_prog", &fd);
	if (!skel)
		return;
	/* In the page the skeleton maps. */
	walk_bytes(ctx, b);
	page = (uint8_t *)skel->data_table;
	for (i = 0; i < 4; i++)
		page[8 * i] = b[i];
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "run");
	if (!err)
		observe(ctx, retval, "retval");
	lab6_unsound__destroy(skel);
}

JUDGE(lab6_handbook_walk_prog)
{
	long long run, got;
	uint8_t b[4];

	if (!unsound_loaded(ctx, "walk_prog"))
		return;
	walk_bytes(ctx, b);
	run = seen(ctx, "run");
	if (!CHECK(ctx, run == 0, "walk_prog: BPF_PROG_TEST_RUN: %s", err_name(run)))
		return;
	got = seen(ctx, "retval");
	CHECK(ctx, got == b[0] + b[1] + b[2] + b[3],
	      "walk_prog returned %lld: expected %d (table[0] + the bytes at 8, 16, 24 past it); "
	      "%d would mean every run read table[0], as the verifier proved", got,
	      b[0] + b[1] + b[2] + b[3], 4 * b[0]);
}
