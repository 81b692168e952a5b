// SPDX-License-Identifier: GPL-2.0
/*
 * The address of the task that runs the program, as bpf_get_current_task()
 * gives it: strobemeta reads its variables at that address plus the
 * offsets of its configuration, so the kit's exerciser (exercise.c) learns
 * it first, in the process that then runs strobemeta, and sets the offsets
 * to reach that process's own memory.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 task_addr;

SEC("raw_tp")
int task_probe(void *ctx)
{
	task_addr = bpf_get_current_task();
	return 0;
}

char _license[] SEC("license") = "GPL";
