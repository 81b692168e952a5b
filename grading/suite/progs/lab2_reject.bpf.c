// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 2: programs the verifier must refuse, each beside its twin with the
 * bug fixed, which it must accept: NAME_bad and NAME_good. A kernel that
 * refuses everything fails the twins; one that does not check callbacks
 * (lab 1's) loads the bad ones. These are only loaded, never run.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "verdict.h"

/* ret: the callback may return only 0 or 1. */
static int ret_one(__u32 index, void *data)
{
	return 1;
}

static int ret_two(__u32 index, void *data)
{
	return 2;
}

SEC("tc")
int ret_good(struct __sk_buff *skb)
{
	return bpf_loop(1, ret_one, NULL, 0);
}

SEC("tc")
int ret_bad(struct __sk_buff *skb)
{
	return bpf_loop(1, ret_two, NULL, 0);
}
/* prepare_func_exit(): the callback's R0 is checked against [0, 1]. */
REFUSED(ret_bad, -EINVAL, "At callback return the register R0 has value (0x2; 0x0)");

/* r3: the callback gets R1 and R2 only; R3 to R5 hold nothing. */
static int use_index(__u32 index, void *data, __u64 unused)
{
	return index & 1;
}

static int use_r3(__u32 index, void *data, __u64 junk)
{
	return junk & 1;
}

SEC("tc")
int r3_good(struct __sk_buff *skb)
{
	return bpf_loop(2, use_index, NULL, 0);
}

SEC("tc")
int r3_bad(struct __sk_buff *skb)
{
	return bpf_loop(2, use_r3, NULL, 0);
}
/* check_reg_arg(): R3 of the callback is not initialised. */
REFUSED(r3_bad, -EACCES, "R3 !read_ok");

/* index: the index is any u32 to the verifier, so it must be bounded
 * before it addresses memory (here the caller's stack, through ctx). */
#define SLOTS 8

struct slots {
	__u64 slot[SLOTS];
};

static int fill_checked(__u32 index, void *data)
{
	struct slots *s = data;

	if (index >= SLOTS)
		return 1;
	s->slot[index] = index;
	return 0;
}

static int fill_unchecked(__u32 index, void *data)
{
	struct slots *s = data;

	s->slot[index] = index;
	return 0;
}

SEC("tc")
int index_good(struct __sk_buff *skb)
{
	struct slots s = {};

	return bpf_loop(SLOTS, fill_checked, &s, 0);
}

SEC("tc")
int index_bad(struct __sk_buff *skb)
{
	struct slots s = {};

	return bpf_loop(SLOTS, fill_unchecked, &s, 0);
}
/* check_stack_access_within_bounds(): the index is any u32. */
REFUSED(index_bad, -EACCES, "invalid unbounded variable-offset write to stack");

/*
 * oob: ctx points into the caller's stack, and its writes stay in that
 * stack. 64 words (512 bytes) past ctx is past the caller's frame, however
 * the compiler lays it out: the frame is at most 512 bytes.
 */
#define OOB_WORD 64

static int poke_in(__u32 index, void *data)
{
	__u64 *p = data;

	p[1] = index;
	return 0;
}

static int poke_out(__u32 index, void *data)
{
	__u64 *p = data;

	p[OOB_WORD] = index;
	return 0;
}

SEC("tc")
int oob_good(struct __sk_buff *skb)
{
	__u64 words[2] = {};

	return bpf_loop(1, poke_in, words, 0);
}

SEC("tc")
int oob_bad(struct __sk_buff *skb)
{
	__u64 words[2] = {};

	return bpf_loop(1, poke_out, words, 0);
}
/* check_stack_access_within_bounds(): ctx + 512 is past the caller's frame. */
REFUSED(oob_bad, -EACCES, "invalid write to stack");

/* recursion: a callback that passes itself to bpf_loop nests without end;
 * the good twin nests one level. */
static int leaf(__u32 index, void *data)
{
	return 0;
}

static int nest_leaf(__u32 index, void *data)
{
	bpf_loop(1, leaf, data, 0);
	return 0;
}

static int nest_self(__u32 index, void *data)
{
	bpf_loop(1, nest_self, data, 0);
	return 0;
}

SEC("tc")
int recursion_good(struct __sk_buff *skb)
{
	return bpf_loop(1, nest_leaf, NULL, 0);
}

SEC("tc")
int recursion_bad(struct __sk_buff *skb)
{
	return bpf_loop(1, nest_self, NULL, 0);
}
/*
 * __check_func_call(): each nested callback takes a frame, up to 8, and
 * the ninth is refused. (check_max_stack_depth() would say "8 frames ...
 * too deep !" of a kernel that never checks the callbacks' bodies.)
 */
REFUSED(recursion_bad, -E2BIG, "the call stack of 9 frames is too deep");

/*
 * deep: four frames (the program and three nested callbacks), each with a
 * buffer it fills and hands on as the next level's ctx (so the compiler
 * keeps all of it, and the verifier sees all of it used), then an empty
 * innermost callback. Each frame alone is well under 512 bytes; the good
 * twin's add up to 4 * 64 (+ 32 for the last), the bad one's to 4 * 160,
 * past the 512 that all the frames of a call chain share.
 */
#define DEEP_GOOD_WORDS 8
#define DEEP_BAD_WORDS 20

#define DEEP_LEVEL(name, words, next)					\
static int name(__u32 index, void *data)				\
{									\
	__u64 pad[words] = {};						\
									\
	return bpf_loop(1, next, pad, 0) != 1;				\
}

DEEP_LEVEL(deep_good_3, DEEP_GOOD_WORDS, leaf)
DEEP_LEVEL(deep_good_2, DEEP_GOOD_WORDS, deep_good_3)
DEEP_LEVEL(deep_good_1, DEEP_GOOD_WORDS, deep_good_2)
DEEP_LEVEL(deep_bad_3, DEEP_BAD_WORDS, leaf)
DEEP_LEVEL(deep_bad_2, DEEP_BAD_WORDS, deep_bad_3)
DEEP_LEVEL(deep_bad_1, DEEP_BAD_WORDS, deep_bad_2)

SEC("tc")
int deep_good(struct __sk_buff *skb)
{
	__u64 pad[DEEP_GOOD_WORDS] = {};

	return bpf_loop(1, deep_good_1, pad, 0);
}

SEC("tc")
int deep_bad(struct __sk_buff *skb)
{
	__u64 pad[DEEP_BAD_WORDS] = {};

	return bpf_loop(1, deep_bad_1, pad, 0);
}
/* check_max_stack_depth(): the frames of a call chain share 512 bytes. */
REFUSED(deep_bad, -EACCES, "combined stack size of ");

char LICENSE[] SEC("license") = "GPL";
