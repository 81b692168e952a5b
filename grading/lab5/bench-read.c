// SPDX-License-Identifier: GPL-2.0
/*
 * bench-read: read what lab5-bench printed in the guest (make bench-loop's
 * sweep; grading reads the accountant's figures with bench-judge).
 *
 *   bench-read --summary [--run TAG] FILE   the summary line, as numbers
 *   bench-read --csv KERNEL FILE            every run of FILE as CSV rows
 *
 * FILE holds one or more runs, each between the lines "lab5-run TAG" and
 * "lab5-exit TAG STATUS" (the guest's script prints them); --run picks one,
 * else the whole file is one run.
 *
 * --summary parses upstream's ops_report_final line (summary.h),
 *   Summary: throughput T ± S M ops/s (P M ops/prod), latency L ns/op
 * and prints "T<TAB>S<TAB>P<TAB>L". It fails when the line is missing or
 * does not parse, or when its numbers disagree with each other (L must be
 * 1000 / P within 1 %).
 *
 * --csv prints "kernel,nr_loops,producers,throughput_mops,stddev_mops,
 * latency_ns,status" per run, from tags "nr_loops=N producers=P" (status
 * 0 and the summary's numbers, or the status and empty numbers).
 *
 * Exit status: 0 ok, 1 the check failed, 2 usage or I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "summary.h"

#define MAX_LINE 4096

struct run {
	char tag[256];
	int status;		/* -1: no lab5-exit line */
	struct summary sum;
	char bad_summary[200];	/* a Summary line that did not parse */
};

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
		if (is_run && cur && !cur->tag[0] && !cur->sum.found)
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

static int print_summary(const struct run *r)
{
	const struct summary *s = &r->sum;
	char why[512];

	if (check_summary(s, r->bad_summary, why, sizeof(why))) {
		printf("%s\n", why);
		return 1;
	}
	printf("%.3f\t%.3f\t%.3f\t%.3f\n", s->tput, s->sd, s->per_prod, s->latency);
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
	fprintf(stderr, "usage: bench-read --summary [--run TAG] FILE\n"
		"       bench-read --csv KERNEL FILE\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *mode = NULL, *tag = NULL, *kernel = NULL, *file = NULL;
	struct run *runs, *r;
	int i, n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--summary"))
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
	return print_summary(r);
}
