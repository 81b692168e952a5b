// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 1: programs that call bpf_loop only in ways where a right helper
 * never invokes the callback (no loops, bad flags, too many loops). At
 * lab 1 the verifier does not check callbacks yet, and a callback that
 * runs there crashes the kernel.
 *
 * The arguments come from .bss, written by user space after the load: the
 * verifier cannot see them, so it can neither inline the call nor prune
 * anything, and every call reaches the C helper.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "count_call.h"

/* Inputs. */
__u32 nr_loops;
__u64 flags;

/* Outputs: the helper's return, the callback's calls, the program's runs. */
__s64 result;
__u64 calls;
__u64 runs;

static __always_inline long call_loop(void)
{
	__u64 n = 0;

	result = bpf_loop(nr_loops, count_call, &n, flags);
	calls = n;
	runs++;
	return result;
}

/* The same call from four program types that take bpf_base_func_proto. */
SEC("tc")
int loop_tc(struct __sk_buff *skb)
{
	return call_loop();
}

SEC("xdp")
int loop_xdp(struct xdp_md *ctx)
{
	call_loop();
	return XDP_PASS;
}

SEC("socket")
int loop_socket(struct __sk_buff *skb)
{
	call_loop();
	return 0;
}

SEC("raw_tp")
int loop_raw_tp(void *ctx)
{
	call_loop();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
