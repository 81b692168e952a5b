// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: bpf_loop is not gpl_only, so a program under a license the kernel
 * does not count as GPL-compatible may call it. The license is the
 * object's, hence an object of its own. (It is the program's license
 * string, a test input; this file is GPL-2.0 like the rest of the suite.)
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "count_call.h"

/* Inputs, written by user space after the load (see lab1.bpf.c). */
__u32 nr_loops;
__u64 flags;

/* Outputs. */
__s64 result;
__u64 calls;

SEC("tc")
int loop_nongpl(struct __sk_buff *skb)
{
	__u64 n = 0;

	result = bpf_loop(nr_loops, count_call, &n, flags);
	calls = n;
	return result;
}

char LICENSE[] SEC("license") = "Proprietary";
