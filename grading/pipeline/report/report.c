// SPDX-License-Identifier: GPL-2.0
/* grade-report: What the writers share: their files written whole or not at all, and the tallies of a class's results. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"

FILE *open_tmp(const char *out, const char *name, char *tmp, size_t len)
{
	FILE *f;

	snprintf(tmp, len, "%s/.%s.tmp", out, name);
	f = fopen(tmp, "w");
	if (!f)
		fail("cannot write %s: %s", tmp, strerror(errno));
	return f;
}

void commit_tmp(FILE *f, const char *tmp, const char *out, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", out, name);
	if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path))
		fail("cannot write %s: %s", path, strerror(errno));
}

void count_add(struct count *c, int *nr, int cap, const char *key)
{
	int i;

	for (i = 0; i < *nr; i++)
		if (!strcmp(c[i].key, key)) {
			c[i].n++;
			return;
		}
	if (*nr < cap) {
		copy(c[*nr].key, sizeof(c[0].key), key);
		c[(*nr)++].n = 1;
	}
}

int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	return x->n != y->n ? y->n - x->n : strcmp(x->key, y->key);
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* A reason without the numbers that differ between students. */
void reason_class(const char *in, char *out, size_t len)
{
	size_t n = 0;

	while (*in && n + 1 < len) {
		/* Digits inside a name in capitals (E2BIG) are the name's. */
		if (*in >= '0' && *in <= '9' && n && out[n - 1] >= 'A' && out[n - 1] <= 'Z') {
			while (*in >= '0' && *in <= '9' && n + 1 < len)
				out[n++] = *in++;
			continue;
		}
		if (*in >= '0' && *in <= '9') {
			/* A number, decimal or hex (an address): one N. */
			while ((*in >= '0' && *in <= '9') || (*in >= 'a' && *in <= 'f') || *in == 'x')
				in++;
			out[n++] = 'N';
			continue;
		}
		/* Runs of spaces as one (the console pads its timestamps). */
		if (*in == ' ' && n && out[n - 1] == ' ') {
			in++;
			continue;
		}
		out[n++] = *in++;
	}
	out[n] = '\0';
}

/* ---- the class writers, each registered by its file (REPORT_WRITER) ---- */

#define MAX_WRITERS 32

static struct {
	const char *file;
	report_writer_fn *fn;
} writers[MAX_WRITERS];
static int nr_writers;

void report_register(const char *file, report_writer_fn *fn)
{
	if (nr_writers == MAX_WRITERS)
		fail("more than %d report writers", MAX_WRITERS);
	writers[nr_writers].file = file;
	writers[nr_writers].fn = fn;
	nr_writers++;
}

static int cmp_writer(const void *a, const void *b)
{
	return strcmp(((const typeof(writers[0]) *)a)->file, ((const typeof(writers[0]) *)b)->file);
}

void report_write_all(const char *out, const char **warnings, int nr_warnings)
{
	int i;

	qsort(writers, nr_writers, sizeof(writers[0]), cmp_writer);
	for (i = 0; i < nr_writers; i++)
		writers[i].fn(out, warnings, nr_warnings);
}
