// SPDX-License-Identifier: GPL-2.0
/*
 * console-check: the commands a text shows, and the output it quotes.
 *
 * A text marks what a reader can run as a fenced code block of class
 * "console": each line that starts with "$ " is a command, every other
 * line is output that the command prints (stdout and stderr together).
 * Blocks of any other class are never run. A text may also say where
 * the reader edits the kernel tree with an HTML comment, which no
 * rendering shows:
 *	<!-- student's edit: solutions/01-helper -->
 *
 *   console-check steps FILE.md...
 *	prints, in order, one line per command, quoted output line and edit:
 *	"FILE:LINE<TAB>cmd<TAB>COMMAND", "FILE:LINE<TAB>out<TAB>TEXT",
 *	"FILE:LINE<TAB>edit<TAB>WHAT". A block may sit in a list item: its
 *	lines lose the fence's indentation.
 *   console-check match QUOTED OUTPUT
 *	every line of the file QUOTED matches a line of the file OUTPUT, in
 *	the same order (other output may come between them). In a quoted
 *	line, "..." stands for any text, empty included; a line that is only
 *	"..." stands for lines left out and matches nothing itself. Trailing
 *	blanks never count. Prints the first quoted line that did not match.
 *
 * Exit status: 0 done (match: every line matched), 1 a line did not
 * match, 2 usage or I/O error or a block left open.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EDIT_OPEN "<!-- student's edit:"
#define EDIT_CLOSE "-->"

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
			 s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

static size_t indent_of(const char *s)
{
	size_t n = 0;

	while (s[n] == ' ')
		n++;
	return n;
}

/* A fence line: optional indentation, then at least three backticks. */
static bool is_fence(const char *s, const char **info)
{
	s += indent_of(s);
	if (strncmp(s, "```", 3))
		return false;
	while (*s == '`')
		s++;
	while (*s == ' ')
		s++;
	*info = s;
	return true;
}

static int steps(const char *path)
{
	char line[4096];
	const char *info;
	bool in_block = false, run = false;
	size_t indent = 0;
	int nr = 0, open_at = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		char *s;

		nr++;
		chomp(line);
		if (is_fence(line, &info)) {
			if (in_block) {
				in_block = false;
			} else {
				in_block = true;
				open_at = nr;
				indent = indent_of(line);
				run = !strcmp(info, "console");
			}
			continue;
		}
		if (in_block) {
			if (!run)
				continue;
			s = line;
			if (indent_of(s) >= indent)
				s += indent;
			if (!strncmp(s, "$ ", 2))
				printf("%s:%d\tcmd\t%s\n", path, nr, s + 2);
			else if (*s)
				printf("%s:%d\tout\t%s\n", path, nr, s);
			continue;
		}
		s = line + indent_of(line);
		if (!strncmp(s, EDIT_OPEN, strlen(EDIT_OPEN))) {
			char *end = strstr(s, EDIT_CLOSE);

			s += strlen(EDIT_OPEN);
			if (!end) {
				fprintf(stderr, "%s:%d: an edit comment must end on its line\n",
					path, nr);
				fclose(f);
				return 2;
			}
			*end = '\0';
			chomp(s);
			while (*s == ' ')
				s++;
			printf("%s:%d\tedit\t%s\n", path, nr, s);
		}
	}
	fclose(f);
	if (in_block) {
		fprintf(stderr, "%s:%d: a code block is never closed\n", path, open_at);
		return 2;
	}
	return 0;
}

/* Does text match pattern, where "..." in pattern stands for any text? */
static bool match(const char *pat, const char *text)
{
	const char *dots = strstr(pat, "...");
	size_t n;

	if (!dots)
		return !strcmp(pat, text);
	n = dots - pat;
	if (strncmp(pat, text, n))
		return false;
	pat = dots + 3;
	text += n;
	/* The shortest text for the wildcard first; backtrack on failure. */
	for (;;) {
		if (match(pat, text))
			return true;
		if (!*text)
			return false;
		text++;
	}
}

static char **read_lines(const char *path, int *nr)
{
	char line[4096], **lines = NULL;
	int cap = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		perror(path);
		exit(2);
	}
	*nr = 0;
	while (fgets(line, sizeof(line), f)) {
		chomp(line);
		if (*nr == cap) {
			cap = cap ? 2 * cap : 256;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines) {
				perror("console-check");
				exit(2);
			}
		}
		lines[*nr] = strdup(line);
		if (!lines[*nr]) {
			perror("console-check");
			exit(2);
		}
		(*nr)++;
	}
	fclose(f);
	return lines;
}

static int match_files(const char *quoted_path, const char *output_path)
{
	int nr_quoted, nr_output, q, o = 0;
	char **quoted = read_lines(quoted_path, &nr_quoted);
	char **output = read_lines(output_path, &nr_output);

	for (q = 0; q < nr_quoted; q++) {
		const char *want = quoted[q] + indent_of(quoted[q]);

		if (!strcmp(want, "...") || !*want)
			continue;
		while (o < nr_output && !match(quoted[q], output[o]))
			o++;
		if (o == nr_output) {
			printf("not in the output (after the lines matched before it): %s\n",
			       quoted[q]);
			return 1;
		}
		o++;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	if (argc >= 3 && !strcmp(argv[1], "steps")) {
		for (i = 2; i < argc && rc == 0; i++)
			rc = steps(argv[i]);
		return rc;
	}
	if (argc == 4 && !strcmp(argv[1], "match"))
		return match_files(argv[2], argv[3]);
	fprintf(stderr, "usage: console-check steps FILE.md...\n"
			"       console-check match QUOTED OUTPUT\n");
	return 2;
}
