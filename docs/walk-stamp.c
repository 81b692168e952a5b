// SPDX-License-Identifier: GPL-2.0
/*
 * walk-stamp: how long a command made its reader wait, and in silence.
 *
 *   walk-stamp run OUTPUT STATS
 *	copies standard input to OUTPUT as it comes and, at its end, writes
 *	STATS: one line "SECONDS<TAB>SILENCE<TAB>TEXT": the time from the
 *	start to the end of input, the longest time in which nothing came
 *	(the start and the end count; a counter redrawn with a carriage
 *	return is something), and the line the reader had last seen while it
 *	lasted ("(the start)" before the first).
 *   walk-stamp report TSV LIMIT
 *	TSV: one line per command, "WHERE<TAB>COMMAND<TAB>SECONDS<TAB>
 *	SILENCE<TAB>AFTER<TAB>MATCH" (SECONDS, SILENCE and AFTER as run wrote
 *	them) (MATCH: "yes", or the first quoted
 *	line that was not printed). Prints a Markdown table of them, the sum
 *	of the waits and the longest silence, and exits 1 when a quoted line
 *	was not printed or a silence was longer than LIMIT seconds.
 *
 * Exit status: 0 done, 1 (report) a command failed its text, 2 usage or
 * I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
}

/* One line of text for a table cell or a stats field: no tab, no bar. */
static void flatten(char *s, size_t max)
{
	char *p;

	chomp(s);
	for (p = s; *p; p++)
		if (*p == '\t' || *p == '|')
			*p = ' ';
	if (strlen(s) > max)
		strcpy(s + max - 3, "...");
}

static int run(const char *out_path, const char *stats_path)
{
	static char buf[4096], seen[8192] = "(the start)", cur[8192], longest_text[8192] = "(the start)";
	double t0 = now(), last = t0, longest = 0, t;
	size_t cur_len = 0;
	FILE *out = fopen(out_path, "w"), *stats;
	ssize_t n;

	if (!out) {
		perror(out_path);
		return 2;
	}
	/*
	 * Any byte is a sign of life, a progress counter redrawn with '\r'
	 * included; "seen" is the last whole line (or redrawn one).
	 */
	while ((n = read(0, buf, sizeof(buf))) != 0) {
		ssize_t i;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("walk-stamp: read");
			return 2;
		}
		t = now();
		if (t - last > longest) {
			longest = t - last;
			strcpy(longest_text, cur_len ? cur : seen);
		}
		last = t;
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n' || buf[i] == '\r') {
				if (cur_len) {
					cur[cur_len] = '\0';
					strcpy(seen, cur);
				}
				cur_len = 0;
			} else if (cur_len < sizeof(cur) - 1) {
				cur[cur_len++] = buf[i];
			}
		}
		cur[cur_len] = '\0';
		fwrite(buf, 1, n, out);
		fflush(out);
	}
	t = now();
	if (t - last > longest) {
		longest = t - last;
		strcpy(longest_text, cur_len ? cur : seen);
	}
	if (fclose(out)) {
		perror(out_path);
		return 2;
	}
	stats = fopen(stats_path, "w");
	if (!stats) {
		perror(stats_path);
		return 2;
	}
	flatten(longest_text, 200);
	fprintf(stats, "%.1f\t%.1f\t%s\n", t - t0, longest, longest_text);
	return fclose(stats) ? 2 : 0;
}

static int report(const char *tsv_path, double limit)
{
	static char line[16384];
	double total = 0, worst = 0;
	int bad = 0, n = 0;
	FILE *f = fopen(tsv_path, "r");

	if (!f) {
		perror(tsv_path);
		return 2;
	}
	printf("| where | command | wait (s) | longest silence (s), after | quoted output |\n");
	printf("|---|---|---:|---|---|\n");
	while (fgets(line, sizeof(line), f)) {
		char *field[6], *p = line;
		double secs, silence;
		int i;

		chomp(line);
		for (i = 0; i < 6; i++) {
			field[i] = p;
			p = strchr(p, '\t');
			if (!p && i < 5) {
				fprintf(stderr, "walk-stamp: %s: a line with fewer than 6 fields\n", tsv_path);
				fclose(f);
				return 2;
			}
			if (p)
				*p++ = '\0';
		}
		for (i = 0; i < 6; i++)
			flatten(field[i], 120);
		secs = atof(field[2]);
		silence = atof(field[3]);
		total += secs;
		if (silence > worst)
			worst = silence;
		if (strcmp(field[5], "yes") || silence > limit)
			bad = 1;
		printf("| %s | `%s` | %.0f | %.0f%s, after `%s` | %s%s |\n", field[0], field[1], secs,
		       silence, silence > limit ? " **(too long)**" : "", field[4],
		       strcmp(field[5], "yes") ? "**missing:** " : "", field[5]);
		n++;
	}
	fclose(f);
	printf("\n%d commands, %.1f min of waiting in all; the longest silence %.0f s "
	       "(the limit: %.0f s).\n", n, total / 60, worst, limit);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "run"))
		return run(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "report"))
		return report(argv[2], atof(argv[3]));
	fprintf(stderr, "usage: walk-stamp run OUTPUT STATS | walk-stamp report TSV LIMIT\n");
	return 2;
}
