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
 * ID is a random id the host chose for this run. unframe copies the output
 * between the markers to OUTPUT and prints STATUS.
 *
 * Exactly one frame is accepted. Nothing but the kit's /init writes on
 * that port, so anything else there is a kernel (or a program) writing a
 * stream of its own: text before the frame began, a second "begin" (with
 * this run's id or another), a marker of another id inside the frame, or
 * text after the end. Each makes the run "tampered": unframe says why on
 * stderr, writes no OUTPUT, and exits 5. Lines that hold only spaces,
 * carriage returns or NUL bytes (a serial port's noise) are not text.
 *
 * Usage: unframe ID CHANNEL OUTPUT
 * Exit status: 0 complete frame (STATUS printed on stdout), 3 the frame
 * began but never ended (the guest died mid-run; the partial output is
 * written), 4 no frame at all, 5 tampered, 2 usage or I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int blank(const char *line, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (line[i] != ' ' && line[i] != '\r' && line[i] != '\0' && line[i] != '\t')
			return 0;
	return 1;
}

static int tampered(const char *out_path, const char *fmt, const char *arg)
{
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	remove(out_path);
	return 5;
}

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
		if (status >= 0) {
			if (blank(line, n))
				continue;
			fclose(out);
			fclose(in);
			return tampered(argv[3], "unframe: the result channel has text after the run's "
					"frame ended: %.80s", line);
		}
		if (!inside) {
			if (!strcmp(line, begin)) {
				inside = 1;
				seen = 1;
				continue;
			}
			if (blank(line, n))
				continue;
			fclose(out);
			fclose(in);
			return tampered(argv[3], "unframe: the result channel has text before the run's "
					"frame began: %.80s", line);
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
				continue;
			}
		}
		if (!strncmp(line, "@@", 2) && strstr(line, " begin")) {
			fclose(out);
			fclose(in);
			return tampered(argv[3], "unframe: a second frame began inside the run's frame: "
					"%.80s", line);
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
