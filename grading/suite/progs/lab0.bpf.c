// SPDX-License-Identifier: GPL-2.0
/* Lab 0: the program that tells a kernel with bpf_loop from one without. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "count_call.h"

__u64 calls;

/* Calls helper 181 (bpf_loop) 500 times; returns the helper's result.
 * A kernel without the helper must refuse to load it. */
SEC("tc")
int loop_500(struct __sk_buff *skb)
{
	__u64 n = 0;
	long ret;

	ret = bpf_loop(500, count_call, &n, 0);
	calls = n;
	return ret;
}

char LICENSE[] SEC("license") = "GPL";
