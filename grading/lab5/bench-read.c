// SPDX-License-Identifier: GPL-2.0
/*
 * bench-read: read what lab5-bench printed in the guest.
 *
 *   bench-read --summary [--run TAG] FILE   the summary line, as numbers
 *   bench-read --facts [--run TAG] FILE     judge what the programs did
 *   bench-read --csv KERNEL FILE            every run of FILE as CSV rows
 *
 * FILE holds one or more runs, each between the lines "lab5-run TAG" and
 * "lab5-exit TAG STATUS" (the guest's script prints them); --run picks one,
 * else the whole file is one run.
 *
 * --summary parses upstream's ops_report_final line,
 *   Summary: throughput T ± S M ops/s (P M ops/prod), latency L ns/op
 * and prints "T<TAB>S<TAB>P<TAB>L". It fails when the line is missing or
 * does not parse, or when its numbers disagree with each other (L must be
 * 1000 / P within 1 %).
 *
 * --facts reads the "lab5-fact" lines (grading/lab5/bench.c) and passes
 * when the run exited 0, its programs ran (run_cnt > 0), make calls of
 * the bpf_loop helper, and the hits are a whole multiple of run_cnt *
 * nr_loops: each run of the program counted nr_loops per bpf_loop call, in
 * loops. It prints "ok: ..." or the reason.
 *
 * --csv prints "kernel,nr_loops,producers,throughput_mops,stddev_mops,
 * latency_ns,status" per run, from tags "nr_loops=N producers=P" (status
 * 0 and the summary's numbers, or the status and empty numbers).
 *
 * --compare A B exits 0 when the number A is below B (scripts compare
 * latencies with it).
 *
 * Exit status: 0 ok, 1 the check failed, 2 usage or I/O error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096

struct summary {
	double tput, sd, per_prod, latency;
	int found;
};

struct facts {
	long nr_loops, producers, hits_total, run_cnt, loop_calls;
	int have_nr_loops, have_hits, have_run_cnt, have_loop_calls;
};

struct run {
	char tag[256];
	int status;		/* -1: no lab5-exit line */
	struct summary sum;
	struct facts facts;
	char bad_summary[200];	/* a Summary line that did not parse */
};

/* Upstream's format; "±" is UTF-8. */
static int parse_summary(const char *line, struct summary *s)
{
	int end = -1;

	if (sscanf(line, "Summary: throughput %lf \xc2\xb1 %lf M ops/s (%lfM ops/prod), latency %lf ns/op%n",
		   &s->tput, &s->sd, &s->per_prod, &s->latency, &end) != 4 || end < 0)
		return -1;
	while (line[end] == ' ' || line[end] == '\r' || line[end] == '\n')
		end++;
	return line[end] ? -1 : 0;
}

static void parse_fact(const char *line, struct facts *f)
{
	char name[64];
	long v;

	if (sscanf(line, "lab5-fact %63s %ld", name, &v) != 2)
		return;
	if (!strcmp(name, "nr_loops"))
		f->nr_loops = v, f->have_nr_loops = 1;
	else if (!strcmp(name, "producers"))
		f->producers = v;
	else if (!strcmp(name, "hits_total"))
		f->hits_total = v, f->have_hits = 1;
	else if (!strcmp(name, "run_cnt"))
		f->run_cnt = v, f->have_run_cnt = 1;
	else if (!strcmp(name, "loop_calls"))
		f->loop_calls = v, f->have_loop_calls = 1;
}

/* Reads FILE's runs; the whole file is one run (tag "") when it has no
 * "lab5-run" line. Returns the number of runs, -1 on error. */
static int read_runs(const char *path, struct run **out)
{
	char line[MAX_LINE];
	struct run *runs = NULL, *cur = NULL;
	int n = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		int is_run = !strncmp(line, "lab5-run ", 9);

		line[strcspn(line, "\n")] = '\0';
		/* An untagged run that saw nothing yet is the preamble: reuse it. */
		if (is_run && cur && !cur->tag[0] && !cur->sum.found && !cur->facts.have_hits)
			cur = NULL, n--;
		if (is_run || !cur) {
			struct run *r = realloc(runs, (n + 1) * sizeof(*runs));

			if (!r) {
				fclose(f);
				free(runs);
				return -1;
			}
			runs = r;
			cur = &runs[n++];
			memset(cur, 0, sizeof(*cur));
			cur->status = -1;
			if (is_run) {
				snprintf(cur->tag, sizeof(cur->tag), "%.255s", line + 9);
				continue;
			}
		}
		if (!strncmp(line, "lab5-exit ", 10)) {
			char *sp = strrchr(line, ' ');

			cur->status = atoi(sp + 1);
			continue;
		}
		if (!strncmp(line, "Summary:", 8)) {
			struct summary s = {};

			if (parse_summary(line, &s) == 0) {
				s.found = 1;
				cur->sum = s;
				cur->bad_summary[0] = '\0';
			} else {
				snprintf(cur->bad_summary, sizeof(cur->bad_summary), "%.199s", line);
			}
		}
		if (!strncmp(line, "lab5-fact ", 10))
			parse_fact(line, &cur->facts);
	}
	fclose(f);
	*out = runs;
	return n;
}

static struct run *find_run(struct run *runs, int n, const char *tag)
{
	int i;

	for (i = 0; i < n; i++)
		if (!tag || !strcmp(runs[i].tag, tag))
			return &runs[i];
	return NULL;
}

static int check_summary(const struct run *r, int print)
{
	const struct summary *s = &r->sum;

	if (!s->found) {
		if (r->bad_summary[0])
			printf("the summary line is not in upstream's format (ops_report_final): '%s'\n",
			       r->bad_summary);
		else
			printf("no summary line ('Summary: throughput ... latency ... ns/op'): does report_final print it?\n");
		return 1;
	}
	if (!(s->tput > 0) || !(s->per_prod > 0) || !isfinite(s->latency) || !(s->latency > 0)) {
		printf("the summary's numbers are not positive: throughput %g, latency %g\n",
		       s->tput, s->latency);
		return 1;
	}
	if (fabs(s->latency * s->per_prod / 1000.0 - 1) > 0.01 + 0.0005 / s->per_prod / s->latency * 1000) {
		printf("the summary disagrees with itself: latency %.3f ns/op is not 1000 / %.3f M ops/prod\n",
		       s->latency, s->per_prod);
		return 1;
	}
	if (print)
		printf("%.3f\t%.3f\t%.3f\t%.3f\n", s->tput, s->sd, s->per_prod, s->latency);
	return 0;
}

static int check_facts(const struct run *r)
{
	const struct facts *f = &r->facts;
	double per;
	long k;

	if (r->status > 0) {
		printf("the benchmark exited with status %d\n", r->status);
		return 1;
	}
	if (!f->have_hits || !f->have_run_cnt || !f->have_loop_calls || !f->have_nr_loops) {
		printf("the runner did not get to the end (no facts): see the run's output\n");
		return 1;
	}
	if (f->nr_loops <= 0) {
		printf("the run was given no --nr_loops\n");
		return 1;
	}
	if (f->run_cnt <= 0) {
		printf("no BPF program ran: is it attached where the producers trigger it?\n");
		return 1;
	}
	if (f->loop_calls < 0) {
		printf("cannot tell whether the program calls bpf_loop: the kernel hides its addresses\n");
		return 1;
	}
	if (f->loop_calls == 0) {
		printf("the programs make no bpf_loop call: the benchmark must measure bpf_loop\n");
		return 1;
	}
	if (f->hits_total <= 0) {
		printf("the program ran %ld times but measure() reported no hits\n", f->run_cnt);
		return 1;
	}
	per = (double)f->hits_total / ((double)f->run_cnt * f->nr_loops);
	k = lround(per);
	if (k < 1 || (long double)k * f->run_cnt * f->nr_loops != f->hits_total) {
		printf("hits are not counted in loops: %ld hits over %ld program runs is %.4f per run, not a whole multiple of nr_loops = %ld (does measure() take the counter, with atomic_swap, rather than read it?)\n",
		       f->hits_total, f->run_cnt, per * f->nr_loops, f->nr_loops);
		return 1;
	}
	printf("ok: %ld program runs, %ld bpf_loop calls of %ld loops each per run, %ld hits\n",
	       f->run_cnt, k, f->nr_loops, f->hits_total);
	return 0;
}

static void csv(const char *kernel, struct run *runs, int n)
{
	int i;

	printf("kernel,nr_loops,producers,throughput_mops,stddev_mops,latency_ns,status\n");
	for (i = 0; i < n; i++) {
		long loops = -1, prod = -1;
		const char *p;

		p = strstr(runs[i].tag, "nr_loops=");
		if (p)
			loops = atol(p + 9);
		p = strstr(runs[i].tag, "producers=");
		if (p)
			prod = atol(p + 10);
		if (loops < 0 || prod < 0)
			continue;
		if (runs[i].status == 0 && runs[i].sum.found)
			printf("%s,%ld,%ld,%.3f,%.3f,%.3f,0\n", kernel, loops, prod, runs[i].sum.tput,
			       runs[i].sum.sd, runs[i].sum.latency);
		else
			printf("%s,%ld,%ld,,,,%d\n", kernel, loops, prod,
			       runs[i].status ? runs[i].status : 1);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-read (--summary|--facts) [--run TAG] FILE\n"
		"       bench-read --csv KERNEL FILE\n"
		"       bench-read --compare A B\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *mode = NULL, *tag = NULL, *kernel = NULL, *file = NULL;
	struct run *runs, *r;
	int i, n;

	if (argc == 4 && !strcmp(argv[1], "--compare")) {
		char *e1, *e2;
		double a = strtod(argv[2], &e1), b = strtod(argv[3], &e2);

		if (*e1 || *e2 || e1 == argv[2] || e2 == argv[3])
			return usage();
		return a < b ? 0 : 1;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--summary") || !strcmp(argv[i], "--facts"))
			mode = argv[i];
		else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
			mode = argv[i], kernel = argv[++i];
		else if (!strcmp(argv[i], "--run") && i + 1 < argc)
			tag = argv[++i];
		else if (argv[i][0] == '-' || file)
			return usage();
		else
			file = argv[i];
	}
	if (!mode || !file)
		return usage();
	n = read_runs(file, &runs);
	if (n < 0)
		return 2;
	if (kernel) {
		csv(kernel, runs, n);
		return 0;
	}
	r = find_run(runs, n, tag);
	if (!r) {
		printf("no run '%s' in %s: the guest did not get to it\n", tag ? tag : "", file);
		return 1;
	}
	if (!strcmp(mode, "--summary"))
		return check_summary(r, 1);
	return check_facts(r);
}
