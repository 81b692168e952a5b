// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6: programs whose bpf_loop calls the verifier may or may not inline.
 *
 * May (every path passes the same callback and flags that are a known 0):
 *   count_inline, count_wide_inline, same_cb_two_paths, saved_regs.
 * May not, the call must reach the C helper:
 *   count_helper      flags from a global: unknown to the verifier;
 *   count_flags_one   flags the constant 1;
 *   flags_mixed       flags 0 on one path, a global on the other;
 *   cb_differs        one call site, a callback picked at run time.
 * The tests tell them apart in the translated program (bpf_prog_info's
 * xlated_prog_insns): none of these programs calls any helper but
 * bpf_loop, so a helper call left there is the bpf_loop call.
 *
 * Inputs and outputs are globals in .bss, written by user space after the
 * load, so the verifier cannot fold them. No program branches on a value a
 * callback wrote: the 6.1 verifier believes such a value is the one the
 * callback's single checked run left, and would drop the other branch.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Zero, unless a test asks for bad flags; unknown to the verifier. */
__u64 flags_rt;

/* Inputs. */
__u32 nr_loops;
__u64 nr_loops64;	/* count_wide_*: a 64-bit nr_loops */
__u32 stop_at;		/* the index at which count_cb stops */
__u32 selector;		/* picks the path in the two-path programs */
__u64 in_reg[4];	/* saved_regs: values kept across the call */
__u64 in_canary[3];	/* saved_regs: values kept in the frame */

/* Outputs. */
__s64 result;		/* bpf_loop's return, as the long it is */
__u64 calls;		/* the callback's calls */
__u64 index_sum;	/* the indices it got, summed */
__u64 calls_a, calls_b;	/* the two-path programs: each callback's calls */
__u64 out_reg[4];	/* saved_regs: in_reg after the call */
__u64 out_canary[3];	/* saved_regs: in_canary after the call */

#define COUNT_STOP_AT stop_at
#include "count_call.h"

static __always_inline int count(__u64 n, __u64 flags)
{
	struct count_ctx c = {};

	result = bpf_loop(n, count_cb, &c, flags);
	calls = c.calls;
	index_sum = c.sum;
	return result;
}

SEC("tc")
int count_inline(struct __sk_buff *skb)
{
	return count(nr_loops, 0);
}

SEC("tc")
int count_helper(struct __sk_buff *skb)
{
	return count(nr_loops, flags_rt);
}

SEC("tc")
int count_flags_one(struct __sk_buff *skb)
{
	return count(nr_loops, 1);
}

/* nr_loops is a u32 argument: the helper sees the low half of a 64-bit
 * value, and so must the inlined loop. */
SEC("tc")
int count_wide_inline(struct __sk_buff *skb)
{
	return count(nr_loops64, 0);
}

SEC("tc")
int count_wide_helper(struct __sk_buff *skb)
{
	return count(nr_loops64, flags_rt);
}

static int pick_a(__u32 index, void *data)
{
	__u64 *n = data;

	(*n)++;
	return 0;
}

/* Stops at index 2, so its return tells it from pick_a's. */
static int pick_b(__u32 index, void *data)
{
	__u64 *n = data;

	(*n)++;
	return index >= 2;
}

/* Two paths reach the one call with the same callback (and different
 * ctx): the verifier sees the call twice and may still inline it. */
SEC("tc")
int same_cb_two_paths(struct __sk_buff *skb)
{
	__u64 a = 0, b = 0;
	void *data = selector ? (void *)&b : (void *)&a;

	barrier_var(data);
	result = bpf_loop(nr_loops, pick_a, data, 0);
	calls_a = a;
	calls_b = b;
	return result;
}

/* The same, but the paths pass different callbacks: not inlinable. */
SEC("tc")
int cb_differs(struct __sk_buff *skb)
{
	__u64 a = 0, b = 0;
	void *cb = selector ? (void *)pick_b : (void *)pick_a;
	void *data = selector ? (void *)&b : (void *)&a;

	barrier_var(cb);
	barrier_var(data);
	result = bpf_loop(nr_loops, cb, data, 0);
	calls_a = a;
	calls_b = b;
	return result;
}

/*
 * Flags a known 0 on one path, unknown on the other: not inlinable. The
 * verifier reaches the call first on the fall-through path, where flags
 * are 0, so a kernel that looks at the flags only on the first path
 * inlines it.
 */
SEC("tc")
int flags_mixed(struct __sk_buff *skb)
{
	__u64 a = 0, b = 0, flags = flags_rt;

	barrier_var(flags);
	if (selector)
		flags = 0;
	result = bpf_loop(nr_loops, pick_a, selector ? (void *)&b : (void *)&a, flags);
	calls_a = a;
	calls_b = b;
	return result;
}

/*
 * What the inlined loop borrows it must give back: values the program
 * keeps in callee-saved registers across the call (the compiler puts
 * these four in R6 to R9), and its own stack, next to the slots where
 * the loop keeps R6 to R8.
 */
struct frame {
	__u64 canary[3];
	struct count_ctx c;
};

SEC("tc")
int saved_regs(struct __sk_buff *skb)
{
	__u64 r0 = in_reg[0], r1 = in_reg[1], r2 = in_reg[2], r3 = in_reg[3];
	struct frame f = {};

	f.canary[0] = in_canary[0];
	f.canary[1] = in_canary[1];
	f.canary[2] = in_canary[2];
	result = bpf_loop(nr_loops, count_cb, &f.c, 0);
	out_reg[0] = r0;
	out_reg[1] = r1;
	out_reg[2] = r2;
	out_reg[3] = r3;
	out_canary[0] = f.canary[0];
	out_canary[1] = f.canary[1];
	out_canary[2] = f.canary[2];
	calls = f.c.calls;
	return result;
}

char LICENSE[] SEC("license") = "GPL";
