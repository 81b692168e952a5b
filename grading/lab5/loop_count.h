/* SPDX-License-Identifier: GPL-2.0 */
/* Lab 5: the kit's count of bpf_loop() calls (loop_count.bpf.c), one per
 * CPU, as the accountant (bench-account.c) reads it. */
#ifndef LAB5_LOOP_COUNT_H
#define LAB5_LOOP_COUNT_H

#include <linux/types.h>

struct loop_counts {
	__u64 calls;		/* calls with nr_loops == target */
	__u64 loops;		/* what they returned, summed */
	__u64 short_calls;	/* those of them that returned another figure */
	__u64 other_calls;	/* calls with another nr_loops */
	__u64 other_loops;	/* what they returned (when not negative) */
	__u64 first_ns;		/* the first call seen on this CPU, 0: none */
};

#endif
