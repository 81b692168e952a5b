// SPDX-License-Identifier: GPL-2.0
/* grade-report: Markdown, the one rule: text escaped, or in a code span that nothing inside can close. */
#include <stdio.h>
#include <string.h>

#include "report.h"

/*
 * Text into Markdown that pandoc reads as text, whatever it holds (a
 * reason may carry a kernel's console line): every ASCII punctuation
 * character escaped, control characters and invalid UTF-8 as spaces and
 * '?', so that nothing in it becomes markup or breaks the page.
 */
static void md_ascii(FILE *f, unsigned char c)
{
	if (c >= 0x20 && c != 0x7f && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c))
		fprintf(f, "\\%c", c);
	else
		plain_ascii(f, c);
}

void md_text(FILE *f, const char *s)
{
	write_text(f, s, md_ascii);
}

void repeat(FILE *f, int c, int n)
{
	while (n-- > 0)
		fputc(c, f);
}

/* The longest run of backticks in S. */
int backtick_run(const char *s)
{
	int run = 0, longest = 0;

	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	return longest;
}

/*
 * Text as a Markdown code span that nothing inside can close: its fence
 * is one backtick longer than the longest run in the text, a space pads a
 * text that starts or ends with one, and what follows the span is always
 * the kit's (so no {...} attribute can be attached to it). Control
 * characters and invalid UTF-8 become spaces and '?'. Used where a person
 * reads the .md as it is (feedback.md): the text stays as it was.
 */
void md_code(FILE *f, const char *s)
{
	int fence = backtick_run(s) + 1;
	bool pad = s[0] == '`' || (s[0] && s[strlen(s) - 1] == '`');

	if (!s[0]) {
		fputs("(none)", f);
		return;
	}
	repeat(f, '`', fence);
	if (pad)
		fputc(' ', f);
	write_text(f, s, plain_ascii);
	if (pad)
		fputc(' ', f);
	repeat(f, '`', fence);
}
