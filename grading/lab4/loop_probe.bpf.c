// SPDX-License-Identifier: GPL-2.0
/*
 * A program that calls helper 181 (bpf_loop) and nothing else: verif-load
 * reads the address the kernel writes into that call in its xlated
 * instructions, and counts the same address in the programs it grades.
 * The flags come from .bss, unknown to the verifier, so that no kernel
 * inlines the call (6.0's inlining needs flags known to be zero).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 probe_flags;

static int probe_cb(__u32 index, void *ctx)
{
	return 0;
}

SEC("socket")
int loop_probe(void *ctx)
{
	bpf_loop(1, probe_cb, NULL, probe_flags);
	return 0;
}

char _license[] SEC("license") = "GPL";
