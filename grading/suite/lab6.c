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

/* One program of lab6.bpf.c, loaded, with what its translation holds. */
struct prog {
	struct lab6 *skel;
	int fd;
	const char *name;
	int helper_calls;	/* calls of a helper (any: bpf_loop is the only one) */
	int bpf_calls;		/* calls of a BPF function (callbacks, subprograms) */
	int32_t retval;
};

/*
 * Count the calls in the translated program. The kernel rewrote each
 * helper call's imm into an address offset, so the helper's ID is gone:
 * the programs of lab6.bpf.c call no helper but bpf_loop, so any helper
 * call is a bpf_loop call.
 */
static bool read_xlated(struct test_ctx *ctx, struct prog *p)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), i, n;
	struct bpf_insn *insns;

	if (!CHECK(ctx, bpf_obj_get_info_by_fd(p->fd, &info, &len) == 0,
		   "%s: BPF_OBJ_GET_INFO_BY_FD: %s", p->name, strerror(errno)))
		return false;
	n = info.xlated_prog_len / sizeof(*insns);
	if (!CHECK(ctx, n > 0, "%s: the kernel gives no translated instructions "
		   "(xlated_prog_len 0: is the suite running as root?)", p->name))
		return false;
	insns = calloc(n, sizeof(*insns));
	if (!CHECK(ctx, insns != NULL, "out of memory"))
		return false;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = n * sizeof(*insns);
	info.xlated_prog_insns = (uint64_t)(unsigned long)insns;
	len = sizeof(info);
	if (!CHECK(ctx, bpf_obj_get_info_by_fd(p->fd, &info, &len) == 0,
		   "%s: BPF_OBJ_GET_INFO_BY_FD (instructions): %s", p->name, strerror(errno))) {
		free(insns);
		return false;
	}
	p->helper_calls = p->bpf_calls = 0;
	for (i = 0; i < n; i++) {
		if (insns[i].code != (BPF_JMP | BPF_CALL))
			continue;
		if (insns[i].src_reg == 0)
			p->helper_calls++;
		else if (insns[i].src_reg == BPF_PSEUDO_CALL)
			p->bpf_calls++;
	}
	free(insns);
	return true;
}

/* Open lab6, load name and read its translation; false after a diagnostic. */
static bool prog_load(struct test_ctx *ctx, struct prog *p, const char *name)
{
	struct verdict v = { 0 };

	memset(p, 0, sizeof(*p));
	p->name = name;
	p->skel = lab6__open();
	if (!CHECK(ctx, p->skel != NULL, "opening the lab6 object: %s", strerror(errno)))
		return false;
	p->fd = load_one_skel(p->skel->skeleton, name, 1, &v);
	if (!CHECK(ctx, p->fd >= 0, "%s did not load (%s)", name, strerror(-v.err)))
		diag_log(v.log, 20);
	verdict_free(&v);
	if (p->fd < 0 || !read_xlated(ctx, p)) {
		lab6__destroy(p->skel);
		p->skel = NULL;
		return false;
	}
	return true;
}

static void prog_end(struct prog *p)
{
	lab6__destroy(p->skel);
	p->skel = NULL;
}

/* The call was rewritten: no helper call left, and the callback is now
 * called from the program itself. */
static bool check_inlined(struct test_ctx *ctx, const struct prog *p, const char *why)
{
	return CHECK(ctx, p->helper_calls == 0 && p->bpf_calls > 0,
		     "%s: the bpf_loop call was not inlined (%d helper call(s) left in the "
		     "translated program, %d BPF call(s)); %s", p->name, p->helper_calls,
		     p->bpf_calls, why);
}

static bool check_kept(struct test_ctx *ctx, const struct prog *p, const char *why)
{
	return CHECK(ctx, p->helper_calls == 1,
		     "%s: the bpf_loop call was inlined (%d helper calls in the translated "
		     "program, expected 1): %s", p->name, p->helper_calls, why);
}

/* Load name and require it inlined; false (unloaded) after a diagnostic. */
static bool load_inlined(struct test_ctx *ctx, struct prog *p, const char *name,
			 const char *why)
{
	if (!prog_load(ctx, p, name))
		return false;
	if (!check_inlined(ctx, p, why)) {
		prog_end(p);
		return false;
	}
	return true;
}

static bool prog_run(struct test_ctx *ctx, struct prog *p)
{
	uint32_t retval = 0;
	int err = tc_test_run(p->fd, 1, &retval, NULL);

	p->retval = (int32_t)retval;
	return CHECK(ctx, err == 0, "%s: BPF_PROG_TEST_RUN: %s", p->name, strerror(-err));
}

#define WHY_INLINE "its callback and flags (0) are the same on every path"

/* The plain case is inlined; also when two paths reach the call with the
 * same callback and different ctx. */
static void inlined(struct test_ctx *ctx)
{
	static const char *const names[] = { "count_inline", "same_cb_two_paths",
					     "count_wide_inline", "saved_regs" };
	struct prog p;
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (load_inlined(ctx, &p, names[i], WHY_INLINE))
			prog_end(&p);
}

/* twin must be inlined, name must keep its call. */
static void expect_kept(struct test_ctx *ctx, const char *twin, const char *name,
			const char *why)
{
	struct prog p;

	if (!load_inlined(ctx, &p, twin, "this is the inlinable twin, which must be "
			  "inlined before a kept call counts"))
		return;
	prog_end(&p);
	if (!prog_load(ctx, &p, name))
		return;
	check_kept(ctx, &p, why);
	prog_end(&p);
}

static void kept_flags_unknown(struct test_ctx *ctx)
{
	expect_kept(ctx, "count_inline", "count_helper",
		    "its flags come from a global the verifier cannot know");
	expect_kept(ctx, "count_inline", "count_flags_one",
		    "its flags are the constant 1, which only the helper answers (-EINVAL)");
}

static void kept_flags_mixed(struct test_ctx *ctx)
{
	expect_kept(ctx, "same_cb_two_paths", "flags_mixed",
		    "its flags are 0 on one path and unknown on the other");
}

static void kept_callback_differs(struct test_ctx *ctx)
{
	expect_kept(ctx, "same_cb_two_paths", "cb_differs",
		    "the two paths that reach its call pass different callbacks");
}

/*
 * count_inline (inlined) and count_helper (the helper) with the same
 * inputs must give the same return, calls and index sum, and the return
 * must be want (a full 64-bit value, as the helper's long).
 */
static void expect_same(struct test_ctx *ctx, const char *inl, const char *hlp, uint64_t n,
			uint32_t stop_at, int64_t want)
{
	struct { int64_t ret; uint64_t calls, sum; int32_t retval; } got[2];
	const char *names[2] = { inl, hlp };
	char what[200], stop[40] = "";
	struct prog p;
	int k;

	for (k = 0; k < 2; k++) {
		if (k == 0 ? !load_inlined(ctx, &p, names[k], WHY_INLINE) : !prog_load(ctx, &p, names[k]))
			return;
		p.skel->bss->nr_loops = (uint32_t)n;
		p.skel->bss->nr_loops64 = n;
		p.skel->bss->stop_at = stop_at;
		if (!prog_run(ctx, &p)) {
			prog_end(&p);
			return;
		}
		got[k].ret = p.skel->bss->result;
		got[k].calls = p.skel->bss->calls;
		got[k].sum = p.skel->bss->index_sum;
		got[k].retval = p.retval;
		prog_end(&p);
	}
	if (stop_at != NEVER)
		snprintf(stop, sizeof(stop), ", stop at index %u", stop_at);
	snprintf(what, sizeof(what), "%s, %#llx loops%s: bpf_loop's return%s",
		 inl, (unsigned long long)n, stop, errno_note(want));
	if (!CHECK(ctx, got[0].ret == want,
		   "%s: expected %lld (%#llx), got %lld (%#llx)", what, (long long)want,
		   (unsigned long long)want, (long long)got[0].ret,
		   (unsigned long long)got[0].ret))
		return;
	CHECK(ctx, got[1].ret == want, "%s (the helper, %s): expected %lld, got %lld",
	      what, hlp, (long long)want, (long long)got[1].ret);
	CHECK(ctx, got[0].calls == got[1].calls && got[0].sum == got[1].sum &&
	      got[0].retval == got[1].retval,
	      "%s: the inlined loop made %llu calls (index sum %llu, program returned %d), "
	      "the helper %llu (index sum %llu, returned %d)", what,
	      (unsigned long long)got[0].calls, (unsigned long long)got[0].sum, got[0].retval,
	      (unsigned long long)got[1].calls, (unsigned long long)got[1].sum, got[1].retval);
}

static void count_500(struct test_ctx *ctx)
{
	expect_same(ctx, "count_inline", "count_helper", 500, NEVER, 500);
}

static void early_stop(struct test_ctx *ctx)
{
	expect_same(ctx, "count_inline", "count_helper", 500, 0, 1);
	expect_same(ctx, "count_inline", "count_helper", 500, 50, 51);
	expect_same(ctx, "count_inline", "count_helper", 500, 499, 500);
}

static void zero_loops(struct test_ctx *ctx)
{
	expect_same(ctx, "count_inline", "count_helper", 0, NEVER, 0);
}

static void max_loops(struct test_ctx *ctx)
{
	expect_same(ctx, "count_inline", "count_helper", LOOP_LIMIT, NEVER, LOOP_LIMIT);
}

/* -E2BIG is the long -7: all 64 bits set but the low three. */
static void too_many(struct test_ctx *ctx)
{
	expect_same(ctx, "count_inline", "count_helper", LOOP_LIMIT + 1, NEVER, -E2BIG);
	expect_same(ctx, "count_inline", "count_helper", UINT32_MAX, NEVER, -E2BIG);
}

/* A 64-bit nr_loops: the helper's u32 argument keeps the low half. */
static void wide_nr_loops(struct test_ctx *ctx)
{
	expect_same(ctx, "count_wide_inline", "count_wide_helper", (1ull << 32) + 5, NEVER, 5);
	expect_same(ctx, "count_wide_inline", "count_wide_helper", (1ull << 32) + LOOP_LIMIT + 1,
		    NEVER, -E2BIG);
}

/* Non-zero flags reach the helper, which says -EINVAL without a call. */
static void bad_flags(struct test_ctx *ctx)
{
	static const char *const names[] = { "count_helper", "count_flags_one" };
	struct prog p;
	unsigned int i;

	if (!load_inlined(ctx, &p, "count_inline", "the inlinable twin must be inlined"))
		return;
	prog_end(&p);
	for (i = 0; i < 2; i++) {
		char what[120];

		if (!prog_load(ctx, &p, names[i]))
			continue;
		p.skel->bss->nr_loops = 5;
		p.skel->bss->stop_at = NEVER;
		p.skel->bss->flags_rt = 1;
		if (prog_run(ctx, &p)) {
			snprintf(what, sizeof(what), "%s, 5 loops, flags 1: bpf_loop's return%s",
				 names[i], errno_note(-EINVAL));
			CHECK_EQ(ctx, p.skel->bss->result, -EINVAL, what);
			snprintf(what, sizeof(what), "%s, 5 loops, flags 1: the callback's calls",
				 names[i]);
			CHECK_EQ(ctx, p.skel->bss->calls, 0, what);
		}
		prog_end(&p);
	}
}

/* Both paths of the one inlined call run their own ctx. */
static void two_paths_run(struct test_ctx *ctx)
{
	struct prog p;
	uint32_t sel;

	for (sel = 0; sel < 2; sel++) {
		if (!load_inlined(ctx, &p, "same_cb_two_paths", WHY_INLINE))
			return;
		p.skel->bss->nr_loops = 9;
		p.skel->bss->selector = sel;
		if (prog_run(ctx, &p)) {
			CHECK(ctx, p.skel->bss->result == 9 &&
			      p.skel->bss->calls_a == (sel ? 0 : 9) &&
			      p.skel->bss->calls_b == (sel ? 9 : 0),
			      "same_cb_two_paths, 9 loops, path %u: expected return 9 and 9 calls "
			      "on ctx %c, got return %lld, %llu calls on a, %llu on b", sel,
			      sel ? 'b' : 'a', (long long)p.skel->bss->result,
			      (unsigned long long)p.skel->bss->calls_a,
			      (unsigned long long)p.skel->bss->calls_b);
		}
		prog_end(&p);
	}
}

/* R6 to R9 and the program's stack are as they were before the loop. */
static void saved_regs(struct test_ctx *ctx)
{
	static const uint64_t regs[4] = { 0x6666666611111111ull, 0x7777777722222222ull,
					  0x8888888833333333ull, 0x9999999944444444ull };
	static const uint64_t canary[3] = { 0xc0ffee0000000001ull, 0xc0ffee0000000002ull,
					    0xc0ffee0000000003ull };
	struct prog p;
	int i;

	if (!load_inlined(ctx, &p, "saved_regs", WHY_INLINE))
		return;
	p.skel->bss->nr_loops = 7;
	p.skel->bss->stop_at = NEVER;
	memcpy(p.skel->bss->in_reg, regs, sizeof(regs));
	memcpy(p.skel->bss->in_canary, canary, sizeof(canary));
	if (prog_run(ctx, &p)) {
		CHECK_EQ(ctx, p.skel->bss->result, 7, "saved_regs, 7 loops: bpf_loop's return");
		CHECK_EQ(ctx, p.skel->bss->calls, 7, "saved_regs, 7 loops: the callback's calls");
		for (i = 0; i < 4; i++)
			CHECK(ctx, p.skel->bss->out_reg[i] == regs[i],
			      "saved_regs: R%d, kept across the call, was %#llx, is %#llx after it",
			      6 + i, (unsigned long long)regs[i],
			      (unsigned long long)p.skel->bss->out_reg[i]);
		for (i = 0; i < 3; i++)
			CHECK(ctx, p.skel->bss->out_canary[i] == canary[i],
			      "saved_regs: the program's stack at fp-%d was %#llx, is %#llx after "
			      "the call (the loop's own slots must lie below the program's stack)",
			      40 - 8 * i, (unsigned long long)canary[i],
			      (unsigned long long)p.skel->bss->out_canary[i]);
	}
	prog_end(&p);
}

/*
 * Going further, a demonstration rather than a lab test: the 6.1 verifier
 * checks a callback once, so a value the callback changes in its ctx is
 * only ever checked with its first value. It passes on a 6.1 kernel with
 * or without inlining; a kernel with the 6.7 fix refuses the program.
 */
static int load_unsound(struct test_ctx *ctx, struct lab6_unsound **skel, const char *name)
{
	struct verdict v = { 0 };
	int fd;

	*skel = lab6_unsound__open();
	if (!CHECK(ctx, *skel != NULL, "opening the lab6_unsound object: %s", strerror(errno)))
		return -1;
	fd = load_one_skel((*skel)->skeleton, name, 1, &v);
	if (!CHECK(ctx, fd >= 0, "%s was refused (%s): this kernel verifies the callback for "
		   "more than one run, unlike 6.1", name, strerror(-v.err)))
		diag_log(v.log, 20);
	verdict_free(&v);
	if (fd < 0) {
		lab6_unsound__destroy(*skel);
		*skel = NULL;
	}
	return fd;
}

static void unsound_callback_accepted(struct test_ctx *ctx)
{
	const uint64_t elem[2] = { 0x1111111111111111ull, 0x5eed5eed5eed5eedull };
	struct lab6_unsound *skel;
	uint32_t key, retval;
	int fd, map, err;

	fd = load_unsound(ctx, &skel, "reach_next");
	if (fd < 0)
		return;
	map = bpf_map__fd(skel->maps.pair);
	for (key = 0; key < 2; key++)
		CHECK(ctx, bpf_map_update_elem(map, &key, &elem[key], BPF_ANY) == 0,
		      "writing element %u of the map pair: %s", key, strerror(errno));
	err = tc_test_run(fd, 1, &retval, NULL);
	if (CHECK(ctx, err == 0, "reach_next: BPF_PROG_TEST_RUN: %s", strerror(-err))) {
		CHECK_EQ(ctx, skel->bss->result, 2, "reach_next: bpf_loop's return");
		CHECK(ctx, skel->bss->seen[0] == elem[0],
		      "reach_next: the first run read %#llx, expected element 0's %#llx",
		      (unsigned long long)skel->bss->seen[0], (unsigned long long)elem[0]);
		CHECK(ctx, skel->bss->seen[1] == elem[1],
		      "reach_next: the second run read %#llx; the flaw would make it element 1's "
		      "%#llx, out of the 8 bytes the verifier approved",
		      (unsigned long long)skel->bss->seen[1], (unsigned long long)elem[1]);
		CHECK_EQ(ctx, skel->bss->idx_after, 2,
			 "reach_next: the counter after the loop (the verifier believes 1)");
	}
	lab6_unsound__destroy(skel);
}

static void handbook_walk_prog(struct test_ctx *ctx)
{
	struct lab6_unsound *skel;
	uint32_t retval = 0;
	uint8_t *page;
	int fd, err;

	fd = load_unsound(ctx, &skel, "walk_prog");
	if (fd < 0)
		return;
	/* table[0] and the bytes 8, 16 and 24 past the start of the value,
	 * in the page the skeleton maps. */
	page = (uint8_t *)skel->data_table;
	page[0] = 1;
	page[8] = 2;
	page[16] = 4;
	page[24] = 8;
	err = tc_test_run(fd, 1, &retval, NULL);
	if (CHECK(ctx, err == 0, "walk_prog: BPF_PROG_TEST_RUN: %s", strerror(-err)))
		CHECK(ctx, retval == 1 + 2 + 4 + 8,
		      "walk_prog returned %u: expected 15 (table[0] + the bytes at 8, 16, 24 past "
		      "it); 4 would mean every run read table[0], as the verifier proved", retval);
	lab6_unsound__destroy(skel);
}

const struct suite_test lab6_tests[] = {
	{ "lab6.inlined", "calls with one callback and flags 0 are inlined", inlined, 0 },
	{ "lab6.kept_flags_unknown", "flags unknown or non-zero: the call stays a helper call",
	  kept_flags_unknown, 0 },
	{ "lab6.kept_flags_mixed", "flags 0 on one path only: the call stays",
	  kept_flags_mixed, 0 },
	{ "lab6.kept_callback_differs", "a callback that differs between paths: the call stays",
	  kept_callback_differs, 0 },
	{ "lab6.count_500", "500 loops inlined: the helper's return, calls and indices",
	  count_500, 0 },
	{ "lab6.early_stop", "a callback returning 1: the inlined loop stops as the helper does",
	  early_stop, 0 },
	{ "lab6.zero_loops", "0 loops inlined: returns 0, no call", zero_loops, 0 },
	{ "lab6.max_loops", "1 << 23 loops inlined: all run", max_loops, 0 },
	{ "lab6.too_many", "over 1 << 23 loops inlined: -E2BIG as the 64-bit -7", too_many, 0 },
	{ "lab6.wide_nr_loops", "a 64-bit nr_loops: the inlined loop uses its low half too",
	  wide_nr_loops, 0 },
	{ "lab6.bad_flags", "non-zero flags reach the helper: -EINVAL, no call", bad_flags, 0 },
	{ "lab6.two_paths_run", "one inlined call reached on two paths runs right on each",
	  two_paths_run, 0 },
	{ "lab6.saved_regs", "R6-R9 and the program's stack survive the inlined loop",
	  saved_regs, 0 },
	{ "lab6.unsound_callback_accepted",
	  "demonstration: 6.1 accepts a callback whose second run reads past its map value",
	  unsound_callback_accepted, 0 },
	{ "lab6.handbook_walk_prog",
	  "demonstration: the handbook's walk_prog is accepted and reads past its value",
	  handbook_walk_prog, 0 },
	{ 0 },
};
