// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: the helper. bpf_loop is known to the kernel, open to the program
 * types that take the base helpers and to non-GPL programs, and checks its
 * arguments: no loops returns 0, non-zero flags -EINVAL, more than 1 << 23
 * loops -E2BIG, flags first.
 *
 * At lab 1 the verifier does not check callbacks yet, and a callback that
 * runs crashes the kernel: every call here is one that a right helper
 * answers without calling the callback.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suite.h"
#include "lab1.skel.h"
#include "lab1_nongpl.skel.h"

/* "call: thing", the label of one check; good until the next call. */
static const char *label(const char *call, const char *thing)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s: %s", call, thing);
	return buf;
}

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
 * flags) and check that the helper returned want without calling the
 * callback, and that the program ran to its end and returned want_retval.
 */
static void expect(struct test_ctx *ctx, const char *prog, uint32_t nr_loops, uint64_t flags,
		   int64_t want, int32_t want_retval)
{
	struct verdict v = { 0 };
	uint32_t retval = 0;
	struct lab1 *skel;
	char call[128], what[64];
	int fd, err;

	snprintf(call, sizeof(call), "%s: bpf_loop(%u, cb, &n, %#llx)", prog, nr_loops,
		 (unsigned long long)flags);
	skel = lab1__open();
	if (!CHECK(ctx, skel != NULL, "opening the lab1 object: %s", strerror(errno)))
		return;
	fd = load_one_skel(skel->skeleton, prog, 1, &v);
	if (!CHECK(ctx, fd >= 0, "%s: the program did not load (%s)", call, strerror(-v.err))) {
		diag_log(v.log, 20);
		goto out;
	}
	/* The inputs, after the load: the verifier cannot know them. */
	skel->bss->nr_loops = nr_loops;
	skel->bss->flags = flags;
	err = run_once(fd, bpf_program__type(bpf_object__find_program_by_name(skel->obj, prog)),
		       &retval);
	if (!CHECK(ctx, err == 0, "%s: BPF_PROG_TEST_RUN: %s", call, strerror(-err)))
		goto out;
	snprintf(what, sizeof(what), "the helper's return%s", errno_note(want));
	CHECK_EQ(ctx, skel->bss->result, want, label(call, what));
	CHECK_EQ(ctx, skel->bss->calls, 0, label(call, "the callback's calls"));
	CHECK_EQ(ctx, skel->bss->runs, 1, label(call, "the program's runs to its end"));
	CHECK_EQ(ctx, (int32_t)retval, want_retval, label(call, "the program's return value"));
out:
	verdict_free(&v);
	lab1__destroy(skel);
}

/* The tc program returns the helper's return. */
static void expect_tc(struct test_ctx *ctx, uint32_t nr_loops, uint64_t flags, int64_t want)
{
	expect(ctx, "loop_tc", nr_loops, flags, want, (int32_t)want);
}

static void probe_present(struct test_ctx *ctx)
{
	static const struct {
		enum bpf_prog_type type;
		const char *name;
	} types[] = {
		{ BPF_PROG_TYPE_SCHED_CLS, "tc" },
		{ BPF_PROG_TYPE_XDP, "XDP" },
		{ BPF_PROG_TYPE_SOCKET_FILTER, "socket filter" },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int probe = libbpf_probe_bpf_helper(types[i].type, HELPER_LOOP, NULL);

		CHECK(ctx, probe == 1, "libbpf's probe of helper 181 for %s programs: %d "
		      "(1: present, 0: unknown to the verifier, <0: error)", types[i].name, probe);
	}
}

static void zero_loops(struct test_ctx *ctx)
{
	expect_tc(ctx, 0, 0, 0);
}

/* Flags are reserved: any bit set is refused, high ones too (a u64). */
static void bad_flags(struct test_ctx *ctx)
{
	expect_tc(ctx, 0, 1, -EINVAL);
	expect_tc(ctx, 0, 1ull << 32, -EINVAL);
}

/* One past the limit, and the largest u32 (nr_loops is unsigned). */
static void too_many(struct test_ctx *ctx)
{
	expect_tc(ctx, LOOP_LIMIT + 1, 0, -E2BIG);
	expect_tc(ctx, UINT32_MAX, 0, -E2BIG);
}

/* Upstream checks flags, then nr_loops: both wrong gives -EINVAL. */
static void flags_checked_first(struct test_ctx *ctx)
{
	expect_tc(ctx, LOOP_LIMIT + 1, 1, -EINVAL);
}

static void program_types(struct test_ctx *ctx)
{
	expect(ctx, "loop_tc", 0, 0, 0, 0);
	expect(ctx, "loop_xdp", 0, 0, 0, XDP_PASS);
	expect(ctx, "loop_socket", 0, 0, 0, 0);
	expect(ctx, "loop_raw_tp", 0, 0, 0, 0);
}

static void non_gpl(struct test_ctx *ctx)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), retval = 0;
	struct verdict v = { 0 };
	struct lab1_nongpl *skel;
	int fd, err;

	skel = lab1_nongpl__open();
	if (!CHECK(ctx, skel != NULL, "opening the lab1_nongpl object: %s", strerror(errno)))
		return;
	fd = load_one_skel(skel->skeleton, "loop_nongpl", 1, &v);
	if (!CHECK(ctx, fd >= 0, "a program with license \"Proprietary\" calling bpf_loop did "
		   "not load (%s): the helper must not be gpl_only", strerror(-v.err))) {
		diag_log(v.log, 20);
		goto out;
	}
	/* Else the test proves nothing. */
	if (CHECK(ctx, bpf_obj_get_info_by_fd(fd, &info, &len) == 0, "BPF_OBJ_GET_INFO_BY_FD: %s",
		  strerror(errno)))
		CHECK(ctx, !info.gpl_compatible, "the kernel took \"Proprietary\" as GPL-compatible");
	err = tc_test_run(fd, 1, &retval, NULL);
	if (!CHECK(ctx, err == 0, "BPF_PROG_TEST_RUN: %s", strerror(-err)))
		goto out;
	CHECK_EQ(ctx, skel->bss->result, 0, "bpf_loop(0, cb, &n, 0): the helper's return");
	CHECK_EQ(ctx, skel->bss->calls, 0, "bpf_loop(0, cb, &n, 0): the callback's calls");
	CHECK_EQ(ctx, retval, 0, "the program's return value");
out:
	verdict_free(&v);
	lab1_nongpl__destroy(skel);
}

const struct suite_test lab1_tests[] = {
	{ "lab1.probe_present", "libbpf's probe finds helper 181 for tc, XDP and socket filters",
	  probe_present, 0 },
	{ "lab1.zero_loops", "bpf_loop(0, ...) returns 0 without calling the callback",
	  zero_loops, 0 },
	{ "lab1.bad_flags", "non-zero flags (bit 0, bit 32) return -EINVAL", bad_flags, 0 },
	{ "lab1.too_many", "(1 << 23) + 1 and 2^32 - 1 loops return -E2BIG", too_many, 0 },
	{ "lab1.flags_checked_first", "bad flags and too many loops return -EINVAL (flags first)",
	  flags_checked_first, 0 },
	{ "lab1.non_gpl", "a program under a non-GPL license may call bpf_loop", non_gpl, 0 },
	{ "lab1.program_types", "tc, XDP, socket filter and raw tracepoint programs load and run it",
	  program_types, 0 },
	{ 0 },
};
