// SPDX-License-Identifier: GPL-2.0
/* Lab 3's example: two ways to read a packet's EtherType. */

#include <test_progs.h>
#include <network_helpers.h>
#include "bpf_loop.skel.h"

/* Run prog once on the IPv4 test packet; false if the run failed. */
static bool run_once(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts,
		    .data_in = &pkt_v4,
		    .data_size_in = sizeof(pkt_v4),
		    .repeat = 1);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &topts);
	if (!ASSERT_OK(err, "bpf_prog_test_run_opts"))
		return false;
	return ASSERT_EQ(topts.retval, 0, "the program's return value");
}

static void test_load_bytes(void)
{
	struct bpf_loop *skel;

	skel = bpf_loop__open();
	if (!ASSERT_OK_PTR(skel, "bpf_loop__open"))
		return;
	/* The refused program stays in the object but is not loaded. */
	bpf_program__set_autoload(skel->progs.read_unchecked, false);
	if (!ASSERT_OK(bpf_loop__load(skel), "bpf_loop__load"))
		goto out;

	skel->bss->offset = offsetof(struct ethhdr, h_proto);
	if (run_once(skel->progs.load_bytes)) {
		ASSERT_EQ(skel->bss->ret, 0, "return at the EtherType");
		ASSERT_EQ(skel->bss->value, ETH_P_IP, "EtherType");
	}

	/* Two bytes from the last byte on: past the end of the packet. */
	skel->bss->offset = sizeof(pkt_v4) - 1;
	if (run_once(skel->progs.load_bytes))
		ASSERT_EQ(skel->bss->ret, -EFAULT, "return past the end");
out:
	bpf_loop__destroy(skel);
}

static void test_read_unchecked(void)
{
	char log[16384] = "";
	struct bpf_loop *skel;
	int err;

	skel = bpf_loop__open();
	if (!ASSERT_OK_PTR(skel, "bpf_loop__open"))
		return;
	/* Load the refused program alone, with a buffer for its log. */
	bpf_program__set_autoload(skel->progs.load_bytes, false);
	bpf_program__set_log_buf(skel->progs.read_unchecked, log, sizeof(log));
	err = bpf_loop__load(skel);
	if (ASSERT_ERR(err, "bpf_loop__load"))
		ASSERT_HAS_SUBSTR(log, "invalid access to packet", "verifier log");
	bpf_loop__destroy(skel);
}

void test_bpf_loop(void)
{
	if (test__start_subtest("load_bytes"))
		test_load_bytes();
	if (test__start_subtest("read_unchecked"))
		test_read_unchecked();
}
