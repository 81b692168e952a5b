// SPDX-License-Identifier: GPL-2.0
/* Lab 3's example: two ways to read a packet's EtherType. */

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "bpf_misc.h"

char _license[] SEC("license") = "GPL";

/* Set by prog_tests/bpf_loop.c before a run. */
u32 offset;

/* Written by the programs, read back through the skeleton. */
long ret;
u16 value;

SEC("tc")
int load_bytes(struct __sk_buff *skb)
{
	__be16 buf = 0;

	ret = bpf_skb_load_bytes(skb, offset, &buf, sizeof(buf));
	value = bpf_ntohs(buf);
	return 0;
}

/* No check against data_end: the verifier must refuse this one. */
SEC("tc")
int read_unchecked(struct __sk_buff *skb)
{
	struct ethhdr *eth = (void *)(long)skb->data;

	value = bpf_ntohs(eth->h_proto);
	return 0;
}
