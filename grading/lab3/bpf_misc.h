/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 3: the BPF side's bpf_misc.h, as the selftests' progs/ use it, for
 * the x86-64 guest and libbpf 1.1's headers. The kit builds a student's
 * progs/bpf_loop.c with this file, never with the tree's own copy.
 */
#ifndef __BPF_MISC_H__
#define __BPF_MISC_H__

/*
 * Annotations for the selftests' test_loader (programs that must load, or
 * must be refused with a message). The lab's harness does not read them:
 * every program of the skeleton is loaded as usual. As BTF decl tags they
 * cost nothing and keep the program text upstream's.
 */
#define __msg(msg)		__attribute__((btf_decl_tag("comment:test_expect_msg=" msg)))
#define __failure		__attribute__((btf_decl_tag("comment:test_expect_failure")))
#define __success		__attribute__((btf_decl_tag("comment:test_expect_success")))
#define __log_level(lvl)	__attribute__((btf_decl_tag("comment:test_log_level="#lvl)))

/* The guest kernel is x86-64: syscalls are reached through wrappers. */
#define SYSCALL_WRAPPER 1
#define SYS_PREFIX "__x64_"

/* libbpf 1.1's bpf_helpers.h has it; keep programs building without. */
#ifndef barrier_var
#define barrier_var(var) asm volatile("" : "=r"(var) : "0"(var))
#endif

#endif /* __BPF_MISC_H__ */
