// SPDX-License-Identifier: GPL-2.0
/*
 * bench-judge: grade lab 5 on the host from what the kit's accountant
 * (lab5-account, grading/lab5/bench-account.c) reported from the guest.
 *
 *   bench-judge --pick SEED
 *   bench-judge --warmup W --duration D --small N --large M [--figures] FILE
 *   bench-judge --ktap [--tests TABLE] [--build-status FILE] [--guest-stopped TEXT]
 *               --warmup W --duration D --small N --large M FILE
 *
 * --pick prints the two nr_loops of one grade, "SMALL LARGE", drawn from
 * SEED (any text): SMALL from 1 to 8, LARGE from 1000 to 4000. The
 * benchmark learns them only from its command line in the guest.
 *
 * FILE is the guest's output: two runs of the accountant, tagged "small"
 * (nr_loops N) and "large" (nr_loops M), each running the benchmark with
 * W warm-up and D measured seconds. Only the accountant's own lines count;
 * the benchmark's output reaches FILE escaped, as "lab5-out" lines, and is
 * read only for its summary line. One line per check on stdout,
 * "ID<TAB>pass|fail<TAB>REASON" (REASON the first failure, or figures):
 *
 *   lab5.runs           in both runs the benchmark exited 0; a program it
 *                       loaded calls helper 181 in its translated
 *                       instructions and ran (the kernel's run count); the
 *                       kit's fexit program on bpf_loop saw it called with
 *                       the nr_loops given, and every such call ran the
 *                       callback nr_loops times
 *   lab5.report_format  each run printed upstream's summary line and its
 *                       numbers agree with each other (summary.h)
 *   lab5.report_agrees  the summary's throughput is within AGREE % of the
 *                       loops the kernel ran per second in the measured
 *                       seconds (from the first bpf_loop call + W to + W + D,
 *                       interpolated between the accountant's samples, whose
 *                       reading may take at most MAX_READ_US there)
 *   lab5.latency_falls  the kernel's ns per loop (the run time of the
 *                       benchmark's programs over the loops of
 *                       bpf_loop(nr_loops)) at M is below that at N
 *
 * lab5.runs is the fact the other three rest on: when it fails, so do
 * they (a well-formed summary, or figures, of runs that are not real are
 * worth nothing).
 *
 * --figures prints instead one line per run with the kernel's figures and
 * the summary's, for people. --ktap prints lab 5's KTAP instead of the
 * lines above, lab5.builds first: from --build-status (the benchmark's
 * build, grading/pipeline/guest-build's status file: when it failed, every other
 * test fails as not built), with --guest-stopped's text (the guest did not
 * finish) added to each failure's reason. Its tests are those
 * grading/tests.list (or TABLE) gives lab 5, in the table's order; a
 * declared test no check judges, or a check the table lacks, is status 2.
 * Exit status: 0 every check passed, 1 some failed, 2 usage or I/O error.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pipeline/ktap.h"
#include "../pipeline/registry.h"
#include "summary.h"

/* How far the summary's throughput may be from the kernel's count. */
#define AGREE 0.20
#define SMALL_MIN 1
#define SMALL_MAX 8
#define LARGE_MIN 1000
#define LARGE_MAX 4000
/* How long the kit's reading of one sample may take: T is its middle, so
 * the window's ends are known to half this. */
#define MAX_READ_US 250000
#define MAX_LINE 8192
#define MAX_SAMPLES 100000

struct sample {
	double t_us, read_us;
	unsigned long long calls, loops, short_calls, other_calls, other_loops, run_cnt, run_time;
};

struct run {
	int seen;
	long nr_loops;
	char status[64];	/* "" until lab5-exit */
	char error[300];
	struct summary sum;
	char bad_summary[220];
	struct sample *samples;
	int nsamples;
	int have_first;
	double first_us;
	int loop_progs, hidden_progs, loop_progs_ran;
	unsigned long long misses;
	long untracked;
};

static struct run small, large;

/* "\\" and "\xHH" back to bytes, in place. */
static void unescape(char *s)
{
	char *out = s;
	unsigned int c;

	while (*s) {
		if (s[0] == '\\' && s[1] == '\\') {
			*out++ = '\\';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &c) == 1) {
			*out++ = (char)c;
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

static void add_sample(struct run *r, const char *line)
{
	struct sample s;
	struct sample *grown;

	if (sscanf(line, "lab5-sample %lf %lf %llu %llu %llu %llu %llu %llu %llu", &s.t_us, &s.read_us,
		   &s.calls, &s.loops, &s.short_calls, &s.other_calls, &s.other_loops, &s.run_cnt,
		   &s.run_time) != 9)
		return;
	if (r->nsamples == MAX_SAMPLES)
		return;
	grown = realloc(r->samples, (r->nsamples + 1) * sizeof(*grown));
	if (!grown)
		return;
	r->samples = grown;
	r->samples[r->nsamples++] = s;
}

static int read_file(const char *path)
{
	static char line[MAX_LINE];
	struct run *cur = NULL;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "bench-judge: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char tag[32], word[64];
		long n;
		long long id, cnt, time, calls;

		line[strcspn(line, "\r\n")] = '\0';
		if (sscanf(line, "lab5-run %31s nr_loops %ld", tag, &n) == 2) {
			cur = !strcmp(tag, "small") ? &small : !strcmp(tag, "large") ? &large : NULL;
			if (cur && cur->seen)
				cur = NULL;	/* only the first run of a tag */
			if (cur) {
				cur->seen = 1;
				cur->nr_loops = n;
			}
			continue;
		}
		if (!cur)
			continue;
		if (!strncmp(line, "lab5-out ", 9)) {
			unescape(line + 9);
			if (strncmp(line + 9, "Summary:", 8))
				continue;
			if (parse_summary(line + 9, &cur->sum) == 0) {
				cur->sum.found = 1;
				cur->bad_summary[0] = '\0';
			} else {
				cur->sum.found = 0;
				snprintf(cur->bad_summary, sizeof(cur->bad_summary), "%.200s", line + 9);
			}
		} else if (!strncmp(line, "lab5-sample ", 12)) {
			add_sample(cur, line);
		} else if (sscanf(line, "lab5-first %63s", word) == 1) {
			if (strcmp(word, "none")) {
				cur->have_first = 1;
				cur->first_us = atof(word);
			}
		} else if (sscanf(line, "lab5-prog %lld %*u %lld %lld %lld", &id, &cnt, &time, &calls) == 4) {
			if (calls > 0) {
				cur->loop_progs++;
				if (cnt > 0)
					cur->loop_progs_ran++;
			} else if (calls < 0) {
				cur->hidden_progs++;
			}
		} else if (sscanf(line, "lab5-kit misses %llu", &cur->misses) == 1 ||
			   sscanf(line, "lab5-kit untracked %ld", &cur->untracked) == 1) {
			continue;
		} else if (sscanf(line, "lab5-exit %31s %63s", tag, word) == 2) {
			snprintf(cur->status, sizeof(cur->status), "%s", word);
		} else if (!strncmp(line, "lab5-error ", 11)) {
			snprintf(cur->error, sizeof(cur->error), "%.290s", line + 11);
		}
	}
	fclose(f);
	return 0;
}

static const struct sample *last(const struct run *r)
{
	return r->nsamples ? &r->samples[r->nsamples - 1] : NULL;
}

/* Loops counted by T (microseconds), interpolated between samples; -1
 * outside the samples. *READ: the longer of the two samples' readings. */
static double loops_at(const struct run *r, double t, double *read)
{
	int i;

	for (i = 1; i < r->nsamples; i++) {
		const struct sample *a = &r->samples[i - 1], *b = &r->samples[i];

		if (a->t_us <= t && t <= b->t_us) {
			*read = a->read_us > b->read_us ? a->read_us : b->read_us;
			if (b->t_us == a->t_us)
				return b->loops;
			return a->loops + (double)(b->loops - a->loops) * (t - a->t_us) / (b->t_us - a->t_us);
		}
	}
	return -1;
}

/* ---- the checks: 0 pass, 1 fail with the reason in why ---------------- */

static int check_runs(const struct run *r, long n, char *why, size_t len)
{
	const struct sample *s = last(r);

	if (!r->seen) {
		snprintf(why, len, "the guest did not get to this run");
		return 1;
	}
	if (r->error[0]) {
		snprintf(why, len, "the kit could not measure: %s", r->error);
		return 1;
	}
	if (r->nr_loops != n) {
		snprintf(why, len, "the kit counted calls of nr_loops %ld, not %ld", r->nr_loops, n);
		return 1;
	}
	if (!r->status[0] || !s) {
		snprintf(why, len, "the run did not end (the guest stopped: see run/console.log)");
		return 1;
	}
	if (!strcmp(r->status, "timeout")) {
		snprintf(why, len, "the benchmark ran past its time and was killed");
		return 1;
	}
	if (!strncmp(r->status, "signal-", 7)) {
		snprintf(why, len, "the benchmark was killed by signal %s", r->status + 7);
		return 1;
	}
	if (strcmp(r->status, "0")) {
		snprintf(why, len, "the benchmark exited with status %s", r->status);
		return 1;
	}
	if (r->untracked) {
		snprintf(why, len, "the benchmark loaded more BPF programs than the kit can follow (%ld too many)",
			 r->untracked);
		return 1;
	}
	if (!r->loop_progs && r->hidden_progs) {
		snprintf(why, len, "cannot tell whether the programs call bpf_loop: the kernel hides its addresses");
		return 1;
	}
	if (!r->loop_progs) {
		snprintf(why, len, "the benchmark's programs make no bpf_loop call (helper 181) in their translated instructions: the benchmark must measure bpf_loop");
		return 1;
	}
	if (!r->loop_progs_ran) {
		snprintf(why, len, "the program that calls bpf_loop never ran (its run count, from the kernel's BPF statistics, is 0): is it attached where the producers trigger it?");
		return 1;
	}
	if (!s->calls) {
		snprintf(why, len, "the kernel saw no call of bpf_loop with nr_loops = %ld, the --nr_loops given (%llu calls with other figures): does setup() pass --nr_loops to the program?",
			 n, s->other_calls);
		return 1;
	}
	if (s->short_calls) {
		snprintf(why, len, "%llu of the %llu calls of bpf_loop(%ld) ran the callback fewer than %ld times or failed: the callback must return 0 and flags be 0",
			 s->short_calls, s->calls, n, n);
		return 1;
	}
	snprintf(why, len, "%llu program runs, %llu calls of bpf_loop(%ld), %llu loops",
		 s->run_cnt, s->calls, n, s->loops);
	return 0;
}

/* The loops per second the kernel counted in the measured seconds. */
static int kernel_rate(const struct run *r, int warmup, int duration, double *rate, char *why, size_t len)
{
	double from, to, a, b, read_a = 0, read_b = 0;

	if (!r->seen || !r->nsamples || !r->have_first) {
		snprintf(why, len, "no loops counted by the kernel to compare with (see lab5.runs)");
		return 1;
	}
	from = r->first_us + warmup * 1e6;
	to = from + duration * 1e6;
	a = loops_at(r, from, &read_a);
	b = loops_at(r, to, &read_b);
	if (a < 0 || b < 0) {
		snprintf(why, len, "the run ended %.1f s after its first bpf_loop call, before its %d + %d s were over",
			 (last(r)->t_us - r->first_us) / 1e6, warmup, duration);
		return 1;
	}
	if (read_a > MAX_READ_US || read_b > MAX_READ_US) {
		snprintf(why, len, "the kit's reading of the kernel's figures took %.0f ms at the measured seconds' ends (at most %d): something held it up",
			 (read_a > read_b ? read_a : read_b) / 1000, MAX_READ_US / 1000);
		return 1;
	}
	*rate = (b - a) / duration;
	return 0;
}

static int check_agrees(const struct run *r, long n, int warmup, int duration, char *why, size_t len)
{
	double rate, printed, off;

	if (!r->sum.found) {
		snprintf(why, len, "no summary to compare (see lab5.report_format)");
		return 1;
	}
	if (kernel_rate(r, warmup, duration, &rate, why, len))
		return 1;
	if (!(rate > 0)) {
		snprintf(why, len, "the kernel counted no loops of bpf_loop(%ld) in the measured seconds", n);
		return 1;
	}
	printed = r->sum.tput * 1e6;
	off = printed / rate - 1;
	if (off > AGREE || off < -AGREE) {
		snprintf(why, len, "the summary's throughput, %.3f M ops/s, is not the %.3f M loops/s of bpf_loop(%ld) the kernel counted in the same %d s (%+.0f %%, %.0f %% allowed): are hits the loops bpf_loop ran?",
			 r->sum.tput, rate / 1e6, n, duration, off * 100, AGREE * 100);
		return 1;
	}
	snprintf(why, len, "summary %.3f M ops/s, kernel %.3f M loops/s (%+.1f %%)", r->sum.tput, rate / 1e6,
		 off * 100);
	return 0;
}

/* The kernel's ns per loop: its run time of the benchmark's programs over
 * the loops of bpf_loop(nr_loops). */
static int kernel_latency(const struct run *r, double *ns)
{
	const struct sample *s = last(r);

	if (!r->seen || !s || !s->loops || !s->run_time)
		return 1;
	*ns = (double)s->run_time / s->loops;
	return 0;
}

static void figures(const char *tag, const struct run *r, long n, int warmup, int duration)
{
	const struct sample *s = last(r);
	double ns = 0, rate = 0;
	char why[512];

	printf("%s nr_loops=%ld:", tag, n);
	if (!s) {
		printf(" no figures\n");
		return;
	}
	printf(" exit %s, %llu program runs, %llu calls of bpf_loop(%ld) (%llu short), %llu loops, %llu other calls",
	       r->status[0] ? r->status : "?", s->run_cnt, s->calls, n, s->short_calls, s->loops, s->other_calls);
	if (!kernel_latency(r, &ns))
		printf(", kernel %.1f ns/loop", ns);
	if (!kernel_rate(r, warmup, duration, &rate, why, sizeof(why)))
		printf(", kernel %.3f M loops/s measured", rate / 1e6);
	if (r->sum.found)
		printf("; summary %.3f M ops/s, %.3f ns/op", r->sum.tput, r->sum.latency);
	printf("; misses %llu\n", r->misses);
}

/* ---- main ------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int pick(const char *seed)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *seed; seed++)
		h = (h ^ (unsigned char)*seed) * 0x100000001b3ULL;
	h = mix(h);
	printf("%ld %ld\n", SMALL_MIN + (long)(h % (SMALL_MAX - SMALL_MIN + 1)),
	       LARGE_MIN + (long)(mix(h) % (LARGE_MAX - LARGE_MIN + 1)));
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-judge --pick SEED\n"
		"       bench-judge --warmup W --duration D --small N --large M [--figures] FILE\n"
		"       bench-judge --ktap [--tests TABLE] [--build-status FILE] [--guest-stopped TEXT]\n"
		"                   --warmup W --duration D --small N --large M FILE\n");
	return 2;
}

/* One check on both runs: the first failure's reason, with its run, or
 * both runs' figures. */
static int both(int f1, long n1, const char *why1, int f2, long n2, const char *why2,
		char *out, size_t len)
{
	if (f1)
		snprintf(out, len, "nr_loops=%ld: %s", n1, why1);
	else if (f2)
		snprintf(out, len, "nr_loops=%ld: %s", n2, why2);
	else
		snprintf(out, len, "nr_loops=%ld: %s; nr_loops=%ld: %s", n1, why1, n2, why2);
	return f1 || f2;
}

static int ktap;
static struct ktap out;
/* The KTAP's tests: lab 5's of grading/tests.list, in its order. */
static const char *test_ids[REGISTRY_MAX_TESTS];
static int nr_tests;
static struct ktap_held held;
static const char *stopped;

static void verdict(const char *id, int failed, const char *why, int *any)
{
	char more[600];

	*any |= failed;
	if (!ktap) {
		printf("%s\t%s\t%s\n", id, failed ? "fail" : "pass", why);
		return;
	}
	if (failed && stopped)
		snprintf(more, sizeof(more), "; the guest did not finish: %s", stopped);
	if (!ktap_hold(&held, id, NULL, failed, why, failed && stopped ? more : NULL)) {
		fprintf(stderr, "bench-judge: more than %d verdicts\n", KTAP_HELD_MAX);
		exit(2);
	}
}

/* The held verdicts in the table's order; 2 when the two disagree. */
static int ktap_finish(int any)
{
	int st = ktap_print_held(&out, &held, test_ids, nr_tests, "bench-judge");

	ktap_end(&out);
	return st ? st : any;
}

/* lab5.builds from the build's status file; 0 when it built. */
static int build_verdict(const char *status, int *any)
{
	char line[1024], word[32] = "", why[600] = "";
	FILE *f = fopen(status, "r");

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "verdict\t", 8))
			snprintf(word, sizeof(word), "%.31s", line + 8);
		else if (!strncmp(line, "reason\t", 7))
			snprintf(why, sizeof(why), "%.500s", line + 7);
	}
	if (f)
		fclose(f);
	if (!f)
		snprintf(why, sizeof(why), "no build status (%s)", status);
	verdict("lab5.builds", strcmp(word, "ok") != 0, why[0] ? why : "the build did not finish", any);
	return strcmp(word, "ok") != 0;
}

int main(int argc, char **argv)
{
	long n = -1, m = -1, warmup = -1, duration = -1;
	const char *file = NULL, *build = NULL, *tests = NULL;
	char why[1024], why2[1024], tmp[2200], err[600];
	double ns_small, ns_large;
	int i, f, any = 0, show = 0, runs_ok;
	const char *not_real;

	if (argc == 3 && !strcmp(argv[1], "--pick"))
		return pick(argv[2]);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--figures"))
			show = 1;
		else if (!strcmp(argv[i], "--ktap"))
			ktap = 1;
		else if (i + 1 < argc && !strcmp(argv[i], "--build-status"))
			build = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--tests"))
			tests = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--guest-stopped"))
			stopped = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--warmup"))
			warmup = atol(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--duration"))
			duration = atol(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--small"))
			n = atol(argv[++i]);
		else if (i + 1 < argc && !strcmp(argv[i], "--large"))
			m = atol(argv[++i]);
		else if (argv[i][0] == '-' || file)
			return usage();
		else
			file = argv[i];
	}
	if (!file || n <= 0 || m <= 0 || warmup <= 0 || duration <= 0)
		return usage();
	if (ktap) {
		nr_tests = registry_where_ids(tests, "lab5", test_ids, REGISTRY_MAX_TESTS, err, sizeof(err));
		if (nr_tests < 0) {
			fprintf(stderr, "bench-judge: %s\n", err);
			return 2;
		}
		ktap_begin(&out, stdout, "lab5", nr_tests);
		if (build && build_verdict(build, &any)) {
			stopped = NULL;
			for (i = 0; i < nr_tests; i++)
				if (strcmp(test_ids[i], "lab5.builds"))
					verdict(test_ids[i], 1, "not built", &any);
			return ktap_finish(1);
		}
	}
	if (read_file(file))
		return 2;
	if (show) {
		figures("small", &small, n, warmup, duration);
		figures("large", &large, m, warmup, duration);
		return 0;
	}

	f = both(check_runs(&small, n, why, sizeof(why)), n, why,
		 check_runs(&large, m, why2, sizeof(why2)), m, why2, tmp, sizeof(tmp));
	verdict("lab5.runs", f, tmp, &any);
	runs_ok = !f;
	not_real = "the runs behind it are not ones lab5.runs found real (see its reason): a figure counts only for those";

	/* A summary is worth its format point only as the report of runs
	 * the kernel saw: a well-formed line without them is not a report. */
	f = check_summary(&small.sum, small.bad_summary, why, sizeof(why));
	if (f)
		snprintf(tmp, sizeof(tmp), "nr_loops=%ld: %s", n, why);
	else if ((f = check_summary(&large.sum, large.bad_summary, why, sizeof(why))))
		snprintf(tmp, sizeof(tmp), "nr_loops=%ld: %s", m, why);
	else if ((f = !runs_ok))
		snprintf(tmp, sizeof(tmp), "the summary lines are upstream's, but %s", not_real);
	else
		snprintf(tmp, sizeof(tmp), "latency %.3f ns/op at nr_loops=%ld, %.3f at %ld",
			 small.sum.latency, n, large.sum.latency, m);
	verdict("lab5.report_format", f, tmp, &any);

	f = both(check_agrees(&small, n, warmup, duration, why, sizeof(why)), n, why,
		 check_agrees(&large, m, warmup, duration, why2, sizeof(why2)), m, why2, tmp, sizeof(tmp));
	if (!f && !runs_ok)
		snprintf(tmp, sizeof(tmp), "%s", not_real);
	verdict("lab5.report_agrees", f || !runs_ok, tmp, &any);

	if (!runs_ok) {
		verdict("lab5.latency_falls", 1, not_real, &any);
	} else if (kernel_latency(&small, &ns_small) || kernel_latency(&large, &ns_large)) {
		verdict("lab5.latency_falls", 1, "no kernel figures to compare (see lab5.runs)", &any);
	} else if (ns_large < ns_small) {
		snprintf(tmp, sizeof(tmp), "%.1f ns per loop at nr_loops=%ld, %.1f at %ld (the kernel's run time)",
			 ns_small, n, ns_large, m);
		verdict("lab5.latency_falls", 0, tmp, &any);
	} else {
		snprintf(tmp, sizeof(tmp), "%.1f ns per loop at nr_loops=%ld (the kernel's run time over the loops it counted) is not below %.1f at nr_loops=%ld",
			 ns_large, m, ns_small, n);
		verdict("lab5.latency_falls", 1, tmp, &any);
	}
	return ktap ? ktap_finish(any) : any;
}
