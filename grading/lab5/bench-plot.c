// SPDX-License-Identifier: GPL-2.0
/*
 * bench-plot: tables, a plot and a report from the benchmark's CSV files.
 *
 *   bench-plot --table LOOP.csv             latency per loop, as a text table
 *   bench-plot --svg LOOP.csv               the plot, as SVG on stdout
 *   bench-plot --report LOOP.csv VERIF.csv ACCEL SVG [GRADE.csv]
 *                                           the report, markdown
 *
 * LOOP.csv is what make bench-loop writes (bench-read --csv):
 *   kernel,nr_loops,producers,throughput_mops,stddev_mops,latency_ns,status
 * latency_ns is nanoseconds per loop iteration (per producer thread).
 * The plot has nr_loops on a log axis and ns per loop on a log axis, one
 * line per kernel and thread count. VERIF.csv is make verif-scale's
 *   program,processed_insns,verification_time_usec,... (an optional
 *   variant column; verification_usec is read as well)
 * and may be missing ("-" or a file that does not exist): the report then
 * says so. A variant whose name has "loop" in it is the bpf_loop version,
 * any other the unrolled one. ACCEL is the accelerator the guest ran under,
 * SVG the plot's path for the report's link. GRADE.csv, when given and
 * present, is make bench-grade's record of make grade's rate:
 *   date,submissions,jobs,seconds,per_hour,accel,cores
 * one row per run; the report lists every run.
 *
 * Exit status: 0 done, 1 bad input (named on stderr), 2 usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_ROWS 4096
#define MAX_COLS 16
#define MAX_SERIES 32

struct table {
	int nrows, ncols;
	char *head[MAX_COLS];
	char *cell[MAX_ROWS][MAX_COLS];
};

static int read_csv(const char *path, struct table *t)
{
	char line[1024];
	FILE *f = fopen(path, "r");
	int first = 1;

	memset(t, 0, sizeof(*t));
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *field;
		int c = 0;

		line[strcspn(line, "\r\n")] = '\0';
		if (!*line)
			continue;
		if (!first && t->nrows == MAX_ROWS)
			break;
		while ((field = strsep(&p, ",")) && c < MAX_COLS) {
			if (first)
				t->head[c] = strdup(field);
			else
				t->cell[t->nrows][c] = strdup(field);
			c++;
		}
		if (first)
			t->ncols = c, first = 0;
		else
			t->nrows++;
	}
	fclose(f);
	return first ? -1 : 0;
}

static int col(const struct table *t, const char *name)
{
	int c;

	for (c = 0; c < t->ncols; c++)
		if (!strcmp(t->head[c], name))
			return c;
	return -1;
}

static const char *get(const struct table *t, int r, int c)
{
	return c >= 0 && t->cell[r][c] ? t->cell[r][c] : "";
}

/* One series: the points of one kernel and thread count. */
struct series {
	char kernel[128];
	long producers;
	int n;
	double x[64], y[64];
};

static struct series series[MAX_SERIES];
static int nseries;

static int load_loop(const char *path, struct table *t)
{
	static const char *need[] = { "kernel", "nr_loops", "producers", "latency_ns", "status" };
	int r, i, ck, cn, cp, cl, cs;

	if (read_csv(path, t)) {
		fprintf(stderr, "bench-plot: cannot read %s: run 'make bench-loop' first\n", path);
		return -1;
	}
	for (i = 0; i < 5; i++)
		if (col(t, need[i]) < 0) {
			fprintf(stderr, "bench-plot: %s has no column '%s' (not a bench-loop CSV)\n", path, need[i]);
			return -1;
		}
	ck = col(t, "kernel"), cn = col(t, "nr_loops"), cp = col(t, "producers");
	cl = col(t, "latency_ns"), cs = col(t, "status");
	for (r = 0; r < t->nrows; r++) {
		double x = atof(get(t, r, cn)), y = atof(get(t, r, cl));
		long p = atol(get(t, r, cp));
		struct series *s = NULL;

		if (strcmp(get(t, r, cs), "0") || x <= 0 || y <= 0)
			continue;
		for (i = 0; i < nseries; i++)
			if (!strcmp(series[i].kernel, get(t, r, ck)) && series[i].producers == p)
				s = &series[i];
		if (!s) {
			if (nseries == MAX_SERIES)
				continue;
			s = &series[nseries++];
			snprintf(s->kernel, sizeof(s->kernel), "%s", get(t, r, ck));
			s->producers = p;
		}
		if (s->n < 64) {
			s->x[s->n] = x;
			s->y[s->n++] = y;
		}
	}
	if (!nseries) {
		fprintf(stderr, "bench-plot: %s has no successful run (status 0 with a latency)\n", path);
		return -1;
	}
	return 0;
}

static void table(void)
{
	double xs[64];
	int nx = 0, i, j, k;

	for (i = 0; i < nseries; i++)
		for (j = 0; j < series[i].n; j++) {
			for (k = 0; k < nx && xs[k] != series[i].x[j]; k++)
				;
			if (k == nx && nx < 64)
				xs[nx++] = series[i].x[j];
		}
	for (i = 1; i < nx; i++)
		for (k = i; k > 0 && xs[k - 1] > xs[k]; k--) {
			double tmp = xs[k];

			xs[k] = xs[k - 1];
			xs[k - 1] = tmp;
		}
	printf("ns per loop (lower is better)\n%10s", "nr_loops");
	for (i = 0; i < nseries; i++)
		printf("  %14.14s p=%-2ld", series[i].kernel, series[i].producers);
	printf("\n");
	for (k = 0; k < nx; k++) {
		printf("%10.0f", xs[k]);
		for (i = 0; i < nseries; i++) {
			double v = -1;

			for (j = 0; j < series[i].n; j++)
				if (series[i].x[j] == xs[k])
					v = series[i].y[j];
			if (v < 0)
				printf("  %19s", "-");
			else
				printf("  %19.3f", v);
		}
		printf("\n");
	}
}

static void xml(const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", stdout); break;
		case '>': fputs("&gt;", stdout); break;
		case '&': fputs("&amp;", stdout); break;
		case '"': fputs("&quot;", stdout); break;
		default: putchar(*s);
		}
}

#define W 760
#define H 460
#define ML 70
#define MR 230
#define MT 40
#define MB 50

static void svg(void)
{
	static const char *colors[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
					"#9467bd", "#8c564b", "#e377c2", "#17becf" };
	double x0 = 1e300, x1 = 0, y0 = 1e300, y1 = 0, d;
	int i, j;

	for (i = 0; i < nseries; i++)
		for (j = 0; j < series[i].n; j++) {
			x0 = fmin(x0, series[i].x[j]), x1 = fmax(x1, series[i].x[j]);
			y0 = fmin(y0, series[i].y[j]), y1 = fmax(y1, series[i].y[j]);
		}
	x0 = floor(log10(x0)), x1 = ceil(log10(x1));
	y0 = floor(log10(y0)), y1 = ceil(log10(y1));
	if (x1 <= x0)
		x1 = x0 + 1;
	if (y1 <= y0)
		y1 = y0 + 1;
#define PX(v) (ML + (log10(v) - x0) / (x1 - x0) * (W - ML - MR))
#define PY(v) (H - MB - (log10(v) - y0) / (y1 - y0) * (H - MT - MB))
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
	       W, H, W, H);
	printf("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", W, H);
	printf("<text x=\"%d\" y=\"22\" font-size=\"15\">bpf_loop: ns per loop against nr_loops</text>\n", ML);
	for (d = x0; d <= x1 + 1e-9; d++) {
		double px = PX(pow(10, d));

		printf("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", px, MT, px, H - MB);
		printf("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%.0f</text>\n", px, H - MB + 16, d);
	}
	for (d = y0; d <= y1 + 1e-9; d++) {
		double py = PY(pow(10, d));

		printf("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", ML, py, W - MR, py);
		printf("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", ML - 6, py + 4, pow(10, d));
	}
	printf("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n",
	       ML, MT, W - ML - MR, H - MT - MB);
	printf("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">nr_loops (log)</text>\n", (ML + W - MR) / 2, H - 12);
	printf("<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">ns per loop (log)</text>\n",
	       (MT + H - MB) / 2, (MT + H - MB) / 2);
	for (i = 0; i < nseries; i++) {
		const char *c = colors[i % 8];
		const char *dash = i >= 8 ? " stroke-dasharray=\"6 3\"" : "";

		printf("<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", c, dash);
		for (j = 0; j < series[i].n; j++)
			printf("%s%.1f,%.1f", j ? " " : "", PX(series[i].x[j]), PY(series[i].y[j]));
		printf("\"/>\n");
		for (j = 0; j < series[i].n; j++)
			printf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%g loops: %.3f ns</title></circle>\n",
			       PX(series[i].x[j]), PY(series[i].y[j]), c, series[i].x[j], series[i].y[j]);
		printf("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
		       W - MR + 14, MT + 10 + 18 * i, W - MR + 38, MT + 10 + 18 * i, c, dash);
		printf("<text x=\"%d\" y=\"%d\">", W - MR + 44, MT + 14 + 18 * i);
		xml(series[i].kernel);
		printf(", %ld thread%s</text>\n", series[i].producers, series[i].producers == 1 ? "" : "s");
	}
	printf("</svg>\n");
}

/* The report. */

struct verif {
	double insns, usec;
	int found;
};

static void find_verif(const struct table *t, const char *prog, int loop, struct verif *v)
{
	int r, cp = col(t, "program"), cv = col(t, "variant");
	int cu = col(t, "verification_usec"), ci = col(t, "processed_insns");

	/* make verif-scale names it verification_time_usec. */
	if (cu < 0)
		cu = col(t, "verification_time_usec");

	memset(v, 0, sizeof(*v));
	for (r = 0; r < t->nrows; r++) {
		const char *variant = get(t, r, cv);
		int is_loop = strcasestr(variant, "loop") || strcasestr(get(t, r, cp), "loop");

		if (strncmp(get(t, r, cp), prog, strlen(prog)) || is_loop != loop)
			continue;
		v->usec = atof(get(t, r, cu));
		v->insns = atof(get(t, r, ci));
		v->found = v->insns > 0;
		return;
	}
}

/* N with a comma every three digits: 626,838. */
static const char *thousands(double v, char *buf, size_t size)
{
	char digits[32];
	int len, i, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	len = strlen(digits);
	for (i = 0; i < len && o + 2 < (int)size; i++) {
		if (i && (len - i) % 3 == 0 && digits[i - 1] != '-')
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
	return buf;
}

static void ratio_row(const char *what, const char *seed, double a, double b, int found, const char *fmt)
{
	printf("| %s | %s | ", what, seed);
	if (found && b > 0) {
		char x[32], y[32];

		if (!strcmp(fmt, "insns"))
			printf("**%.1fx** (%s / %s) |\n", a / b, thousands(a, x, sizeof(x)),
			       thousands(b, y, sizeof(y)));
		else
			printf("**%.1fx** (%.3g s / %.3g s) |\n", a / b, a, b);
	} else {
		printf("not measured, run `make verif-scale` |\n");
	}
}

static double latency_at(const struct series *s, double *at)
{
	double best_x = 0, y = -1;
	int j;

	for (j = 0; j < s->n; j++)
		if (s->x[j] > best_x)
			best_x = s->x[j], y = s->y[j];
	*at = best_x;
	return y;
}

/* make bench-grade's runs: submissions per hour of make grade. */
static int grade_rate(const char *path)
{
	static const char *const need[] = { "date", "submissions", "jobs", "seconds", "per_hour",
					    "accel", "cores" };
	static struct table g;
	int c[7], i, r, h;

	printf("\n## make grade: submissions per hour\n\n");
	if (!path || read_csv(path, &g) || g.nrows == 0) {
		printf("Not measured: run `make bench-grade` (N=6 JOBS=2 by default), then `make bench`.\n");
		return 0;
	}
	for (i = 0; i < 7; i++) {
		c[i] = col(&g, need[i]);
		if (c[i] < 0) {
			fprintf(stderr, "bench-plot: %s lacks the column %s (make bench-grade writes it)\n",
				path, need[i]);
			return 1;
		}
	}
	h = col(&g, "headers");	/* own or same; older runs: own */
	printf("Synthetic submissions that each change kernel/bpf/bpf_iter.c, and with\n"
	       "headers other than \"same\" include/linux/bpf.h too (`make bench-grade HEADERS=own|comment|same`);\n"
	       "the kit's target is at least 30 an hour on 2 cores.\n\n"
	       "| run | submissions | headers | JOBS | cores | accel | seconds | per hour |\n"
	       "|---|---|---|---|---|---|---|---|\n");
	for (r = 0; r < g.nrows; r++)
		printf("| %s | %s | %s | %s | %s | %s | %s | **%s** |\n", get(&g, r, c[0]),
		       get(&g, r, c[1]), h < 0 ? "own" : get(&g, r, h), get(&g, r, c[2]),
		       get(&g, r, c[6]), get(&g, r, c[5]), get(&g, r, c[3]), get(&g, r, c[4]));
	return 0;
}

static int report(const char *verif_path, const char *accel, const char *svg_path,
		  const char *grade_path)
{
	static const struct { const char *name; double insns_u, s_u, insns_l, s_l; } seed[] = {
		{ "pyperf600", 626838, 29.7, 10518, 0.148 },
		{ "strobemeta", 554252, 6.8, 1513, 0.032 },
	};
	struct table vt;
	int have_verif = strcmp(verif_path, "-") && read_csv(verif_path, &vt) == 0;
	int i, one = -1, two = -1;
	char buf[160];

	if (have_verif && (col(&vt, "program") < 0 || col(&vt, "processed_insns") < 0 ||
			   (col(&vt, "verification_usec") < 0 && col(&vt, "verification_time_usec") < 0))) {
		fprintf(stderr, "bench-plot: %s lacks the columns program,processed_insns,verification_time_usec\n",
			verif_path);
		return 1;
	}
	printf("# bpf_loop: our figures beside the seed's\n\n");
	printf("Measured under **%s**. ", accel);
	if (!strcasecmp(accel, "tcg"))
		printf("TCG emulates every instruction, so absolute times here are not a\n"
		       "machine's; only ratios between two figures measured here mean anything.\n\n");
	else
		printf("Times depend on the machine; ratios travel better.\n\n");
	printf("## Ratios first\n\n| figure | seed | here |\n|---|---|---|\n");
	for (i = 0; i < 2; i++) {
		struct verif u, l;

		if (have_verif) {
			find_verif(&vt, seed[i].name, 0, &u);
			find_verif(&vt, seed[i].name, 1, &l);
		} else {
			memset(&u, 0, sizeof(u));
			memset(&l, 0, sizeof(l));
		}
		snprintf(buf, sizeof(buf), "%s: processed insns, unrolled / bpf_loop", seed[i].name);
		{
			char s[96];

			char x[32], y[32];

			snprintf(s, sizeof(s), "%.1fx (%s / %s)", seed[i].insns_u / seed[i].insns_l,
				 thousands(seed[i].insns_u, x, sizeof(x)), thousands(seed[i].insns_l, y, sizeof(y)));
			ratio_row(buf, s, u.insns, l.insns, u.found && l.found, "insns");
			snprintf(buf, sizeof(buf), "%s: verification time, unrolled / bpf_loop", seed[i].name);
			snprintf(s, sizeof(s), "%.1fx (%.3g s / %.3g s)", seed[i].s_u / seed[i].s_l,
				 seed[i].s_u, seed[i].s_l);
			ratio_row(buf, s, u.usec / 1e6, l.usec / 1e6, u.found && l.found, "seconds");
		}
	}
	/* The first two kernels at one thread: helper against the next. */
	for (i = 0; i < nseries; i++) {
		if (series[i].producers != 1)
			continue;
		if (one < 0)
			one = i;
		else if (two < 0 && strcmp(series[i].kernel, series[one].kernel))
			two = i;
	}
	printf("| bpf_loop speed-up from inlining (ns per loop, helper / inlined) | about 7x (14 ns / 2 ns: commit 1ade23711971, QEMU/KVM on an i7-4710HQ) | ");
	if (one >= 0 && two >= 0) {
		double xa, xb, a = latency_at(&series[one], &xa), b = latency_at(&series[two], &xb);

		printf("**%.1fx** (%s %.3f ns / %s %.3f ns, nr_loops %.0f, 1 thread) |\n", a / b,
		       series[one].kernel, a, series[two].kernel, b, xa);
	} else {
		printf("not measured: give make bench-loop two kernels, REFS='helper inlined' |\n");
	}
	printf("\n## Absolute figures\n\n| figure | seed | here (%s) |\n|---|---|---|\n", accel);
	for (i = 0; i < 2; i++) {
		struct verif u, l;

		if (have_verif) {
			find_verif(&vt, seed[i].name, 0, &u);
			find_verif(&vt, seed[i].name, 1, &l);
		} else {
			u.found = l.found = 0;
		}
		char x[32];

		printf("| %s unrolled | %s insns, %.3g s | ", seed[i].name,
		       thousands(seed[i].insns_u, x, sizeof(x)), seed[i].s_u);
		if (u.found)
			printf("%s insns, %.3g s |\n", thousands(u.insns, x, sizeof(x)), u.usec / 1e6);
		else
			printf("not measured, run `make verif-scale` |\n");
		printf("| %s with bpf_loop | %s insns, %.3g s | ", seed[i].name,
		       thousands(seed[i].insns_l, x, sizeof(x)), seed[i].s_l);
		if (l.found)
			printf("%s insns, %.3g s |\n", thousands(l.insns, x, sizeof(x)), l.usec / 1e6);
		else
			printf("not measured, run `make verif-scale` |\n");
	}
	for (i = 0; i < nseries; i++) {
		double at, ns = latency_at(&series[i], &at);

		if (series[i].producers != 1)
			continue;
		/* As in the ratio row: the first kernel is the helper, the next the inlining. */
		printf("| bpf_loop ns per loop, kernel %s | %s | %.3f ns (nr_loops %.0f, 1 thread) |\n",
		       series[i].kernel,
		       i == one ? "14 ns (the helper; commit 1ade23711971, QEMU/KVM)" :
		       i == two ? "2 ns (inlined; the same)" : "-", ns, at);
	}
	printf("\n## ns per loop, every run\n\n```\n");
	fflush(stdout);
	table();
	printf("```\n\nThe plot: [%s](%s)\n", svg_path, svg_path);
	return grade_rate(grade_path);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench-plot --table LOOP.csv | --svg LOOP.csv |\n"
		"       --report LOOP.csv VERIF.csv|- ACCEL SVG [GRADE.csv]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct table t;

	if (argc < 3)
		return usage();
	if (load_loop(argv[2], &t))
		return 1;
	if (!strcmp(argv[1], "--table") && argc == 3)
		table();
	else if (!strcmp(argv[1], "--svg") && argc == 3)
		svg();
	else if (!strcmp(argv[1], "--report") && (argc == 6 || argc == 7))
		return report(argv[3], argv[4], argv[5], argc == 7 ? argv[6] : NULL);
	else
		return usage();
	return 0;
}
