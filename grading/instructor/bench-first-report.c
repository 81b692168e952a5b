// SPDX-License-Identifier: GPL-2.0
/*
 * bench-first-report: make bench-first's figures beside their targets, as
 * Markdown.
 *
 *   bench-first-report --accel kvm|tcg --cores N FILE
 *
 * FILE has one line per step: key, seconds, target seconds, the command's
 * exit status, what was timed and, optionally, what bounds it, as measured
 * in the same run (tab-separated). A step whose command failed is reported
 * as such, never as met.
 * Exit status: 0 written, 1 FILE unreadable or malformed, 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void duration(char *buf, size_t size, long s)
{
	if (s >= 60)
		snprintf(buf, size, "%ld min %02ld s", s / 60, s % 60);
	else
		snprintf(buf, size, "%ld s", s);
}

struct row {
	char key[64], what[600], bound[600];
	long secs, target;
	int status;
};

/* One line of FILE into r; false, with the line named, when it is not one. */
static bool parse(const char *path, char *line, struct row *r)
{
	int n;

	line[strcspn(line, "\n")] = '\0';
	r->bound[0] = '\0';
	n = sscanf(line, "%63[^\t]\t%ld\t%ld\t%d\t%599[^\t]\t%599[^\n]", r->key, &r->secs, &r->target,
		   &r->status, r->what, r->bound);
	if (n == 5 || n == 6)
		return true;
	fprintf(stderr, "bench-first-report: %s: a line is not key, seconds, target, status, what[, bound]: %s\n", path,
		line);
	return false;
}

int main(int argc, char **argv)
{
	const char *accel = "?", *cores = "?", *path = NULL;
	char line[1024], got[32], want[32], by[32];
	int i, rows = 0, met = 0;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--accel"))
			accel = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--cores"))
			cores = argv[++i];
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else
			goto usage;
	}
	if (!path)
		goto usage;
	f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	/* Every line checked before a byte is written. */
	while (fgets(line, sizeof(line), f)) {
		struct row r;

		if (!parse(path, line, &r)) {
			fclose(f);
			return 1;
		}
	}
	rewind(f);
	printf("# First contact, measured here\n\n");
	printf("%s cores, guests under %s; a fresh work folder and an empty compiler cache "
	       "(each row says what else it includes).\n\n", cores, accel);
	printf("| what | measured | target | | what bounds it, measured in the same run |\n|---|---|---|---|---|\n");
	while (fgets(line, sizeof(line), f)) {
		struct row r;

		if (!parse(path, line, &r))
			break;
		duration(got, sizeof(got), r.secs);
		duration(want, sizeof(want), r.target);
		rows++;
		if (r.status) {
			printf("| %s | %s | ≤ %s | the command failed (status %d): no figure |", r.what, got,
			       want, r.status);
		} else if (r.secs <= r.target) {
			met++;
			printf("| %s | %s | ≤ %s | met |", r.what, got, want);
		} else {
			duration(by, sizeof(by), r.secs - r.target);
			printf("| %s | %s | ≤ %s | missed by %s |", r.what, got, want, by);
		}
		printf(" %s |\n", r.bound[0] ? r.bound : "not measured");
	}
	fclose(f);
	printf("\n%d of %d targets met.\n", met, rows);
	return 0;
usage:
	fprintf(stderr, "usage: bench-first-report --accel kvm|tcg --cores N FILE\n");
	return 2;
}
