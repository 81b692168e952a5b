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
 *   intake flags
 *	Reads the accepted change as a unified diff (git diff base COMMIT) on
 *	stdin and prints, for each added line that uses something no
 *	bpf_loop solution needs, one line
 *	    WHAT FILE:LINE: THE LINE
 *	(WHAT: port-io, mmio, file-access, initcall, constructor, inline-asm,
 *	boot-data, parameter, console, kernel-thread, fingerprint, process).
 *	The grader marks such a student "flagged" for a person to read; it
 *	grades the submission all the same. Kernel files and the student's
 *	own user-space programs (selftests, benchmark) have lists of their own.
 *
 *   intake reference SUBMISSION FINAL N=LAB...
 *	Each argument a unified diff: the submission's change (git diff base
 *	COMMIT), the kit's whole reference series (git diff base
 *	solution/LAST) and, for each lab N, the reference's change of that
 *	lab (git diff solution/N-1 solution/N). Prints for each lab
 *	    N MATCHED TOTAL [match]
 *	TOTAL being the lab's added lines that the whole series keeps (a
 *	later lab may change a line an earlier one added), white space
 *	taken out, comment lines and lines under 8 characters left out, each
 *	counted once; MATCHED how many of them the submission adds. "match":
 *	all of them, and at least 8: the lab's change is the kit's own, as
 *	the reference series has it. The grader flags it for a person to
 *	read ("matches the reference (lab N)"); the grade stays the tests'.
 *
 * Exit status: 0 fine, 1 the input cannot be graded (scan) or a hidden
 * name (name), 2 usage or I/O error.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
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
	fprintf(stderr, "usage: intake name NAME | intake scan DIR | intake paths <git-diff-raw-z |\n"
			"       intake flags <git-diff | intake reference SUBMISSION FINAL N=LAB...\n");
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

/* What a bpf_loop solution does not need, by where the line is. */
struct pattern {
	const char *what, *re;
	regex_t compiled;
};

static struct pattern kernel_patterns[] = {
	{ .what = "port-io", .re = "\\b(in|out)(b|w|l|sb|sw|sl)(_p)?[[:space:]]*\\(" },
	{ .what = "mmio", .re = "\\b(ioremap|memremap|iounmap|(read|write)[bwlq](_relaxed)?|__raw_(read|write))[[:space:]]*\\(" },
	{ .what = "file-access", .re = "\\b(filp_open|file_open_root|kernel_read|kernel_write|kernel_read_file[a-z_]*|vfs_(read|write|open)|kern_path|do_sys_open|init_syscalls|ksys_[a-z]+)\\b" },
	{ .what = "initcall", .re = "\\b([a-z_]*initcall|module_init|module_exit|__init|__initdata|__exitcall)\\b" },
	{ .what = "constructor", .re = "constructor|__attribute__[[:space:]]*\\(\\([[:space:]]*(section|used)" },
	{ .what = "inline-asm", .re = "\\b(asm|__asm__|__asm)\\b" },
	{ .what = "boot-data", .re = "initrd|initramfs|saved_command_line|boot_command_line|\"/run/|\\bunpack_to_rootfs" },
	{ .what = "parameter", .re = "\\b(module_param[a-z_]*|core_param|__setup|early_param)[[:space:]]*\\(" },
	{ .what = "console", .re = "\\b(tty_[a-z_]+|uart_[a-z_]+|serial8250_[a-z_]+|early_printk|register_console|console_[a-z_]+)\\b|\"[[:space:]]*(not )?ok [0-9]|@@" },
	{ .what = "kernel-thread", .re = "\\b(kthread_(run|create)[a-z_]*|call_usermodehelper[a-z_]*|queue_work|schedule_work|timer_setup|hrtimer_)" },
	{ .what = NULL },
};

static struct pattern user_patterns[] = {
	{ .what = "fingerprint", .re = "cmdline|kallsyms|bpfloop_mutant|__ksym|bpf_probe_read_kernel|/sys/kernel/btf|\\buname[[:space:]]*\\(|/proc/|/sys/|ttyS" },
	{ .what = "process", .re = "\\b(popen|exec[lv]p?e?|fork|vfork|clone|ptrace|kill|getenv|system)[[:space:]]*\\(|@@" },
	{ .what = NULL },
};

static void compile(struct pattern *p)
{
	for (; p->what; p++)
		if (regcomp(&p->compiled, p->re, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "intake flags: bad pattern for %s\n", p->what);
			exit(2);
		}
}

static int do_flags(void)
{
	char line[4096], file[4096] = "";
	long new_line = 0;
	struct pattern *set = NULL, *p;

	compile(kernel_patterns);
	compile(user_patterns);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "+++ ", 4)) {
			const char *name = line + 4;

			if (!strncmp(name, "b/", 2))
				name += 2;
			snprintf(file, sizeof(file), "%s", name);
			set = !strncmp(file, "tools/testing/", 14) ? user_patterns : kernel_patterns;
			continue;
		}
		if (!strncmp(line, "@@ ", 3)) {
			const char *plus = strstr(line, " +");

			new_line = plus ? strtol(plus + 2, NULL, 10) : 0;
			continue;
		}
		if (!set || !strncmp(line, "--- ", 4) || !strncmp(line, "diff ", 5))
			continue;
		if (line[0] == '+') {
			char *code = line + 1, *comment = strstr(code, "//");

			/* Words in comments are not uses. */
			if (comment)
				*comment = '\0';
			if (strncmp(code + strspn(code, " \t"), "*", 1) &&
			    strncmp(code + strspn(code, " \t"), "/*", 2))
				for (p = set; p->what; p++)
					if (!regexec(&p->compiled, code, 0, NULL, 0)) {
						if (comment)
							*comment = '/';
						printf("%s %s:%ld: %.200s\n", p->what, file, new_line,
						       line + 1 + strspn(line + 1, " \t"));
						break;
					}
			new_line++;
		} else if (line[0] == ' ') {
			new_line++;
		}
	}
	return 0;
}

/* ---- intake reference ---- */

#define REF_MIN_LINE	8

struct lines {
	char **v;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The added lines of the unified diff in PATH, white space taken out,
 * comment lines and short lines left out, sorted, each once. False when
 * the file cannot be read.
 */
static bool added_lines(const char *path, struct lines *out)
{
	char line[8192];
	FILE *f = fopen(path, "r");
	size_t i, k;

	if (!f)
		return false;
	memset(out, 0, sizeof(*out));
	while (fgets(line, sizeof(line), f)) {
		char norm[8192];
		size_t n = 0;

		if (line[0] != '+' || !strncmp(line, "+++ ", 4))
			continue;
		for (i = 1; line[i]; i++)
			if (line[i] != ' ' && line[i] != '\t' && line[i] != '\n' && line[i] != '\r')
				norm[n++] = line[i];
		norm[n] = '\0';
		if (n < REF_MIN_LINE || !strncmp(norm, "//", 2) || !strncmp(norm, "/*", 2) || norm[0] == '*')
			continue;
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 256;
			out->v = realloc(out->v, out->cap * sizeof(*out->v));
			if (!out->v) {
				fclose(f);
				return false;
			}
		}
		out->v[out->n] = strdup(norm);
		if (!out->v[out->n++]) {
			fclose(f);
			return false;
		}
	}
	fclose(f);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	for (i = k = 0; i < out->n; i++) {
		if (k && !strcmp(out->v[k - 1], out->v[i])) {
			free(out->v[i]);
			continue;
		}
		out->v[k++] = out->v[i];
	}
	out->n = k;
	return true;
}

static bool has_line(const struct lines *l, const char *s)
{
	return l->n && bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_str);
}

static int do_reference(int argc, char **argv)
{
	struct lines sub, final;
	int i;

	if (!added_lines(argv[0], &sub) || !added_lines(argv[1], &final)) {
		fprintf(stderr, "intake reference: cannot read %s or %s: %s\n", argv[0], argv[1], strerror(errno));
		return 2;
	}
	for (i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		struct lines lab;
		size_t j, total = 0, matched = 0;

		if (!eq || eq == argv[i] || !added_lines(eq + 1, &lab)) {
			fprintf(stderr, "intake reference: '%s' is not N=DIFF-FILE\n", argv[i]);
			return 2;
		}
		for (j = 0; j < lab.n; j++) {
			if (!has_line(&final, lab.v[j]))
				continue;
			total++;
			matched += has_line(&sub, lab.v[j]);
		}
		printf("%.*s %zu %zu%s\n", (int)(eq - argv[i]), argv[i], matched, total,
		       total >= REF_MIN_LINE && matched == total ? " match" : "");
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
	if (argc == 2 && !strcmp(argv[1], "flags"))
		return do_flags();
	if (argc >= 5 && !strcmp(argv[1], "reference"))
		return do_reference(argc - 2, argv + 2);
	return usage();
}
