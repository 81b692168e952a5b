// SPDX-License-Identifier: GPL-2.0
/*
 * unframe: take a run's output out of the guest's result channel.
 *
 * The guest's /init writes, on its own serial port:
 *     @@ID begin
 *     ...the command's output...
 *     (a newline)@@ID end STATUS
 * The newline puts the end marker on a line of its own even after output
 * without a final newline; the empty line it leaves is not output.
 * where ID is a random id the host chose for this run. unframe copies the
 * output between the markers of this run's ID to OUTPUT and prints STATUS.
 * Lines outside the frame, and frames with another id, count for nothing:
 * a kernel that prints "ok" lines gains nothing.
 *
 * Usage: unframe ID CHANNEL OUTPUT
 * Exit status: 0 complete frame (STATUS printed on stdout), 3 the frame
 * began but never ended (the guest died mid-run; the partial output is
 * written), 4 no frame at all, 2 usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char begin[128], end[128], *line = NULL, *pending = NULL;
	size_t cap = 0, end_len;
	FILE *in, *out;
	int inside = 0, seen = 0, status = -1;
	ssize_t n;

	if (argc != 4 || strlen(argv[1]) < 8 || strlen(argv[1]) > 64) {
		fprintf(stderr, "usage: %s ID CHANNEL OUTPUT (ID: 8 to 64 characters)\n", argv[0]);
		return 2;
	}
	snprintf(begin, sizeof(begin), "@@%s begin", argv[1]);
	snprintf(end, sizeof(end), "@@%s end ", argv[1]);
	end_len = strlen(end);
	in = fopen(argv[2], "r");
	if (!in) {
		fprintf(stderr, "unframe: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	out = fopen(argv[3], "w");
	if (!out) {
		fprintf(stderr, "unframe: %s: %s\n", argv[3], strerror(errno));
		fclose(in);
		return 2;
	}
	while ((n = getline(&line, &cap, in)) > 0) {
		/* A serial line may add carriage returns. */
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (!inside) {
			if (!strcmp(line, begin)) {
				inside = 1;
				seen = 1;
			}
			continue;
		}
		if (!strncmp(line, end, end_len)) {
			char *stop;
			long v = strtol(line + end_len, &stop, 10);

			if (stop != line + end_len && *stop == '\0') {
				status = (int)v;
				/* /init starts the end marker on a line of its own,
				 * which adds an empty line after output that ended
				 * with a newline: drop it. */
				if (pending && *pending)
					fprintf(out, "%s\n", pending);
				free(pending);
				pending = NULL;
				break;
			}
		}
		if (pending)
			fprintf(out, "%s\n", pending);
		free(pending);
		pending = strdup(line);
	}
	/* A frame that never ended: keep all it had. */
	if (pending)
		fprintf(out, "%s\n", pending);
	free(pending);
	free(line);
	fclose(in);
	if (fclose(out)) {
		fprintf(stderr, "unframe: %s: %s\n", argv[3], strerror(errno));
		return 2;
	}
	if (status >= 0) {
		printf("%d\n", status);
		return 0;
	}
	return seen ? 3 : 4;
}
