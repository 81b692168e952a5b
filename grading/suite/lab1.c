// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: the helper. bpf_loop is known to the kernel, open to the program
 * types that take the base helpers and to non-GPL programs, and checks its
 * arguments: no loops returns 0, non-zero flags -EINVAL, more than 1 << 23
 * loops -E2BIG, flags first.
 *
 * At lab 1 the verifier does not check callbacks yet, and a callback that
 * runs crashes the kernel: every call here is one that a right helper
 * answers without calling the callback. Which bad flag bit and which
 * count past the limit are drawn from the run's seed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suite.h"
#include "lab1.skel.h"
#include "lab1_nongpl.skel.h"

/*
 * One BPF_PROG_TEST_RUN. The packet types take tc_test_run()'s frame (XDP
 * and socket filters as well as tc); a raw tracepoint run takes no data
 * and no repeat count.
 */
static int run_once(int fd, enum bpf_prog_type type, uint32_t *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (type != BPF_PROG_TYPE_RAW_TRACEPOINT)
		return tc_test_run(fd, 1, retval, NULL);
	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	*retval = opts.retval;
	return 0;
}

/*
 * Load prog of lab1.bpf.c, run it once with bpf_loop(nr_loops, cb, &n,
 * flags), and report as TAG.*: the load, the run, the helper's return,
 * the callback's calls, the program's runs to its end and its return.
 */
static void call(struct test_ctx *ctx, const char *tag, const char *prog, uint32_t nr_loops,
		 uint64_t flags)
{
	struct verdict v = { 0 };
	uint32_t retval = 0;
	struct lab1 *skel;
	int fd, err;

	skel = lab1__open();
	observe(ctx, skel ? 0 : -errno, "%s.open", tag);
	if (!skel)
		return;
	fd = load_one_skel(skel->skeleton, prog, 1, &v);
	observe(ctx, fd < 0 ? v.err : 0, "%s.load", tag);
	if (fd < 0) {
		diag_log(v.log, 20);
		goto out;
	}
	/* The inputs, after the load: the verifier cannot know them. */
	skel->bss->nr_loops = nr_loops;
	skel->bss->flags = flags;
	err = run_once(fd, bpf_program__type(bpf_object__find_program_by_name(skel->obj, prog)),
		       &retval);
	observe(ctx, err, "%s.run", tag);
	if (err)
		goto out;
	observe(ctx, skel->bss->result, "%s.result", tag);
	observe(ctx, (long long)skel->bss->calls, "%s.calls", tag);
	observe(ctx, (long long)skel->bss->runs, "%s.runs", tag);
	observe(ctx, (int32_t)retval, "%s.retval", tag);
out:
	verdict_free(&v);
	lab1__destroy(skel);
}

/* The helper returned want without calling the callback, and the program
 * ran to its end and returned want_retval. */
static void expect(struct test_ctx *ctx, const char *tag, const char *prog, uint32_t nr_loops,
		   uint64_t flags, int64_t want, int32_t want_retval)
{
	char desc[128], what[200];
	long long open, load, run;

	snprintf(desc, sizeof(desc), "%s: bpf_loop(%u, cb, &n, %#llx)", prog, nr_loops,
		 (unsigned long long)flags);
	open = seen(ctx, "%s.open", tag);
	if (!CHECK(ctx, open == 0, "opening the lab1 object: %s", err_name(open)))
		return;
	load = seen(ctx, "%s.load", tag);
	if (!CHECK(ctx, load == 0, "%s: the program did not load (%s)", desc, err_name(load)))
		return;
	run = seen(ctx, "%s.run", tag);
	if (!CHECK(ctx, run == 0, "%s: BPF_PROG_TEST_RUN: %s", desc, err_name(run)))
		return;
	snprintf(what, sizeof(what), "%s: the helper's return", desc);
	CHECK_EQ(ctx, seen(ctx, "%s.result", tag), want, what);
	snprintf(what, sizeof(what), "%s: the callback's calls", desc);
	CHECK_EQ(ctx, seen(ctx, "%s.calls", tag), 0, what);
	snprintf(what, sizeof(what), "%s: the program's runs to its end", desc);
	CHECK_EQ(ctx, seen(ctx, "%s.runs", tag), 1, what);
	snprintf(what, sizeof(what), "%s: the program's return value", desc);
	CHECK_EQ(ctx, seen(ctx, "%s.retval", tag), want_retval, what);
}

/* The tc program returns the helper's return. */
static void expect_tc(struct test_ctx *ctx, const char *tag, uint32_t nr_loops, uint64_t flags,
		      int64_t want)
{
	expect(ctx, tag, "loop_tc", nr_loops, flags, want, (int32_t)want);
}

static const struct {
	enum bpf_prog_type type;
	const char *tag, *name;
} probe_types[] = {
	{ BPF_PROG_TYPE_SCHED_CLS, "tc", "tc" },
	{ BPF_PROG_TYPE_XDP, "xdp", "XDP" },
	{ BPF_PROG_TYPE_SOCKET_FILTER, "socket", "socket filter" },
};
#define NR_PROBE_TYPES (sizeof(probe_types) / sizeof(probe_types[0]))

RUN(lab1_probe_present)
{
	size_t i;

	for (i = 0; i < NR_PROBE_TYPES; i++)
		observe(ctx, libbpf_probe_bpf_helper(probe_types[i].type, HELPER_LOOP, NULL),
			"probe.%s", probe_types[i].tag);
}

JUDGE(lab1_probe_present)
{
	size_t i;

	for (i = 0; i < NR_PROBE_TYPES; i++) {
		long long probe = seen(ctx, "probe.%s", probe_types[i].tag);

		CHECK(ctx, probe == 1, "libbpf's probe of helper 181 for %s programs: %lld "
		      "(1: present, 0: unknown to the verifier, <0: error)", probe_types[i].name,
		      probe);
	}
}

RUN(lab1_zero_loops)
{
	call(ctx, "zero", "loop_tc", 0, 0);
}

JUDGE(lab1_zero_loops)
{
	expect_tc(ctx, "zero", 0, 0, 0);
}

/* Flags are reserved: any bit set is refused, a high one too (a u64). */
static uint64_t low_flag(const struct test_ctx *ctx)
{
	return 1ull << param(ctx, "low_bit", 0, 31);
}

static uint64_t high_flag(const struct test_ctx *ctx)
{
	return 1ull << param(ctx, "high_bit", 32, 63);
}

RUN(lab1_bad_flags)
{
	call(ctx, "low", "loop_tc", 0, low_flag(ctx));
	call(ctx, "high", "loop_tc", 0, high_flag(ctx));
}

JUDGE(lab1_bad_flags)
{
	expect_tc(ctx, "low", 0, low_flag(ctx), -EINVAL);
	expect_tc(ctx, "high", 0, high_flag(ctx), -EINVAL);
}

/* One past the limit, the largest u32 (nr_loops is unsigned), and a
 * count between them. */
static uint32_t past_limit(const struct test_ctx *ctx)
{
	return (uint32_t)param(ctx, "past_limit", LOOP_LIMIT + 2, UINT32_MAX - 1);
}

RUN(lab1_too_many)
{
	call(ctx, "edge", "loop_tc", LOOP_LIMIT + 1, 0);
	call(ctx, "max", "loop_tc", UINT32_MAX, 0);
	call(ctx, "between", "loop_tc", past_limit(ctx), 0);
}

JUDGE(lab1_too_many)
{
	expect_tc(ctx, "edge", LOOP_LIMIT + 1, 0, -E2BIG);
	expect_tc(ctx, "max", UINT32_MAX, 0, -E2BIG);
	expect_tc(ctx, "between", past_limit(ctx), 0, -E2BIG);
}

/* Upstream checks flags, then nr_loops: both wrong gives -EINVAL. */
static uint64_t any_flag(const struct test_ctx *ctx)
{
	return 1ull << param(ctx, "bit", 0, 63);
}

RUN(lab1_flags_checked_first)
{
	call(ctx, "both", "loop_tc", past_limit(ctx), any_flag(ctx));
}

JUDGE(lab1_flags_checked_first)
{
	expect_tc(ctx, "both", past_limit(ctx), any_flag(ctx), -EINVAL);
}

static const struct {
	const char *prog;
	int32_t retval;
} type_progs[] = {
	{ "loop_tc", 0 },
	{ "loop_xdp", XDP_PASS },
	{ "loop_socket", 0 },
	{ "loop_raw_tp", 0 },
};
#define NR_TYPE_PROGS (sizeof(type_progs) / sizeof(type_progs[0]))

RUN(lab1_program_types)
{
	size_t i;

	for (i = 0; i < NR_TYPE_PROGS; i++)
		call(ctx, type_progs[i].prog, type_progs[i].prog, 0, 0);
}

JUDGE(lab1_program_types)
{
	size_t i;

	for (i = 0; i < NR_TYPE_PROGS; i++)
		expect(ctx, type_progs[i].prog, type_progs[i].prog, 0, 0, 0, type_progs[i].retval);
}

RUN(lab1_non_gpl)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), retval = 0;
	struct verdict v = { 0 };
	struct lab1_nongpl *skel;
	int fd, err;

	skel = lab1_nongpl__open();
	observe(ctx, skel ? 0 : -errno, "open");
	if (!skel)
		return;
	fd = load_one_skel(skel->skeleton, "loop_nongpl", 1, &v);
	observe(ctx, fd < 0 ? v.err : 0, "load");
	if (fd < 0) {
		diag_log(v.log, 20);
		goto out;
	}
	err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	observe(ctx, err, "info");
	if (!err)
		observe(ctx, info.gpl_compatible, "gpl_compatible");
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "run");
	if (err)
		goto out;
	observe(ctx, skel->bss->result, "result");
	observe(ctx, (long long)skel->bss->calls, "calls");
	observe(ctx, (int32_t)retval, "retval");
out:
	verdict_free(&v);
	lab1_nongpl__destroy(skel);
}

JUDGE(lab1_non_gpl)
{
	long long open = seen(ctx, "open"), load, info, run;

	if (!CHECK(ctx, open == 0, "opening the lab1_nongpl object: %s", err_name(open)))
		return;
	load = seen(ctx, "load");
	if (!CHECK(ctx, load == 0, "a program with license \"Proprietary\" calling bpf_loop did "
		   "not load (%s): the helper must not be gpl_only", err_name(load)))
		return;
	/* Else the test proves nothing. */
	info = seen(ctx, "info");
	if (CHECK(ctx, info == 0, "BPF_OBJ_GET_INFO_BY_FD: %s", err_name(info)))
		CHECK(ctx, seen(ctx, "gpl_compatible") == 0,
		      "the kernel took \"Proprietary\" as GPL-compatible");
	run = seen(ctx, "run");
	if (!CHECK(ctx, run == 0, "BPF_PROG_TEST_RUN: %s", err_name(run)))
		return;
	CHECK_EQ(ctx, seen(ctx, "result"), 0, "bpf_loop(0, cb, &n, 0): the helper's return");
	CHECK_EQ(ctx, seen(ctx, "calls"), 0, "bpf_loop(0, cb, &n, 0): the callback's calls");
	CHECK_EQ(ctx, seen(ctx, "retval"), 0, "the program's return value");
}
