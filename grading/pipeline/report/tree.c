// SPDX-License-Identifier: GPL-2.0
/*
 * The class's result tree, which grade-report.c builds (it reads and
 * scores) and every writer of report/ reads: the rubric, the students and
 * their scores, and the text rules they share (a student's text made
 * plain, copied, looked up). Nothing here reads a file or writes one.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct rubric_line rubric[MAX_RUBRIC];
int nr_rubric;
const char *rubric_path;

void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "grade-report: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Copies SRC into DST of SIZE bytes, cut short if need be. */
void copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * The length of the UTF-8 character at P (1 to 4), or 0 when the bytes
 * there are not one.
 */
int utf8_len(const unsigned char *p)
{
	int len, k;

	if (*p < 0x80)
		return 1;
	if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
		len = 2;
	else if ((*p & 0xf0) == 0xe0)
		len = 3;
	else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
		len = 4;
	else
		return 0;
	for (k = 1; k < len; k++)
		if ((p[k] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * Text that came from a student (a reason, a name, a console or compiler
 * line), made plain in place: control characters become spaces and bytes
 * that are not UTF-8 '?', so that no output (a terminal, Markdown, CSV,
 * JSON, XML) gets a byte it would read as anything but text. Each writer
 * then escapes what its format gives a meaning to.
 */
void plain(char *s)
{
	unsigned char *p = (unsigned char *)s;

	while (*p) {
		int len = utf8_len(p);

		if (!len)
			*p++ = '?';
		else if (len == 1 && (*p < 0x20 || *p == 0x7f))
			*p++ = ' ';
		else
			p += len;
	}
}

/*
 * S written to F one character at a time: bytes that are not UTF-8 as
 * '?', other characters beyond ASCII as they are, and each ASCII byte as
 * the format's ASCII writer says (its escaping).
 */
void write_text(FILE *f, const char *s, void (*ascii)(FILE *f, unsigned char c))
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		int len = utf8_len(p);

		if (!len) {
			fputc('?', f);
			p++;
		} else if (len > 1) {
			fwrite(p, 1, len, f);
			p += len;
		} else {
			ascii(f, *p++);
		}
	}
}

/* ASCII as itself, a control character as a space. */
void plain_ascii(FILE *f, unsigned char c)
{
	fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
}

/* copy() of text from a student, made plain. */
void copy_text(char *dst, size_t size, const char *src)
{
	copy(dst, size, src);
	plain(dst);
}

char *chomp(char *s)
{
	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

struct rubric_line *rubric_find(const char *id)
{
	int i;

	for (i = 0; i < nr_rubric; i++)
		if (!strcmp(rubric[i].id, id))
			return &rubric[i];
	return NULL;
}

const char *meta(const struct student *s, const char *key)
{
	int i;

	for (i = 0; i < s->nr_meta; i++)
		if (!strcmp(s->meta_keys[i], key))
			return s->meta_vals[i];
	return "";
}

struct score *score_find(struct student *s, const char *id)
{
	int i;

	for (i = 0; i < s->nr_scores; i++)
		if (!strcmp(s->scores[i].id, id))
			return &s->scores[i];
	return NULL;
}

struct student *students[MAX_STUDENTS];
int nr_students;
struct student *ungraded[MAX_STUDENTS];
int nr_ungraded;

bool lab_used[MAX_LABS];

/*
 * A reason for the student's eyes: the grader's own folders (the kit, the
 * work folder, the student's folder in OUT) taken out of the paths in it.
 */
void scrub(char *reason, size_t size, const char *dir)
{
	const char *prefixes[4];
	char partial[4200], out[1024];
	int i, k;

	snprintf(partial, sizeof(partial), "%s", dir);
	if (strlen(partial) > 8 && !strcmp(partial + strlen(partial) - 8, ".partial"))
		partial[strlen(partial) - 8] = '\0';
	prefixes[0] = dir;
	prefixes[1] = partial;
	prefixes[2] = getenv("WORK");
	prefixes[3] = getenv("KIT");
	for (k = 0; k < 4; k++) {
		const char *pre = prefixes[k];
		size_t n = pre ? strlen(pre) : 0;
		char *hit;

		if (n < 2)
			continue;
		while ((hit = strstr(reason, pre))) {
			const char *rest = hit + n;

			if (*rest == '/')
				rest++;
			i = snprintf(out, sizeof(out), "%.*s%s%s", (int)(hit - reason), reason,
				     k == 2 ? "work/" : "", rest);
			(void)i;
			copy(reason, size, out);
		}
	}
}
