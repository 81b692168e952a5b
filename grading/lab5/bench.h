/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 5: the interface of the selftests' benchmark runner (bench.h), as a
 * benchmark file written for it uses it: struct bench and its callbacks,
 * struct env, struct bench_res, the report functions and the atomic
 * helpers. The kit builds a student's benchs/bench_bpf_loop.c with this
 * file and links it with grading/lab5/bench.c, never with the tree's own
 * runner.
 */
#ifndef LAB5_BENCH_H
#define LAB5_BENCH_H

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* u32 and friends, which skeletons use. */
#include "../guest/short-types.h"

/* What the command line set: the runner's options. */
struct env {
	char *bench_name;
	int duration_sec;	/* -d: measured seconds */
	int warmup_sec;		/* -w: seconds measured but not reported */
	bool verbose;		/* -v: libbpf's debug messages too */
	bool list;		/* -l: list the benchmarks */
	bool affinity;		/* -a: pin each thread to its own CPU */
	int consumer_cnt;	/* -c */
	int producer_cnt;	/* -p */
};

/* One second's sample, filled in by bench->measure(). */
struct bench_res {
	long hits;
	long drops;
	long false_hits;
	long important_hits;
	unsigned long gp_ns;
	unsigned long gp_ct;
	unsigned int stime;
};

/*
 * A benchmark: the runner calls validate() after parsing the command line,
 * then setup(), starts consumer_cnt consumer_thread()s and producer_cnt
 * producer_thread()s (each gets its index as ctx), and every second calls
 * measure() and report_progress(); at the end report_final() on the
 * samples after the warm-up.
 */
struct bench {
	const char *name;
	void (*validate)(void);
	void (*setup)(void);
	void *(*producer_thread)(void *ctx);
	void *(*consumer_thread)(void *ctx);
	void (*measure)(struct bench_res *res);
	void (*report_progress)(int iter, struct bench_res *res, long delta_ns);
	void (*report_final)(struct bench_res res[], int res_cnt);
};

struct counter {
	long value;
} __attribute__((aligned(128)));

extern struct env env;
extern const struct bench *bench;

void setup_libbpf(void);
void hits_drops_report_progress(int iter, struct bench_res *res, long delta_ns);
void hits_drops_report_final(struct bench_res res[], int res_cnt);
void ops_report_progress(int iter, struct bench_res *res, long delta_ns);
void ops_report_final(struct bench_res res[], int res_cnt);

static inline __u64 get_time_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000 + t.tv_nsec;
}

static inline void atomic_inc(long *value)
{
	(void)__atomic_add_fetch(value, 1, __ATOMIC_RELAXED);
}

static inline void atomic_add(long *value, long n)
{
	(void)__atomic_add_fetch(value, n, __ATOMIC_RELAXED);
}

static inline long atomic_swap(long *value, long n)
{
	return __atomic_exchange_n(value, n, __ATOMIC_RELAXED);
}

#endif /* LAB5_BENCH_H */
