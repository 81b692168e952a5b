// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 7: sound bpf_loop callbacks. Each unsound program carries state
 * through its ctx that its callback uses for a memory access, and is safe
 * only if the callback runs once: the 6.1 verifier checks the callback
 * once, with the state at the call, and accepts it. Each has a twin that
 * carries the same state but checks it, which a sound verifier must still
 * accept, and which must still compute the same results.
 *
 * Every unsound program stays inside the map vals at run time: an array
 * map's values are contiguous, so a read or write past element 0's 32
 * bytes lands in element 1, which the host filled with values of its own
 * and reads back. Nothing else is touched.
 *
 * Start values go through barrier_var(): a store from a register whose
 * value the verifier knows is what makes the verifier remember the value
 * in the stack (a spill, or zeroes); an immediate store would not.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct word4 {
	__u64 w[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct word4);
} vals SEC(".maps");

/* What each call read, by index; bpf_loop's return; a value after it. */
__u64 out[8];
__s64 ret;
__u64 after;
/* Set by the host: the twins' loop counts, and flags (0) the verifier
 * cannot see. */
__u32 nr_loops;
__u64 flags;
/* What the size programs copy. */
__u64 src_words[8];

static struct word4 *elem0(void)
{
	__u32 key = 0;

	return bpf_map_lookup_elem(&vals, &key);
}

/* ---- an index through the ctx ---- */

struct idx_ctx {
	__u64 idx;
};

static int index_bad_cb(__u32 i, void *data)
{
	struct idx_ctx *c = data;
	struct word4 *v = elem0();

	if (!v)
		return 1;
	out[i & 7] = v->w[c->idx];	/* 6.1 checks it with the start value */
	c->idx++;
	return 0;
}

static int index_good_cb(__u32 i, void *data)
{
	struct idx_ctx *c = data;
	struct word4 *v = elem0();
	__u64 idx = c->idx;

	if (!v || idx >= 4)
		return 1;
	out[i & 7] = v->w[idx];
	c->idx = idx + 1;
	return 0;
}

/*
 * Run CB on an idx_ctx whose counter starts at START, a value the
 * verifier knows: zeroes in the stack for 0, a spilled register else.
 */
static __always_inline void index_loop(__u64 start, void *cb, __u32 nr)
{
	struct idx_ctx c;

	barrier_var(start);
	c.idx = start;
	ret = bpf_loop(nr, cb, &c, 0);
	after = c.idx;
}

SEC("tc")
int index_bad(struct __sk_buff *skb)
{
	index_loop(0, index_bad_cb, 5);
	return 0;
}

SEC("tc")
int index_good(struct __sk_buff *skb)
{
	index_loop(0, index_good_cb, nr_loops);
	return 0;
}

SEC("tc")
int spilled_bad(struct __sk_buff *skb)
{
	index_loop(1, index_bad_cb, 4);
	return 0;
}

SEC("tc")
int spilled_good(struct __sk_buff *skb)
{
	index_loop(1, index_good_cb, nr_loops);
	return 0;
}

/* ---- a pointer through the ctx ---- */

struct ptr_ctx {
	__u64 *p;
	__u64 k;
};

static int pointer_bad_cb(__u32 i, void *data)
{
	struct ptr_ctx *c = data;

	out[i & 7] = *c->p;
	c->p++;				/* 6.1 checks only the first */
	return 0;
}

/* The pointer stays; an index moves, checked. */
static int pointer_good_cb(__u32 i, void *data)
{
	struct ptr_ctx *c = data;
	__u64 k = c->k;

	if (k >= 4)
		return 1;
	out[i & 7] = c->p[k];
	c->k = k + 1;
	return 0;
}

SEC("tc")
int pointer_bad(struct __sk_buff *skb)
{
	struct word4 *v = elem0();
	struct ptr_ctx c = {};

	if (!v)
		return 0;
	c.p = &v->w[0];
	ret = bpf_loop(5, pointer_bad_cb, &c, 0);
	return 0;
}

SEC("tc")
int pointer_good(struct __sk_buff *skb)
{
	struct word4 *v = elem0();
	__u64 zero = 0;
	struct ptr_ctx c;

	if (!v)
		return 0;
	barrier_var(zero);
	c.p = &v->w[0];
	c.k = zero;
	ret = bpf_loop(nr_loops, pointer_good_cb, &c, 0);
	after = c.k;
	return 0;
}

/* ---- a size through the ctx (a 32-bit spill) ---- */

struct size_ctx {
	struct word4 *dst;
	__u32 size;
	__u32 pad;
};

static int size_bad_cb(__u32 i, void *data)
{
	struct size_ctx *c = data;

	bpf_probe_read_kernel(c->dst, c->size, src_words);
	c->size += 8;			/* 6.1 checks only 8 bytes */
	return 0;
}

static int size_good_cb(__u32 i, void *data)
{
	struct size_ctx *c = data;
	__u32 size = c->size;

	if (size > sizeof(struct word4))
		return 1;
	bpf_probe_read_kernel(c->dst, size, src_words);
	c->size = size + 8;
	return 0;
}

/* The size starts as a 32-bit spill of 8. */
static __always_inline void size_loop(void *cb, __u32 nr)
{
	struct word4 *v = elem0();
	__u32 eight = 8;
	struct size_ctx c;

	if (!v)
		return;
	barrier_var(eight);
	c.dst = v;
	c.size = eight;
	ret = bpf_loop(nr, cb, &c, 0);
}

SEC("tc")
int size_bad(struct __sk_buff *skb)
{
	size_loop(size_bad_cb, 5);
	return 0;
}

SEC("tc")
int size_good(struct __sk_buff *skb)
{
	size_loop(size_good_cb, nr_loops);
	return 0;
}

/* ---- the code after the loop ---- */

static int count_cb(__u32 i, void *data)
{
	struct idx_ctx *c = data;

	c->idx++;
	return 0;
}

/*
 * Run CB on a counter that starts at START, then read the word the
 * counter names after the loop: unchecked, or checked against the value.
 */
static __always_inline void after_loop(__u64 start, void *cb, __u32 nr, int checked)
{
	struct word4 *v = elem0();
	struct idx_ctx c;
	__u64 idx;

	if (!v)
		return;
	barrier_var(start);
	c.idx = start;
	ret = bpf_loop(nr, cb, &c, 0);
	idx = c.idx;
	if (!checked)
		after = v->w[idx];	/* 6.1 believes what one call left */
	else
		after = idx < 4 ? v->w[idx] : 0;
}

SEC("tc")
int after_bad(struct __sk_buff *skb)
{
	after_loop(0, count_cb, 5, 0);
	return 0;
}

SEC("tc")
int after_good(struct __sk_buff *skb)
{
	after_loop(0, count_cb, nr_loops, 1);
	return 0;
}

/* ---- a loop that may make no call ---- */

static int set_one_cb(__u32 i, void *data)
{
	struct idx_ctx *c = data;
	__u64 one = 1;

	barrier_var(one);
	c->idx = one;
	return 0;
}

/* The host runs it with nr_loops 0: the start value, 5, stays. */
SEC("tc")
int zero_calls_bad(struct __sk_buff *skb)
{
	after_loop(5, set_one_cb, nr_loops, 0);
	return 0;
}

SEC("tc")
int zero_calls_good(struct __sk_buff *skb)
{
	after_loop(5, set_one_cb, nr_loops, 1);
	return 0;
}

/* ---- nested loops: the inner callback moves the outer caller's state ---- */

static int nest_bad_cb(__u32 i, void *data)
{
	struct idx_ctx *c = data;
	__u64 zero = 0;

	/* The outer caller's counter, known again for the inner call. */
	barrier_var(zero);
	c->idx = zero;
	bpf_loop(5, index_bad_cb, c, 0);
	return 1;
}

static int nest_good_cb(__u32 i, void *data)
{
	struct idx_ctx *c = data;
	__u64 zero = 0;

	barrier_var(zero);
	c->idx = zero;
	bpf_loop(nr_loops, index_good_cb, c, 0);
	return 1;
}

SEC("tc")
int nested_bad(struct __sk_buff *skb)
{
	struct idx_ctx c = {};

	ret = bpf_loop(1, nest_bad_cb, &c, 0);
	return 0;
}

SEC("tc")
int nested_good(struct __sk_buff *skb)
{
	struct idx_ctx c = {};

	ret = bpf_loop(1, nest_good_cb, &c, 0);
	after = c.idx;
	return 0;
}

/* ---- precision: what real programs do must still load ---- */

/*
 * A payload built at an offset the callback carries and checks, as
 * strobemeta's strings are: call i appends (i % 3) + 1 bytes of value
 * i + 1 to a buffer in the caller's stack, through a pointer in the ctx.
 */
struct payload_ctx {
	__u8 *buf;
	__u64 off;
};

#define PAYLOAD 24

static int payload_cb(__u32 i, void *data)
{
	struct payload_ctx *c = data;
	__u64 off = c->off, len = (i % 3) + 1, k;

	if (off > PAYLOAD - 3)
		return 1;
	for (k = 0; k < 3; k++)
		if (k < len)
			c->buf[off + k] = i + 1;
	c->off = off + len;
	return 0;
}

SEC("tc")
int payload(struct __sk_buff *skb)
{
	__u8 buf[PAYLOAD] = {};
	struct payload_ctx c = { .buf = buf };
	int k;

	ret = bpf_loop(nr_loops, payload_cb, &c, 0);
	after = c.off;
	for (k = 0; k < PAYLOAD / 8; k++)
		out[k] = ((__u64 *)buf)[k];
	return 0;
}

/*
 * What a callback cannot reach keeps what the verifier knows: a subprogram
 * (frame 1) keeps a constant index in its own stack across two loops, one
 * whose ctx is in frame 0 (below it), one with a NULL ctx, and uses it
 * unchecked after each.
 */
static int noop_cb(__u32 i, void *data)
{
	return 0;
}

static __noinline int unreached_sub(struct idx_ctx *below)
{
	struct word4 *v = elem0();
	volatile __u64 slot = 3;	/* in this frame's stack, known */

	if (!v)
		return 0;
	ret = bpf_loop(nr_loops, count_cb, below, 0);
	out[0] = v->w[slot];
	ret += bpf_loop(nr_loops, noop_cb, NULL, 0);
	out[1] = v->w[slot];
	return 0;
}

SEC("tc")
int unreached(struct __sk_buff *skb)
{
	struct idx_ctx c = {};

	unreached_sub(&c);
	after = c.idx;
	return 0;
}

/*
 * A callback that calls no helper, for the inlining: it fills a buffer
 * in the caller's stack at an index it carries and checks.
 */
struct fill_ctx {
	__u64 *buf;
	__u64 n;
};

static int fill_cb(__u32 i, void *data)
{
	struct fill_ctx *c = data;
	__u64 n = c->n;

	if (n >= 8)
		return 1;
	c->buf[n] = (__u64)i * 3 + 1;
	c->n = n + 1;
	return 0;
}

static __always_inline void fill_loop(__u64 fl)
{
	__u64 buf[8] = {};
	struct fill_ctx c = { .buf = buf };
	int k;

	ret = bpf_loop(nr_loops, fill_cb, &c, fl);
	after = c.n;
	for (k = 0; k < 8; k++)
		out[k] = buf[k];
}

/* Flags 0, known: inlined. */
SEC("tc")
int fill_inline(struct __sk_buff *skb)
{
	fill_loop(0);
	return 0;
}

/* Flags 0 at run time, from a global the verifier cannot see: a helper call. */
SEC("tc")
int fill_helper(struct __sk_buff *skb)
{
	fill_loop(flags);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
