/* SPDX-License-Identifier: GPL-2.0 */
/* The callback of the suite's simplest loops, shared by its BPF objects:
 * counts its calls in the __u64 its ctx points to, and goes on. */
#ifndef COUNT_CALL_H
#define COUNT_CALL_H

static int count_call(__u32 index, void *data)
{
	__u64 *n = data;

	(*n)++;
	return 0;
}

#endif
