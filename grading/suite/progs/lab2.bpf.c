// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: programs whose callbacks run. Each comes twice (PATHS below):
 *   NAME_inline passes flags as the constant 0 and a constant callback,
 *     so a verifier that inlines bpf_loop (6.1 as shipped does; the base
 *     does not, lab 6 puts it back) may rewrite the call into a loop of
 *     BPF instructions;
 *   NAME_helper passes flags_rt, a global the verifier cannot prove zero,
 *     so the call always reaches the C helper.
 * Both must behave the same. Inputs and outputs are globals in .bss: user
 * space writes the inputs after the load, so the verifier cannot see them.
 *
 * The 6.1 verifier checks a callback's body once, as if it ran once: what
 * a callback writes into the caller's stack looks to it like the value of
 * that one run. So the programs only copy such values out, and never
 * branch on them, lest the verifier take a branch for dead.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Zero, unless a test asks for bad flags; unknown to the verifier. */
__u64 flags_rt;

/* Inputs. */
__u32 nr_loops;
__u32 stop_at;		/* the index at which the callback stops */
__u32 selector;		/* runtime_callback: 0 picks pick_a, else pick_b */
__u32 n1, n2, n3;	/* nested: the loops at each level */
__u64 cookie;		/* count: put in the ctx, added to the sum at each call */

/* Outputs. */
__s64 result;		/* the (outermost) bpf_loop's return */
__u64 calls;		/* the callback's calls */
__u64 index_sum;	/* the indices it got, each plus the cookie, summed */
__u64 ctx_not_null;	/* null_ctx: every ctx the callback got, OR-ed */
__u64 calls2, calls3;	/* nested: calls at the inner levels */
__u64 wrong2, wrong3;	/* nested: inner returns that were not n2, n3 */
__u64 calls_a, calls_b;	/* runtime_callback: calls of each callback */

/* The two programs of a test, around name(flags, helper_path): the flags
 * to pass, and which version of a callback that itself calls bpf_loop. */
#define PATHS(name)							\
SEC("tc")								\
int name##_inline(struct __sk_buff *skb)				\
{									\
	return name(0, 0);						\
}									\
									\
SEC("tc")								\
int name##_helper(struct __sk_buff *skb)				\
{									\
	return name(flags_rt, 1);					\
}

/* count: nr_loops calls, stopping at stop_at; count_500, early_stop,
 * max_loops and limits_still_hold. */
#define COUNT_STOP_AT stop_at
#define COUNT_COOKIE
#include "count_call.h"

static __always_inline int count(__u64 flags, int helper_path)
{
	struct count_ctx c = { .cookie = cookie };

	result = bpf_loop(nr_loops, count_cb, &c, flags);
	calls = c.calls;
	index_sum = c.sum;
	return result;
}
PATHS(count)

/* null_ctx: no ctx; the callback counts in a global and ORs every ctx it
 * got into ctx_not_null. No branch on data: the verifier knows it is NULL
 * and would drop a branch on it as dead code, so a kernel that passes
 * something else would go unseen. */
static int null_cb(__u32 index, void *data)
{
	calls++;
	ctx_not_null |= (__u64)(long)data;
	return 0;
}

static __always_inline int null_ctx(__u64 flags, int helper_path)
{
	result = bpf_loop(nr_loops, null_cb, NULL, flags);
	return result;
}
PATHS(null_ctx)

/*
 * nested: n1 calls of nest1, each making n2 calls of nest2, each making n3
 * calls of nest3. The two outer levels call bpf_loop themselves, so they
 * come once per path too.
 */
struct nest_ctx {
	__u64 calls2;
	__u64 calls3;
	__u64 wrong2;
	__u64 wrong3;
};

static int nest3(__u32 index, void *data)
{
	struct nest_ctx *c = data;

	c->calls3++;
	return 0;
}

static __always_inline int nest2(struct nest_ctx *c, __u64 flags)
{
	long ret = bpf_loop(n3, nest3, c, flags);

	c->calls2++;
	c->wrong3 += ret != n3;
	return 0;
}

static int nest2_inline(__u32 index, void *data)
{
	return nest2(data, 0);
}

static int nest2_helper(__u32 index, void *data)
{
	return nest2(data, flags_rt);
}

static __always_inline int nest1(struct nest_ctx *c, __u64 flags, void *inner)
{
	long ret = bpf_loop(n2, inner, c, flags);

	c->wrong2 += ret != n2;
	return 0;
}

static int nest1_inline(__u32 index, void *data)
{
	return nest1(data, 0, nest2_inline);
}

static int nest1_helper(__u32 index, void *data)
{
	return nest1(data, flags_rt, nest2_helper);
}

static __always_inline int nested(__u64 flags, int helper_path)
{
	struct nest_ctx c = {};

	result = bpf_loop(n1, helper_path ? nest1_helper : nest1_inline, &c, flags);
	calls2 = c.calls2;
	calls3 = c.calls3;
	wrong2 = c.wrong2;
	wrong3 = c.wrong3;
	return result;
}
PATHS(nested)

/*
 * runtime_callback: one call site, the callback picked at run time. The
 * verifier checks both, and may not inline the call on either path.
 */
struct pick_ctx {
	__u64 a;
	__u64 b;
};

static int pick_a(__u32 index, void *data)
{
	struct pick_ctx *c = data;

	c->a++;
	return 0;
}

/* Stops at index 2, so its return tells it from pick_a's. */
static int pick_b(__u32 index, void *data)
{
	struct pick_ctx *c = data;

	c->b++;
	return index >= 2;
}

static __always_inline int runtime_callback(__u64 flags, int helper_path)
{
	struct pick_ctx c = {};
	void *cb = selector ? pick_b : pick_a;

	/* One call with cb in a register, not a call per branch. */
	barrier_var(cb);
	result = bpf_loop(nr_loops, cb, &c, flags);
	calls_a = c.a;
	calls_b = c.b;
	return result;
}
PATHS(runtime_callback)

char LICENSE[] SEC("license") = "GPL";
