// SPDX-License-Identifier: GPL-2.0
/*
 * intake: the grader's checks on what a student handed in, before git or
 * a compiler sees any of it.
 *
 *   intake name NAME
 *	Prints the student id made from folder name NAME: letters, digits,
 *	'.', '_' and '-' are kept, every other byte becomes '_', at most 64
 *	characters, never starting with '.' or '-'. Exit 1 (and a reason on
 *	stderr) for a hidden folder (NAME starts with '.'): it is not a
 *	student.
 *
 *   intake scan DIR
 *	Looks at the files in one student's folder (not below it) and prints
 *	what to grade:
 *	    format patch|diff|bundle
 *	    use FILE            the submission's files, in name order
 *	    carry FILE          time.txt, answers.md: copied into the report
 *	    ignore FILE: WHY    anything else, said in the report
 *	or, when the folder cannot be graded, one line
 *	    verdict WORD: REASON
 *	and exit 1. WORD is empty, several-formats, binary-patch, too-large,
 *	not-a-file or unreadable. Symbolic links are never followed.
 *
 *   intake paths
 *	Reads `git diff --raw -z --no-renames --no-abbrev BASE COMMIT` on
 *	stdin and sorts the changed paths into those a submission may change
 *	and the rest:
 *	    allow PATH
 *	    ignore PATH: WHY
 *	Allowed: regular files kernel/bpf/NAME.c, include/linux/bpfNAME.h,
 *	include/uapi/linux/bpf.h, tools/include/uapi/linux/bpf.h and any .c
 *	or .h under tools/testing/selftests/bpf/. Paths with characters other
 *	than letters, digits and "._-/" are ignored.
 *
 * Exit status: 0 fine, 1 the input cannot be graded (scan) or a hidden
 * name (name), 2 usage or I/O error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_NAME	64
#define MAX_FILES	200
#define MAX_FILE_SIZE	(2L << 20)
#define MAX_TOTAL_SIZE	(8L << 20)

static int usage(void)
{
	fprintf(stderr, "usage: intake name NAME | intake scan DIR | intake paths <git-diff-raw-z\n");
	return 2;
}

static bool safe_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

static int do_name(const char *name)
{
	char id[MAX_NAME + 1];
	size_t i, n = 0;

	if (name[0] == '.') {
		fprintf(stderr, "intake: '%s' is a hidden folder, not a student\n", name);
		return 1;
	}
	for (i = 0; name[i] && n < MAX_NAME; i++) {
		int c = (unsigned char)name[i];

		if (n == 0 && (c == '-' || c == '.'))
			c = '_';
		id[n++] = safe_char(c) ? c : '_';
	}
	id[n] = '\0';
	if (n == 0)
		strcpy(id, "student");
	printf("%s\n", id);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A patch or diff that carries a binary change: NUL bytes or git's marks. */
static int binary_patch(int dirfd, const char *name, char *why, size_t len)
{
	static char buf[MAX_FILE_SIZE + 1];
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW);
	ssize_t n, got = 0;
	char *line;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(fd);
	if (n < 0)
		return -1;
	if (memchr(buf, '\0', got)) {
		snprintf(why, len, "%s contains NUL bytes: it is not a text patch", name);
		return 1;
	}
	buf[got] = '\0';
	for (line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (!strncmp(line, "GIT binary patch", 16) ||
		    (!strncmp(line, "Binary files ", 13) && strstr(line, " differ"))) {
			snprintf(why, len, "%s changes a binary file; the kit grades C sources and headers only: make the patch without binary files", name);
			return 1;
		}
	}
	return 0;
}

static int do_scan(const char *dir)
{
	static char *use[MAX_FILES], *carry[MAX_FILES];
	int nr_use = 0, nr_carry = 0, nr_files = 0, i;
	bool has_patch = false, has_diff = false, has_bundle = false;
	long total = 0;
	char why[512];
	struct dirent *e;
	int dirfd;
	DIR *d;

	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (dirfd < 0) {
		printf("verdict unreadable: the submission %s is not a folder (%s)\n", dir, strerror(errno));
		return 1;
	}
	d = fdopendir(dirfd);
	if (!d) {
		printf("verdict unreadable: cannot list %s (%s)\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		struct stat st;
		const char *n = e->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (n[0] == '.') {
			printf("ignore %s: hidden file\n", n);
			continue;
		}
		if (++nr_files > MAX_FILES) {
			printf("verdict too-large: more than %d files in the folder\n", MAX_FILES);
			return 1;
		}
		if (fstatat(dirfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			printf("verdict unreadable: %s: %s\n", n, strerror(errno));
			return 1;
		}
		if (S_ISLNK(st.st_mode)) {
			printf("verdict not-a-file: %s is a symbolic link; hand in the file itself\n", n);
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			printf("ignore %s/: sub-folders are not read\n", n);
			continue;
		}
		if (!S_ISREG(st.st_mode)) {
			printf("verdict not-a-file: %s is not a regular file\n", n);
			return 1;
		}
		if (st.st_size > MAX_FILE_SIZE) {
			printf("verdict too-large: %s is %ld bytes; the limit is %ld per file\n",
			       n, (long)st.st_size, MAX_FILE_SIZE);
			return 1;
		}
		total += st.st_size;
		if (total > MAX_TOTAL_SIZE) {
			printf("verdict too-large: the folder holds more than %ld bytes\n", MAX_TOTAL_SIZE);
			return 1;
		}
		if (!strcmp(n, "time.txt") || !strcmp(n, "answers.md")) {
			carry[nr_carry++] = strdup(n);
			continue;
		}
		if (ends_with(n, ".patch"))
			has_patch = true;
		else if (ends_with(n, ".diff"))
			has_diff = true;
		else if (ends_with(n, ".bundle"))
			has_bundle = true;
		else {
			printf("ignore %s: not a .patch, .diff or .bundle\n", n);
			continue;
		}
		use[nr_use++] = strdup(n);
	}
	if (has_patch + has_diff + has_bundle > 1) {
		printf("verdict several-formats: the folder mixes%s%s%s; hand in one format only\n",
		       has_patch ? " .patch files" : "", has_diff ? " .diff files" : "",
		       has_bundle ? " .bundle files" : "");
		return 1;
	}
	if (nr_use == 0) {
		printf("verdict empty: no .patch, .diff or .bundle file; make one with 'make handin'\n");
		return 1;
	}
	if ((has_diff || has_bundle) && nr_use > 1) {
		printf("verdict several-formats: %d %s files; hand in one (or a patch series)\n",
		       nr_use, has_diff ? ".diff" : ".bundle");
		return 1;
	}
	qsort(use, nr_use, sizeof(use[0]), cmp_names);
	qsort(carry, nr_carry, sizeof(carry[0]), cmp_names);
	for (i = 0; i < nr_use && !has_bundle; i++) {
		int r = binary_patch(dirfd, use[i], why, sizeof(why));

		if (r < 0) {
			printf("verdict unreadable: %s: %s\n", use[i], strerror(errno));
			return 1;
		}
		if (r) {
			printf("verdict binary-patch: %s\n", why);
			return 1;
		}
	}
	printf("format %s\n", has_patch ? "patch" : has_diff ? "diff" : "bundle");
	for (i = 0; i < nr_use; i++)
		printf("use %s\n", use[i]);
	for (i = 0; i < nr_carry; i++)
		printf("carry %s\n", carry[i]);
	closedir(d);
	return 0;
}

static bool path_safe(const char *p)
{
	const char *s;

	if (!*p || *p == '/')
		return false;
	for (s = p; *s; s++)
		if (!safe_char((unsigned char)*s) && *s != '/')
			return false;
	return !strstr(p, "..") && !strstr(p, "//");
}

/* The files a student may change: see the comment at the top. */
static bool path_allowed(const char *p)
{
	const char *rest;

	if (!strncmp(p, "kernel/bpf/", 11)) {
		rest = p + 11;
		return !strchr(rest, '/') && ends_with(rest, ".c");
	}
	if (!strncmp(p, "include/linux/bpf", 17)) {
		rest = p + 14;
		return !strchr(rest, '/') && ends_with(rest, ".h");
	}
	if (!strcmp(p, "include/uapi/linux/bpf.h") || !strcmp(p, "tools/include/uapi/linux/bpf.h"))
		return true;
	if (!strncmp(p, "tools/testing/selftests/bpf/", 28))
		return ends_with(p, ".c") || ends_with(p, ".h");
	return false;
}

static int do_paths(void)
{
	static char buf[1 << 20];
	size_t len = fread(buf, 1, sizeof(buf) - 1, stdin), pos = 0;

	if (ferror(stdin)) {
		fprintf(stderr, "intake paths: cannot read stdin\n");
		return 2;
	}
	if (len == sizeof(buf) - 1) {
		fprintf(stderr, "intake paths: the list of changed files is too long\n");
		return 2;
	}
	buf[len] = '\0';
	while (pos < len) {
		/* ":OLDMODE NEWMODE OLDSHA NEWSHA STATUS\0PATH\0" */
		char *meta = buf + pos, *path;
		char oldmode[8], newmode[8], status[8];

		pos += strlen(meta) + 1;
		if (pos >= len)
			break;
		path = buf + pos;
		pos += strlen(path) + 1;
		if (sscanf(meta, ":%7s %7s %*s %*s %7s", oldmode, newmode, status) != 3) {
			fprintf(stderr, "intake paths: cannot read '%s'\n", meta);
			return 2;
		}
		if (!path_safe(path)) {
			printf("ignore ");
			for (const char *s = path; *s; s++)
				putchar(safe_char((unsigned char)*s) || *s == '/' ? *s : '?');
			printf(": the name has unusual characters\n");
			continue;
		}
		if (!path_allowed(path)) {
			printf("ignore %s: outside the files a submission may change\n", path);
			continue;
		}
		if (status[0] != 'D' && strcmp(newmode, "100644") && strcmp(newmode, "100755")) {
			printf("ignore %s: not a regular file (mode %s)\n", path, newmode);
			continue;
		}
		if (status[0] == 'D' && strcmp(oldmode, "100644") && strcmp(oldmode, "100755")) {
			printf("ignore %s: not a regular file (mode %s)\n", path, oldmode);
			continue;
		}
		printf("allow %s\n", path);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "name"))
		return do_name(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "scan"))
		return do_scan(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "paths"))
		return do_paths();
	return usage();
}
