// SPDX-License-Identifier: GPL-2.0
/*
 * The kit's count of what bpf_loop() did, for lab 5's accountant
 * (bench-account.c): an fexit program on the helper's kernel function sees
 * each call's nr_loops argument and what it returned, which is how many
 * times it called the callback. Calls asked for nr_loops == target (the
 * figure the host chose) are counted apart from the others, and those of
 * them that returned anything but target (an early stop, an error) once
 * more. first_ns is the time of the first call seen (bpf_ktime_get_ns,
 * CLOCK_MONOTONIC).
 *
 * Per CPU, summed by the reader. A call made while this program already
 * runs on the same CPU (from an interrupt) is not seen: the kernel counts
 * it in the program's recursion_misses, which the accountant reports.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "loop_count.h"

const volatile __u32 target;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct loop_counts);
} counts SEC(".maps");

/* bpf_loop(nr_loops, callback_fn, callback_ctx, flags): BPF_CALL_4 makes
 * it a function of five u64 arguments, as every helper (the fifth unused);
 * ctx[5] is what it returned. */
SEC("fexit/bpf_loop")
int count_loops(unsigned long long *ctx)
{
	__u32 key = 0, asked = (__u32)ctx[0];
	long ret = (long)ctx[5];
	struct loop_counts *c = bpf_map_lookup_elem(&counts, &key);

	if (!c)
		return 0;
	if (!c->first_ns)
		c->first_ns = bpf_ktime_get_ns();
	if (asked == target) {
		c->calls++;
		if (ret > 0)
			c->loops += ret;
		if (ret != (long)target)
			c->short_calls++;
	} else {
		c->other_calls++;
		if (ret > 0)
			c->other_loops += ret;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
