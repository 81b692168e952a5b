// SPDX-License-Identifier: GPL-2.0
/*
 * verif-report: lab 4's figures, read from the "verif ..." lines that
 * grading/lab4/verif-load prints in the guest.
 *
 *   verif-report table [--accel WORD] [--kernel WORD] [--csv FILE] RECORDS...
 *       the ratios unrolled / bpf_loop beside upstream's, then one row per
 *       program (verification time, processed insns, states, stack depth);
 *       --csv writes the same rows as CSV.
 *   verif-report cost [--accel WORD] BEFORE_LABEL BEFORE_RECORDS AFTER_LABEL AFTER_RECORDS
 *       lab 7's cost of soundness, markdown: each program's figures on the
 *       kernel before the fix and after it, and the change (or the
 *       verifier's reason, for a program one of them refused).
 *
 * RECORDS are files; a later line for a program replaces an earlier one
 * (so a cached figure can come first and a fresh one override it); lines
 * that are not "verif ..." are skipped. Lab 4's verdicts are lab4-judge's.
 * Exit status: 0 done, 2 usage or I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RECS 32

struct rec {
	char name[64];
	int loaded, err, loop_calls;
	long long wall_usec, verified, processed, max_states, total_states;
	long long peak_states, mark_read, verif_usec, xlated;
	char stack[64];
	char reason[400];
};

static struct rec recs[MAX_RECS];
static int nr_recs;

/* The figures of upstream's commit that added the bpf_loop versions
 * ("selftests/bpf: measure bpf_loop verifier performance", November 2021,
 * on its author's machine): processed insns and verification time in usec. */
static const struct {
	const char *unrolled, *loop;
	long long insns_unrolled, usec_unrolled, insns_loop, usec_loop;
} upstream[] = {
	{ "pyperf600", "pyperf600_bpf_loop", 626838, 29700000, 10518, 148000 },
	{ "strobemeta", "strobemeta_bpf_loop", 554252, 6800000, 1513, 32000 },
};

#define NR_PAIRS (sizeof(upstream) / sizeof(upstream[0]))

static struct rec *find_in(struct rec *in, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(in[i].name, name))
			return &in[i];
	return NULL;
}

static struct rec *find(const char *name)
{
	return find_in(recs, nr_recs, name);
}

static long long num(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

static void word(const char *line, const char *key, char *out, size_t size)
{
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	out[0] = '\0';
	p = strstr(line, pat);
	if (!p)
		return;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

static int read_records(const char *file)
{
	char line[4096];
	FILE *f = fopen(file, "r");

	if (!f) {
		fprintf(stderr, "verif-report: cannot read %s\n", file);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		struct rec r, *old;
		const char *p;

		if (strncmp(line, "verif ", 6))
			continue;
		memset(&r, 0, sizeof(r));
		word(line, "name", r.name, sizeof(r.name));
		if (!r.name[0])
			continue;
		r.loaded = num(line, "loaded") == 1;
		r.err = (int)num(line, "errno");
		r.wall_usec = num(line, "wall_usec");
		r.verified = num(line, "verified_insns");
		r.processed = num(line, "processed");
		r.max_states = num(line, "max_states_per_insn");
		r.total_states = num(line, "total_states");
		r.peak_states = num(line, "peak_states");
		r.mark_read = num(line, "mark_read");
		r.verif_usec = num(line, "verif_usec");
		r.xlated = num(line, "xlated");
		r.loop_calls = (int)num(line, "loop_calls");
		word(line, "stack", r.stack, sizeof(r.stack));
		p = strstr(line, " reason=");
		if (p) {
			snprintf(r.reason, sizeof(r.reason), "%s", p + strlen(" reason="));
			r.reason[strcspn(r.reason, "\n")] = '\0';
		}
		old = find(r.name);
		if (old)
			*old = r;
		else if (nr_recs < MAX_RECS)
			recs[nr_recs++] = r;
	}
	fclose(f);
	return 0;
}

/* 1234567 -> "1,234,567"; negative -> "-". */
static const char *grouped(long long v, char *buf, size_t size)
{
	char digits[32];
	int n, i, j = 0;

	if (v < 0) {
		snprintf(buf, size, "-");
		return buf;
	}
	n = snprintf(digits, sizeof(digits), "%lld", v);
	for (i = 0; i < n && j + 2 < (int)size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
	return buf;
}

static const char *seconds(long long usec, char *buf, size_t size)
{
	if (usec < 0)
		snprintf(buf, size, "-");
	else if (usec < 10000000)
		snprintf(buf, size, "%.3f s", usec / 1e6);
	else
		snprintf(buf, size, "%.1f s", usec / 1e6);
	return buf;
}

static const char *ratio(long long a, long long b, char *buf, size_t size)
{
	if (a <= 0 || b <= 0)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.1fx", (double)a / b);
	return buf;
}

static int table(const char *accel, const char *kernel, const char *csv)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32];
	unsigned int k;
	int i;

	printf("Verifier cost, unrolled / bpf_loop (here: %s; upstream: its commit, the author's machine)\n\n",
	       accel);
	printf("%-12s %14s %14s   %14s %14s\n", "program", "insns here", "insns upstream",
	       "time here", "time upstream");
	for (k = 0; k < NR_PAIRS; k++) {
		struct rec *u = find(upstream[k].unrolled), *l = find(upstream[k].loop);

		printf("%-12s %14s %14s   %14s %14s\n", upstream[k].unrolled,
		       u && l && u->loaded && l->loaded ?
		       ratio(u->processed, l->processed, b1, sizeof(b1)) : "-",
		       ratio(upstream[k].insns_unrolled, upstream[k].insns_loop, b2, sizeof(b2)),
		       u && l && u->loaded && l->loaded ?
		       ratio(u->verif_usec, l->verif_usec, b3, sizeof(b3)) : "-",
		       ratio(upstream[k].usec_unrolled, upstream[k].usec_loop, b4, sizeof(b4)));
	}
	printf("\n%-20s %6s %12s %15s %13s %12s %12s %8s\n", "program", "loaded",
	       "verif time", "processed insns", "total states", "peak states",
	       "stack depth", "bpf_loop");
	for (i = 0; i < nr_recs; i++) {
		struct rec *r = &recs[i];

		printf("%-20s %6s %12s %15s %13s %12s %12s %8s\n", r->name,
		       r->loaded ? "yes" : "NO", seconds(r->verif_usec, b1, sizeof(b1)),
		       grouped(r->processed, b2, sizeof(b2)),
		       grouped(r->total_states, b3, sizeof(b3)),
		       grouped(r->peak_states, b4, sizeof(b4)), r->stack[0] ? r->stack : "-",
		       r->loop_calls < 0 ? "-" : grouped(r->loop_calls, b5, sizeof(b5)));
		if (!r->loaded && r->reason[0])
			printf("    refused (errno %d): %s\n", r->err, r->reason);
	}
	for (i = 0; i < nr_recs; i++)
		if (recs[i].loaded && recs[i].loop_calls == 0 && strstr(recs[i].name, "_bpf_loop")) {
			printf("\nbpf_loop: the calls to helper 181 left in the program the kernel runs. "
			       "A 0 beside a\nbpf_loop version: this kernel inlined them (upstream does, "
			       "and lab 6's kernel),\nor the program calls it nowhere.\n");
			break;
		}
	printf("\nupstream (its commit, the author's machine):\n");
	for (k = 0; k < NR_PAIRS; k++) {
		printf("%-20s %6s %12s %15s\n", upstream[k].unrolled, "",
		       seconds(upstream[k].usec_unrolled, b1, sizeof(b1)),
		       grouped(upstream[k].insns_unrolled, b2, sizeof(b2)));
		printf("%-20s %6s %12s %15s\n", upstream[k].loop, "",
		       seconds(upstream[k].usec_loop, b1, sizeof(b1)),
		       grouped(upstream[k].insns_loop, b2, sizeof(b2)));
	}
	if (csv) {
		FILE *f = fopen(csv, "w");

		if (!f) {
			fprintf(stderr, "verif-report: cannot write %s\n", csv);
			return 2;
		}
		fprintf(f, "program,loaded,verification_time_usec,wall_usec,processed_insns,"
			"verified_insns,total_states,peak_states,max_states_per_insn,mark_read,"
			"stack_depth,xlated_insns,bpf_loop_calls,accel,kernel\n");
		for (i = 0; i < nr_recs; i++) {
			struct rec *r = &recs[i];

			fprintf(f, "%s,%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%s,%lld,%d,%s,%s\n",
				r->name, r->loaded, r->verif_usec, r->wall_usec, r->processed,
				r->verified, r->total_states, r->peak_states, r->max_states,
				r->mark_read, r->stack[0] ? r->stack : "-", r->xlated,
				r->loop_calls, accel, kernel);
		}
		if (fclose(f)) {
			fprintf(stderr, "verif-report: cannot write %s\n", csv);
			return 2;
		}
	}
	return 0;
}

/* One program's figures on one kernel, for a table cell. */
static const char *cell(const struct rec *r, char *buf, size_t size)
{
	char b1[32], b2[32], b3[32];

	if (!r)
		snprintf(buf, size, "not run");
	else if (!r->loaded)
		snprintf(buf, size, "refused: %s", r->reason[0] ? r->reason : "no reason given");
	else
		snprintf(buf, size, "%s insns, %s states, %s", grouped(r->processed, b1, sizeof(b1)),
			 grouped(r->total_states, b2, sizeof(b2)), seconds(r->verif_usec, b3, sizeof(b3)));
	return buf;
}

static int cost(const char *accel, const char *before_label, const char *before_file,
		const char *after_label, const char *after_file)
{
	static struct rec before[MAX_RECS];
	char b1[600], b2[600], change[64];
	int nr_before, i, pass;

	if (read_records(before_file))
		return 2;
	memcpy(before, recs, sizeof(recs));
	nr_before = nr_recs;
	nr_recs = 0;
	memset(recs, 0, sizeof(recs));
	if (read_records(after_file))
		return 2;
	printf("## Lab 7: what soundness costs the verifier\n\n");
	printf("The verifier's own counts for lab 4's bpf_loop programs, on the kernel before\n"
	       "the fix (`%s`) and after it (`%s`), measured under %s.\n\n", before_label,
	       after_label, accel);
	printf("| program | before (`%s`) | after (`%s`) | change in processed insns |\n"
	       "|---|---|---|---|\n", before_label, after_label);
	/* The programs of the later run first, then any only the earlier had. */
	for (pass = 0; pass < 2; pass++) {
		int n = pass ? nr_before : nr_recs;

		for (i = 0; i < n; i++) {
			const char *name = pass ? before[i].name : recs[i].name;
			const struct rec *a = find(name), *b = find_in(before, nr_before, name);

			if (pass && a)
				continue;
			if (a && b && a->loaded && b->loaded && b->processed > 0)
				snprintf(change, sizeof(change), "%+.1f%%",
					 100.0 * (a->processed - b->processed) / b->processed);
			else if (a && !a->loaded && b && b->loaded)
				snprintf(change, sizeof(change), "refused after the fix");
			else
				snprintf(change, sizeof(change), "-");
			printf("| `%s` | %s | %s | %s |\n", name, cell(b, b1, sizeof(b1)),
			       cell(a, b2, sizeof(b2)), change);
		}
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: verif-report table [--accel WORD] [--kernel WORD] [--csv FILE] RECORDS...\n"
		"       verif-report cost [--accel WORD] BEFORE_LABEL BEFORE_RECORDS AFTER_LABEL AFTER_RECORDS\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *accel = "?", *kernel = "?", *csv = NULL;
	int i = 2;

	if (argc >= 2 && !strcmp(argv[1], "cost")) {
		if (argc >= 4 && !strcmp(argv[2], "--accel"))
			accel = argv[3], i = 4;
		if (argc - i != 4)
			return usage();
		return cost(accel, argv[i], argv[i + 1], argv[i + 2], argv[i + 3]);
	}
	if (argc < 3 || strcmp(argv[1], "table"))
		return usage();
	for (; i < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (i + 1 >= argc)
			return usage();
		if (!strcmp(argv[i], "--accel"))
			accel = argv[i + 1];
		else if (!strcmp(argv[i], "--kernel"))
			kernel = argv[i + 1];
		else if (!strcmp(argv[i], "--csv"))
			csv = argv[i + 1];
		else
			return usage();
	}
	if (i >= argc)
		return usage();
	for (; i < argc; i++)
		if (read_records(argv[i]))
			return 2;
	return table(accel, kernel, csv);
}
