// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 6, going further: the 6.1 verifier checks a bpf_loop callback once,
 * with the state of the caller at the call, as if it ran once. What the
 * first run writes into the ctx is never checked with the later runs.
 * These programs are accepted by 6.1 and do at run time what the verifier
 * proved they cannot. Both stay inside memory of the same map, so the
 * demonstration harms nothing: the run reads values that the verifier's
 * proof says are out of reach.
 *
 * reach_next: the callback indexes element 0 of a two-element array map
 * with a counter from the ctx. The verifier sees the counter once, as the
 * 0 the caller stored, and approves an 8-byte read at offset 0 of the
 * element's 8-byte value. The second run has counter 1 and reads the next
 * element. bpf_loop's count is the constant 2, so nothing beyond the map
 * is ever touched (an array map's elements are contiguous, 8 bytes each
 * for an 8-byte value).
 *
 * walk_prog: the example of the handbook (chapter "What the verifier still
 * gets wrong in 6.1"), on an 8-byte global of its own section, which libbpf
 * makes a one-element array map. Its later runs read the bytes that follow
 * the value in the map's page (a global's map is mmap-able, so its value
 * area is a whole page), where user space can write.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} pair SEC(".maps");

/* Outputs of reach_next: what each run read, the loop's return, and the
 * counter after the loop (the verifier believes it is 1). */
__u64 seen[4];
__s64 result;
__u64 idx_after;

struct reach {
	__u64 idx;
};

static int reach_step(__u32 index, void *data)
{
	struct reach *r = data;
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&pair, &key);

	if (!v)
		return 1;
	/* Checked with idx == 0, the only value the verifier saw. */
	seen[index & 3] = v[r->idx];
	r->idx++;
	return 0;
}

SEC("tc")
int reach_next(struct __sk_buff *skb)
{
	struct reach r = { .idx = 0 };

	result = bpf_loop(2, reach_step, &r, 0);
	idx_after = r.idx;
	return 0;
}

/* The handbook's example, as printed there, but for the section. */
__u8 table[8] SEC(".data.table");

struct walk {
	__u64 pos;
	__u64 sum;
};

static int step(__u32 index, void *data)
{
	struct walk *w = data;

	w->sum += table[w->pos];	/* proved with pos == 0 */
	w->pos += 8;			/* 8, 16, 24 on later calls */
	return 0;
}

SEC("tc")
int walk_prog(struct __sk_buff *skb)
{
	struct walk w = { .pos = 0, .sum = 0 };

	bpf_loop(4, step, &w, 0);
	return (int)w.sum;
}

char LICENSE[] SEC("license") = "GPL";
