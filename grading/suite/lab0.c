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

/* r0 = 42; exit */
static const struct bpf_insn return_42[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 42 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int load_return_42(void)
{
	return bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "return_42", "GPL", return_42,
			     sizeof(return_42) / sizeof(return_42[0]), NULL);
}

static void bpf_syscall(struct test_ctx *ctx)
{
	uint32_t retval = 0;
	int fd, err;

	fd = load_return_42();
	if (!CHECK(ctx, fd >= 0, "loading a two-instruction tc program: %s", strerror(errno)))
		return;
	err = tc_test_run(fd, 1, &retval, NULL);
	if (CHECK(ctx, err == 0, "BPF_PROG_TEST_RUN: %s", strerror(-err)))
		CHECK_EQ(ctx, retval, 42, "the program's return value");
	close(fd);
}

static void jit(struct test_ctx *ctx)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	char enabled[8] = "";
	FILE *f;
	int fd;

	f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	if (CHECK(ctx, f != NULL, "/proc/sys/net/core/bpf_jit_enable is missing: is CONFIG_BPF_JIT set?")) {
		if (!fgets(enabled, sizeof(enabled), f))
			enabled[0] = '\0';
		fclose(f);
		CHECK(ctx, enabled[0] == '1', "bpf_jit_enable is '%.1s', expected 1", enabled);
	}
	fd = load_return_42();
	if (!CHECK(ctx, fd >= 0, "loading a program: %s", strerror(errno)))
		return;
	if (CHECK(ctx, bpf_obj_get_info_by_fd(fd, &info, &len) == 0, "BPF_OBJ_GET_INFO_BY_FD: %s",
		  strerror(errno)))
		CHECK(ctx, info.jited_prog_len > 0, "the program was not JIT-compiled (jited_prog_len 0)");
	close(fd);
}

static void btf(struct test_ctx *ctx)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id;

	if (!CHECK(ctx, vmlinux != NULL, "no kernel BTF (/sys/kernel/btf/vmlinux): %s",
		   strerror(errno)))
		return;
	id = btf__find_by_name_kind(vmlinux, "bpf_prog", BTF_KIND_STRUCT);
	CHECK(ctx, id > 0, "kernel BTF has no struct bpf_prog");
	id = btf__find_by_name_kind(vmlinux, "bpf_verifier_env", BTF_KIND_STRUCT);
	CHECK(ctx, id > 0, "kernel BTF has no struct bpf_verifier_env");
	btf__free(vmlinux);
}

static void helper_181_absent(struct test_ctx *ctx)
{
	struct verdict v = { 0 };
	struct lab0 *skel;
	int probe, fd;

	probe = libbpf_probe_bpf_helper(BPF_PROG_TYPE_SCHED_CLS, HELPER_LOOP, NULL);
	CHECK_EQ(ctx, probe, 0, "libbpf's probe of helper 181 for tc programs (0: missing)");

	skel = lab0__open();
	if (!CHECK(ctx, skel != NULL, "opening the lab0 object: %s", strerror(errno)))
		return;
	fd = load_one_skel(skel->skeleton, "loop_500", 1, &v);
	if (fd >= 0) {
		uint32_t retval = 0;

		check_failed(ctx, __FILE__, __LINE__,
			     "a program calling helper 181 loaded: this kernel has bpf_loop");
		if (tc_test_run(fd, 1, &retval, NULL) == 0)
			diag("it ran and returned %u; the callback ran %llu times", retval,
			     (unsigned long long)skel->bss->calls);
	} else {
		CHECK_EQ(ctx, v.err, -EINVAL, "the load's error");
		if (!CHECK(ctx, log_says_unknown_func(v.log, HELPER_LOOP),
			   "the verifier refused the program but not as an unknown function #181"))
			diag_log(v.log, 20);
	}
	verdict_free(&v);
	lab0__destroy(skel);
}

const struct suite_test lab0_tests[] = {
	{ "lab0.bpf_syscall", "bpf() loads a tc program and BPF_PROG_TEST_RUN runs it", bpf_syscall, 0 },
	{ "lab0.jit", "the JIT is on and compiles programs", jit, 0 },
	{ "lab0.btf", "the kernel exposes its BTF", btf, 0 },
	{ "lab0.helper_181_absent", "helper 181 is refused as an unknown function (base only)",
	  helper_181_absent, TEST_ONLY_AT_OWN_LAB },
	{ 0 },
};
