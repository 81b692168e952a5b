/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 3: the part of the BPF selftests' network_helpers.h that test runs
 * use: the IPv4 and IPv6 test packets to hand to bpf_prog_test_run_opts()
 * as data_in (harness.c defines them). No sockets, no servers: the guest
 * has no network.
 */
#ifndef __NETWORK_HELPERS_H
#define __NETWORK_HELPERS_H

#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <netinet/tcp.h>
#include <linux/types.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>

#ifndef __packed
#define __packed __attribute__((packed))
#endif

#define MAGIC_VAL 0x1234
#define NUM_ITER 100000
#define VIP_NUM 5
#define MAGIC_BYTES 123

/* Ethernet, IPv4 and TCP headers, no payload. */
struct ipv4_packet {
	struct ethhdr eth;
	struct iphdr iph;
	struct tcphdr tcp;
} __packed;
extern struct ipv4_packet pkt_v4;

struct ipv6_packet {
	struct ethhdr eth;
	struct ipv6hdr iph;
	struct tcphdr tcp;
} __packed;
extern struct ipv6_packet pkt_v6;

#endif /* __NETWORK_HELPERS_H */
