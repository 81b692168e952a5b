// SPDX-License-Identifier: GPL-2.0
/*
 * first-error: print the first error of a build log with the lines around
 * it, so that a failed build says what went wrong in a screenful instead
 * of a wall of compiler output.
 *
 * Usage: first-error LOG [CONTEXT]
 * Looks, in this order, for a compiler or linker diagnostic ("error:",
 * "undefined reference"), a make failure ("*** "), then a "Error " line.
 * Exit status: 0 printed an excerpt, 1 found none (prints the log's tail),
 * 2 usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096

static const char *const patterns[] = {
	"error:", "undefined reference", "Error:", "*** ", "Error ", NULL,
};

struct log {
	char **lines;
	size_t count;
};

static int read_log(const char *path, struct log *log)
{
	FILE *f = fopen(path, "r");
	char buf[MAX_LINE];
	size_t cap = 0;

	if (!f)
		return -1;
	log->lines = NULL;
	log->count = 0;
	while (fgets(buf, sizeof(buf), f)) {
		if (log->count == cap) {
			char **more;

			cap = cap ? cap * 2 : 1024;
			more = realloc(log->lines, cap * sizeof(*more));
			if (!more) {
				fclose(f);
				return -1;
			}
			log->lines = more;
		}
		buf[strcspn(buf, "\n")] = '\0';
		log->lines[log->count] = strdup(buf);
		if (!log->lines[log->count]) {
			fclose(f);
			return -1;
		}
		log->count++;
	}
	fclose(f);
	return 0;
}

static void print_range(const struct log *log, size_t from, size_t to, size_t mark)
{
	size_t i;

	for (i = from; i < to && i < log->count; i++)
		printf("%s %6zu | %s\n", i == mark ? ">" : " ", i + 1, log->lines[i]);
}

int main(int argc, char **argv)
{
	struct log log;
	size_t context = 6, i;
	int p;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s LOG [CONTEXT]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		context = strtoul(argv[2], NULL, 10);
	if (read_log(argv[1], &log)) {
		fprintf(stderr, "first-error: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	for (p = 0; patterns[p]; p++) {
		for (i = 0; i < log.count; i++) {
			if (!strstr(log.lines[i], patterns[p]))
				continue;
			print_range(&log, i > context ? i - context : 0, i + context + 1, i);
			return 0;
		}
	}
	printf("(no error line found; the log ends with:)\n");
	print_range(&log, log.count > 2 * context ? log.count - 2 * context : 0,
		    log.count, (size_t)-1);
	return 1;
}
