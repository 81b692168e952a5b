// SPDX-License-Identifier: GPL-2.0
/*
 * excerpt: the part of a guest console that explains a crash.
 *
 * Prints from the first line that reports a kernel fault (BUG:, Oops,
 * general protection fault, Kernel panic, WARNING:, a soft lockup or an
 * RCU stall) at most LINES lines on; with no such line, the console's last
 * LINES lines. Long lines are cut to 200 characters.
 *
 * Usage: excerpt CONSOLE [LINES]
 * Exit status: 0 a fault was found, 1 none (tail printed), 2 usage or I/O.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const faults[] = {
	"BUG:", "Oops", "general protection fault", "Kernel panic",
	"WARNING:", "soft lockup", "rcu_sched self-detected stall",
	"rcu: INFO:", "Unable to handle kernel", NULL,
};

static int is_fault(const char *line)
{
	int i;

	for (i = 0; faults[i]; i++)
		if (strstr(line, faults[i]))
			return 1;
	return 0;
}

static void put(const char *line)
{
	printf("%.200s\n", line);
}

int main(int argc, char **argv)
{
	long limit = 40, i, count = 0, printed = 0;
	char **ring, *line = NULL;
	size_t cap = 0;
	int found = 0;
	ssize_t n;
	FILE *f;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s CONSOLE [LINES]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		limit = strtol(argv[2], NULL, 10);
	if (limit < 1)
		limit = 1;
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "excerpt: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	ring = calloc((size_t)limit, sizeof(*ring));
	if (!ring)
		return 2;
	while ((n = getline(&line, &cap, f)) > 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (found) {
			if (printed++ < limit)
				put(line);
			continue;
		}
		if (is_fault(line)) {
			found = 1;
			put(line);
			printed = 1;
			continue;
		}
		free(ring[count % limit]);
		ring[count % limit] = strdup(line);
		count++;
	}
	fclose(f);
	if (!found) {
		long first = count > limit ? count - limit : 0;

		for (i = first; i < count; i++)
			put(ring[i % limit]);
	}
	for (i = 0; i < limit; i++)
		free(ring[i]);
	free(ring);
	free(line);
	return found ? 0 : 1;
}
