/* SPDX-License-Identifier: GPL-2.0 */
/* The callbacks of the suite's counting loops, shared by its BPF objects.
 *
 * By default, count_call(): counts its calls in the __u64 its ctx points
 * to, and goes on.
 *
 * With COUNT_STOP_AT defined (to a global of the including object, before
 * the #include), count_cb(): counts the calls and sums the indexes in a
 * struct count_ctx, and stops at index COUNT_STOP_AT. With COUNT_COOKIE
 * defined too, the ctx carries a cookie that each call adds to the sum: a
 * value the caller puts in the ctx, which must reach every call.
 */
#ifndef COUNT_CALL_H
#define COUNT_CALL_H

#ifndef COUNT_STOP_AT
static int count_call(__u32 index, void *data)
{
	__u64 *n = data;

	(*n)++;
	return 0;
}
#else
struct count_ctx {
	__u64 calls;
	__u64 sum;
#ifdef COUNT_COOKIE
	__u64 cookie;
#endif
};

static int count_cb(__u32 index, void *data)
{
	struct count_ctx *c = data;

	c->calls++;
#ifdef COUNT_COOKIE
	c->sum += index + c->cookie;
#else
	c->sum += index;
#endif
	return index == COUNT_STOP_AT;
}
#endif

#endif
