// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 0: the kernel boots, bpf() works, the JIT and BTF are there, and
 * (at base only) bpf_loop is absent: a call to helper 181 is refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "suite.h"
#include "lab0.skel.h"

/* r0 = value; exit */
static int load_return(int32_t value)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = value },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "return_k", "GPL", insns, 2, NULL);

	return fd < 0 ? -errno : fd;
}

/* What the two-instruction program returns: drawn, so that the run counts. */
static int32_t return_value(const struct test_ctx *ctx)
{
	return (int32_t)param(ctx, "return", 1, 0x7fffffff);
}

RUN(lab0_bpf_syscall)
{
	uint32_t retval = 0;
	int fd, err;

	fd = load_return(return_value(ctx));
	observe(ctx, fd < 0 ? fd : 0, "load");
	if (fd < 0)
		return;
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "run");
	if (!err)
		observe(ctx, (int32_t)retval, "retval");
	close(fd);
}

JUDGE(lab0_bpf_syscall)
{
	long long load = seen(ctx, "load"), run;

	if (!CHECK(ctx, load == 0, "loading a two-instruction tc program: %s", err_name(load)))
		return;
	run = seen(ctx, "run");
	if (CHECK(ctx, run == 0, "BPF_PROG_TEST_RUN: %s", err_name(run)))
		CHECK_EQ(ctx, seen(ctx, "retval"), return_value(ctx), "the program's return value");
}

RUN(lab0_jit)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	char enabled[8] = "";
	FILE *f;
	int fd;

	f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	if (f) {
		if (!fgets(enabled, sizeof(enabled), f))
			enabled[0] = '\0';
		fclose(f);
	}
	/* -1: the file is missing (no CONFIG_BPF_JIT). */
	observe(ctx, f ? atoi(enabled) : -1, "jit_enable");
	fd = load_return(return_value(ctx));
	observe(ctx, fd < 0 ? fd : 0, "load");
	if (fd < 0)
		return;
	observe(ctx, bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0, "info");
	observe(ctx, info.jited_prog_len, "jited_len");
	close(fd);
}

JUDGE(lab0_jit)
{
	long long enabled = seen(ctx, "jit_enable"), load, info;

	if (CHECK(ctx, enabled != -1, "/proc/sys/net/core/bpf_jit_enable is missing: is "
		  "CONFIG_BPF_JIT set?"))
		CHECK(ctx, enabled == 1, "bpf_jit_enable is %lld, expected 1", enabled);
	load = seen(ctx, "load");
	if (!CHECK(ctx, load == 0, "loading a program: %s", err_name(load)))
		return;
	info = seen(ctx, "info");
	if (CHECK(ctx, info == 0, "BPF_OBJ_GET_INFO_BY_FD: %s", err_name(info)))
		CHECK(ctx, seen(ctx, "jited_len") > 0,
		      "the program was not JIT-compiled (jited_prog_len 0)");
}

RUN(lab0_btf)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();

	observe(ctx, vmlinux ? 0 : -errno, "load");
	if (!vmlinux)
		return;
	observe(ctx, btf__find_by_name_kind(vmlinux, "bpf_prog", BTF_KIND_STRUCT), "bpf_prog");
	observe(ctx, btf__find_by_name_kind(vmlinux, "bpf_verifier_env", BTF_KIND_STRUCT),
		"bpf_verifier_env");
	btf__free(vmlinux);
}

JUDGE(lab0_btf)
{
	long long load = seen(ctx, "load");

	if (!CHECK(ctx, load == 0, "no kernel BTF (/sys/kernel/btf/vmlinux): %s", err_name(load)))
		return;
	CHECK(ctx, seen(ctx, "bpf_prog") > 0, "kernel BTF has no struct bpf_prog");
	CHECK(ctx, seen(ctx, "bpf_verifier_env") > 0, "kernel BTF has no struct bpf_verifier_env");
}

RUN(lab0_helper_181_absent)
{
	struct verdict v = { 0 };
	struct lab0 *skel;
	int fd;

	observe(ctx, libbpf_probe_bpf_helper(BPF_PROG_TYPE_SCHED_CLS, HELPER_LOOP, NULL), "probe");
	skel = lab0__open();
	observe(ctx, skel ? 0 : -errno, "open");
	if (!skel)
		return;
	fd = load_one_skel(skel->skeleton, "loop_500", 1, &v);
	observe(ctx, fd < 0 ? v.err : 0, "load");
	if (fd < 0) {
		observe(ctx, log_says_unknown_func(v.log, HELPER_LOOP), "log_unknown_func");
		if (!log_says_unknown_func(v.log, HELPER_LOOP))
			diag_log(v.log, 20);
	} else {
		/* A kernel with bpf_loop: what the program does there. */
		uint32_t retval = 0;

		observe(ctx, tc_test_run(fd, 1, &retval, NULL), "run");
		observe(ctx, (int32_t)retval, "retval");
		observe(ctx, (long long)skel->bss->calls, "calls");
	}
	verdict_free(&v);
	lab0__destroy(skel);
}

JUDGE(lab0_helper_181_absent)
{
	long long open, load;

	CHECK_EQ(ctx, seen(ctx, "probe"), 0, "libbpf's probe of helper 181 for tc programs (0: missing)");
	open = seen(ctx, "open");
	if (!CHECK(ctx, open == 0, "opening the lab0 object: %s", err_name(open)))
		return;
	load = seen(ctx, "load");
	if (!CHECK(ctx, load != 0, "a program calling helper 181 loaded: this kernel has bpf_loop "
		   "(a run returned %lld, the callback ran %lld times)",
		   has_seen(ctx, "retval") ? seen(ctx, "retval") : -1,
		   has_seen(ctx, "calls") ? seen(ctx, "calls") : -1))
		return;
	CHECK_EQ(ctx, load, -EINVAL, "the load's error");
	CHECK(ctx, seen(ctx, "log_unknown_func") == 1,
	      "the verifier refused the program but not as an unknown function #181");
}
