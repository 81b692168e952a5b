// SPDX-License-Identifier: GPL-2.0
/*
 * lab5-bench: the kit's runner for a student's upstream-style bpf_loop
 * benchmark, in the lab guest.
 *
 *   lab5-bench [-d SEC] [-w SEC] [-p NUM] [-c NUM] [-a] [-v]
 *              bpf-loop [--nr_loops N]
 *
 * grading/pipeline/guest-build links this file with the student's benchs/bench_bpf_loop.c
 * (which defines bench_bpf_loop and bench_bpf_loop_argp, as upstream's
 * runner expects) and the skeleton of their progs/bpf_loop_bench.c. The
 * options are upstream's (bench.c): -d duration, -w warm-up, -p producer
 * threads, -c consumer threads, -a pin threads to CPUs, -v libbpf debug;
 * the benchmark's own options (--nr_loops) come from its argp child.
 *
 * The run: validate(), setup(), the consumer and producer threads, then
 * once a second (on the main thread, at fixed deadlines) measure() and
 * report_progress(); after warm-up + duration samples, report_final() on
 * the duration's samples.
 *
 * Grading does not believe this process: the student's code shares it and
 * may change any of it. The kit's accountant (bench-account.c) runs it as
 * a child without root and reads what the kernel did instead.
 *
 * Exit status: 0 ran; 1 the benchmark failed (setup, threads); 2 usage or
 * not a lab guest.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>

#include "bench.h"
#include "../guest/guest.h"

#define MAX_SECONDS 3600
#define NSEC_PER_SEC 1000000000L

struct env env = {
	.duration_sec = 5,
	.warmup_sec = 1,
	.consumer_cnt = 1,
	.producer_cnt = 1,
};

const struct bench *bench;

/* The student's file defines both, as it would for upstream's runner. */
extern const struct bench bench_bpf_loop;
extern const struct argp bench_bpf_loop_argp;

static const struct bench *benches[] = { &bench_bpf_loop };

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !env.verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void setup_libbpf(void)
{
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	libbpf_set_print(print_libbpf);
}

/* Million per second, from a count over delta_ns. */
static double mega_per_sec(long n, long delta_ns)
{
	return n / 1e6 / (delta_ns / 1e9);
}

static void mean_stddev(struct bench_res res[], int cnt, size_t field,
			double *mean, double *stddev)
{
	double sum = 0, sq = 0, v;
	int i;

	for (i = 0; i < cnt; i++)
		sum += *(long *)((char *)&res[i] + field) / 1e6;
	*mean = cnt ? sum / cnt : 0;
	for (i = 0; i < cnt; i++) {
		v = *(long *)((char *)&res[i] + field) / 1e6 - *mean;
		sq += v * v;
	}
	*stddev = cnt > 1 ? sqrt(sq / (cnt - 1)) : 0;
}

void ops_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double rate = mega_per_sec(res->hits, delta_ns);

	printf("Iter %3d (%7.3lfus): hits %8.3lfM/s (%7.3lfM/prod)\n", iter,
	       (delta_ns - NSEC_PER_SEC) / 1000.0, rate, rate / env.producer_cnt);
}

/* The summary line's format is upstream's: scripts parse it. */
void ops_report_final(struct bench_res res[], int res_cnt)
{
	double mean, stddev;

	mean_stddev(res, res_cnt, offsetof(struct bench_res, hits), &mean, &stddev);
	printf("Summary: throughput %8.3lf \u00B1 %5.3lf M ops/s (%7.3lfM ops/prod), ",
	       mean, stddev, mean / env.producer_cnt);
	printf("latency %8.3lf ns/op\n", 1000.0 / mean * env.producer_cnt);
}

void hits_drops_report_progress(int iter, struct bench_res *res, long delta_ns)
{
	double hits = mega_per_sec(res->hits, delta_ns);
	double drops = mega_per_sec(res->drops, delta_ns);

	printf("Iter %3d (%7.3lfus): ", iter, (delta_ns - NSEC_PER_SEC) / 1000.0);
	printf("hits %8.3lfM/s (%7.3lfM/prod), drops %8.3lfM/s, total operations %8.3lfM/s\n",
	       hits, hits / env.producer_cnt, drops, hits + drops);
}

void hits_drops_report_final(struct bench_res res[], int res_cnt)
{
	double hits, hits_sd, drops, drops_sd;

	mean_stddev(res, res_cnt, offsetof(struct bench_res, hits), &hits, &hits_sd);
	mean_stddev(res, res_cnt, offsetof(struct bench_res, drops), &drops, &drops_sd);
	printf("Summary: hits %8.3lf \u00B1 %5.3lfM/s (%7.3lfM/prod), ",
	       hits, hits_sd, hits / env.producer_cnt);
	printf("drops %8.3lf \u00B1 %5.3lfM/s, ", drops, drops_sd);
	/* Upstream gives the spread of the sum; the sum of spreads bounds it. */
	printf("total operations %8.3lf \u00B1 %5.3lfM/s\n", hits + drops, hits_sd + drops_sd);
}

static const struct argp_option options[] = {
	{ "list", 'l', NULL, 0, "List the benchmarks", 0 },
	{ "duration", 'd', "SEC", 0, "Measured seconds (default 5)", 0 },
	{ "warmup", 'w', "SEC", 0, "Warm-up seconds, not reported (default 1)", 0 },
	{ "producers", 'p', "NUM", 0, "Producer threads (default 1)", 0 },
	{ "consumers", 'c', "NUM", 0, "Consumer threads (default 1)", 0 },
	{ "verbose", 'v', NULL, 0, "libbpf's debug messages too", 0 },
	{ "affinity", 'a', NULL, 0, "Pin each thread to a CPU of its own", 0 },
	{},
};

static int positive(const char *arg, const char *what, int max, struct argp_state *state)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0' || v <= 0 || v > max)
		argp_error(state, "%s must be a whole number from 1 to %d, not '%s'", what, max, arg);
	return (int)v;
}

static error_t parse_option(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'l': env.list = true; break;
	case 'd': env.duration_sec = positive(arg, "-d (seconds)", MAX_SECONDS, state); break;
	case 'w': env.warmup_sec = positive(arg, "-w (seconds)", MAX_SECONDS, state); break;
	case 'p': env.producer_cnt = positive(arg, "-p (threads)", 1024, state); break;
	case 'c': env.consumer_cnt = positive(arg, "-c (threads)", 1024, state); break;
	case 'v': env.verbose = true; break;
	case 'a': env.affinity = true; break;
	case ARGP_KEY_ARG:
		if (env.bench_name)
			argp_error(state, "one benchmark at a time: '%s' and '%s'", env.bench_name, arg);
		env.bench_name = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static pthread_t *producers, *consumers;
static long *indexes;

static void pin(pthread_t thread, int *next_cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(*next_cpu, &set);
	if (pthread_setaffinity_np(thread, sizeof(set), &set)) {
		fprintf(stderr, "lab5-bench: cannot pin a thread to CPU %d (-a with more threads than CPUs?)\n",
			*next_cpu);
		exit(1);
	}
	(*next_cpu)++;
}

static void start_threads(void)
{
	int i, err, cpu = 0, n = env.producer_cnt > env.consumer_cnt ?
				   env.producer_cnt : env.consumer_cnt;

	producers = calloc(env.producer_cnt, sizeof(*producers));
	consumers = calloc(env.consumer_cnt, sizeof(*consumers));
	indexes = calloc(n, sizeof(*indexes));
	if (!producers || !consumers || !indexes) {
		fprintf(stderr, "lab5-bench: out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++)
		indexes[i] = i;
	for (i = 0; i < env.consumer_cnt; i++) {
		err = pthread_create(&consumers[i], NULL, bench->consumer_thread, (void *)indexes[i]);
		if (err) {
			fprintf(stderr, "lab5-bench: consumer thread %d: %s\n", i, strerror(err));
			exit(1);
		}
		if (env.affinity)
			pin(consumers[i], &cpu);
	}
	for (i = 0; i < env.producer_cnt; i++) {
		err = pthread_create(&producers[i], NULL, bench->producer_thread, (void *)indexes[i]);
		if (err) {
			fprintf(stderr, "lab5-bench: producer thread %d: %s\n", i, strerror(err));
			exit(1);
		}
		if (env.affinity)
			pin(producers[i], &cpu);
	}
}

int main(int argc, char **argv)
{
	static const struct argp_child children[] = {
		{ &bench_bpf_loop_argp, 0, "bpf_loop helper benchmark", 0 },
		{},
	};
	static const struct argp argp = {
		.options = options,
		.parser = parse_option,
		.args_doc = "BENCHMARK",
		.doc = "Runs an upstream-style benchmark in the lab guest (the kit's runner).",
		.children = children,
	};
	struct bench_res *res;
	struct timespec deadline;
	__u64 last, now;
	int i, total;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 2;
	if (env.list) {
		for (i = 0; i < (int)(sizeof(benches) / sizeof(benches[0])); i++)
			printf("%s\n", benches[i]->name);
		return 0;
	}
	if (!env.bench_name) {
		fprintf(stderr, "lab5-bench: say which benchmark: lab5-bench bpf-loop --nr_loops 100\n");
		return 2;
	}
	for (i = 0; i < (int)(sizeof(benches) / sizeof(benches[0])); i++)
		if (benches[i]->name && !strcmp(benches[i]->name, env.bench_name))
			bench = benches[i];
	if (!bench) {
		fprintf(stderr, "lab5-bench: no benchmark '%s': bench_bpf_loop.c names its benchmark '%s'\n",
			env.bench_name, bench_bpf_loop.name ? bench_bpf_loop.name : "(no name)");
		return 2;
	}
	if (!bench->producer_thread || !bench->measure) {
		fprintf(stderr, "lab5-bench: the benchmark has no %s callback\n",
			bench->producer_thread ? "measure" : "producer_thread");
		return 1;
	}
	if (!in_lab_guest()) {
		fprintf(stderr, "lab5-bench: this loads BPF programs: run it only in the lab guest (vm/qemu-run)\n");
		return 2;
	}
	total = env.warmup_sec + env.duration_sec;
	res = calloc(total, sizeof(*res));
	if (!res) {
		fprintf(stderr, "lab5-bench: out of memory\n");
		return 1;
	}
	printf("Setting up benchmark '%s'...\n", bench->name);
	if (bench->validate)
		bench->validate();
	if (bench->setup)
		bench->setup();
	if (!bench->consumer_thread)
		env.consumer_cnt = 0;
	start_threads();
	printf("Benchmark '%s' started.\n", bench->name);

	last = get_time_ns();
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	for (i = 0; i < total; i++) {
		deadline.tv_sec++;
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR)
			;
		now = get_time_ns();
		bench->measure(&res[i]);
		if (bench->report_progress)
			bench->report_progress(i, &res[i], (long)(now - last));
		last = now;
	}
	if (bench->report_final)
		bench->report_final(res + env.warmup_sec, env.duration_sec);
	fflush(stdout);
	/* Upstream's producers never return: end them with the process. */
	exit(0);
}
