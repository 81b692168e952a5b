// SPDX-License-Identifier: GPL-2.0
/*
 * lab3-selftests: run a student's upstream-style bpf_loop selftest in the
 * lab guest, and report it in KTAP.
 *
 *   lab3-selftests [-v|-vv] [--only NAME[,NAME...]] [--after ID]
 *
 * grading/pipeline/guest-build links this file with the student's prog_tests/bpf_loop.c
 * and the skeleton of their progs/bpf_loop.c. The test function
 * test_bpf_loop() (and serial_test_bpf_loop(), when there is one) runs
 * once, as test_progs would run it. Each test__start_subtest() opens a
 * subtest, reported as "lab3.selftest.NAME" (the name with everything but
 * letters, digits, '_' and '-' made '_', and made unique), and the whole
 * as "lab3.selftest": it fails when an assertion outside the subtests or
 * any subtest failed. Before each, a diagnostic line "# running ID" is
 * flushed, so that a crash of the guest can be pinned on it.
 *
 * --only runs just the named subtests (names or ids); --after ID leaves
 * out the subtests up to and including ID, to resume after one that
 * crashed the guest. A subtest left out is not reported, and its
 * test__start_subtest() returns false.
 *
 * What the test prints (its stdout and stderr, libbpf's messages) is
 * captured, never mixed into the KTAP stream, and shown as "#" lines after
 * a (sub)test that failed; -v shows it always, -vv adds libbpf's debug.
 *
 * Exit status: 0 passed or skipped, 1 failed, 2 usage, or not a lab guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "test_progs.h"
#include "network_helpers.h"
#include "guest.h"

#define ID_PREFIX "lab3.selftest"
#define MAX_NAME 64		/* of a subtest's name, in its id */
#define MAX_SUBTESTS 256	/* names remembered to keep ids unique */
#define DUMP_LINES 200		/* of captured output, per (sub)test */
#define INDENT 4		/* the subtests' KTAP nesting */

/* Upstream's runner calls whichever of the two the file defines. */
void test_bpf_loop(void) __attribute__((weak));
void serial_test_bpf_loop(void) __attribute__((weak));

struct test_env env;

/* network_helpers.h's test packets: Ethernet, IP, TCP, no payload. */
struct ipv4_packet pkt_v4 = {
	.eth.h_proto = __bpf_constant_htons(ETH_P_IP),
	.iph.ihl = 5,
	.iph.protocol = IPPROTO_TCP,
	.iph.tot_len = __bpf_constant_htons(MAGIC_BYTES),
	.tcp.urg_ptr = 123,
	.tcp.doff = 5,
};

struct ipv6_packet pkt_v6 = {
	.eth.h_proto = __bpf_constant_htons(ETH_P_IPV6),
	.iph.nexthdr = IPPROTO_TCP,
	.iph.payload_len = __bpf_constant_htons(MAGIC_BYTES),
	.tcp.urg_ptr = 123,
	.tcp.doff = 5,
};

/*
 * Upstream's tests fire fentry and kprobe programs on sys_nanosleep with
 * usleep() or nanosleep(), but glibc 2.36 implements both with the
 * clock_nanosleep system call, so such programs would never run. The test
 * gets the system call it expects (the static link takes these first).
 */
int nanosleep(const struct timespec *req, struct timespec *rem)
{
	return syscall(SYS_nanosleep, req, rem);
}

int usleep(useconds_t usec)
{
	struct timespec ts = {
		.tv_sec = usec / 1000000,
		.tv_nsec = (usec % 1000000) * 1000L,
	};

	return nanosleep(&ts, NULL);
}

struct unit {
	char id[sizeof(ID_PREFIX) + 1 + MAX_NAME + 8];
	bool failed;
	bool skipped;
	bool force_log;
	double t0;
	off_t out_start;	/* its captured output starts here */
};

static FILE *ktap;		/* the real stdout, for KTAP alone */
static int capture_fd = -1;	/* the test's stdout and stderr */
static struct unit top, sub;
static bool in_sub, in_test;
static int sub_number, sub_run, sub_failed;
static char failed_names[512];

/* The top-level test's own output, between and around its subtests. */
static char *top_out;
static size_t top_out_len;

static char names[MAX_SUBTESTS][MAX_NAME + 1];
static int nr_names;
static const char *only, *after;
static bool resumed = true;

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One "# " line per line of the message, at the given nesting. */
static void diag(int indent, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diag(int indent, const char *fmt, ...)
{
	char buf[2048], *line, *save = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fprintf(ktap, "%*s# %s\n", indent, "", line);
	fflush(ktap);
}

/* The end of the captured output so far. */
static off_t capture_end(void)
{
	struct stat st;

	fflush(stdout);
	fflush(stderr);
	if (capture_fd < 0 || fstat(capture_fd, &st))
		return 0;
	return st.st_size;
}

/* Append the captured output [from, to) to *buf. */
static void capture_take(off_t from, off_t to, char **buf, size_t *len)
{
	char *more;
	ssize_t n;

	if (capture_fd < 0 || to <= from)
		return;
	more = realloc(*buf, *len + (to - from) + 1);
	if (!more)
		return;
	*buf = more;
	n = pread(capture_fd, *buf + *len, to - from, from);
	if (n > 0)
		*len += n;
	(*buf)[*len] = '\0';
}

/* Show captured output as "#   " lines: its last DUMP_LINES lines. */
static void dump(const char *what, const char *text, size_t len)
{
	const char *p, *start = text, *end = text + len;
	int lines = 0;

	if (!text || !len)
		return;
	for (p = end; p > text; p--)
		if (p[-1] == '\n' && p < end && ++lines > DUMP_LINES) {
			start = p;
			break;
		}
	diag(INDENT, "output of %s%s:", what,
	     start != text ? " (cut to its last lines)" : "");
	for (p = start; p < end;) {
		const char *nl = memchr(p, '\n', end - p);
		int n = nl ? (int)(nl - p) : (int)(end - p);

		if (n)
			fprintf(ktap, "%*s#   %.*s\n", INDENT, "", n > 400 ? 400 : n, p);
		p += n + 1;
	}
	fflush(ktap);
}

static void dump_range(const char *what, off_t from, off_t to)
{
	char *text = NULL;
	size_t len = 0;

	capture_take(from, to, &text, &len);
	dump(what, text, len);
	free(text);
}

/* The subtest's name as an id word, unique within this run. */
static void id_name(const char *name, char *out)
{
	char base[MAX_NAME + 1];
	int i, k, n;

	for (n = 0; name[n] && n < MAX_NAME; n++) {
		char c = name[n];
		bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '_' || c == '-';

		base[n] = word ? c : '_';
	}
	base[n] = '\0';
	strcpy(out, base);
	for (k = 2; k < 1000; k++) {
		for (i = 0; i < nr_names; i++)
			if (!strcmp(names[i], out))
				break;
		if (i == nr_names)
			break;
		snprintf(out, MAX_NAME + 1, "%.*s_%d", MAX_NAME - 4, base, k);
	}
	if (nr_names < MAX_SUBTESTS)
		strcpy(names[nr_names++], out);
}

static struct unit *current(void)
{
	return in_sub ? &sub : &top;
}

void test__fail(void)
{
	current()->failed = true;
}

void test__skip(void)
{
	current()->skipped = true;
}

void test__force_log(void)
{
	current()->force_log = true;
}

static void report(const char *file, int line, const char *msg)
{
	test__fail();
	diag(INDENT, "%s (%s:%d)", msg, file, line);
}

void test__report(const char *file, int line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	report(file, line, msg);
}

void test__report_check(const char *file, int line, const char *tag, const char *fmt, ...)
{
	char msg[1024];
	int n;
	va_list ap;

	n = snprintf(msg, sizeof(msg), "%s: ", tag);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	report(file, line, msg);
}

static void top_collect(void)
{
	off_t end = capture_end();

	capture_take(top.out_start, end, &top_out, &top_out_len);
	top.out_start = end;
}

void test__end_subtest(void)
{
	off_t end;

	if (!in_sub)
		return;
	in_sub = false;
	end = capture_end();
	if (sub.failed || sub.force_log || env.verbosity)
		dump_range(sub.id, sub.out_start, end);
	diag(INDENT, "duration %s %.3f s", sub.id, seconds() - sub.t0);
	sub_run++;
	if (sub.failed) {
		sub_failed++;
		if (strlen(failed_names) + strlen(sub.id) + 3 < sizeof(failed_names))
			sprintf(failed_names + strlen(failed_names), "%s%s",
				failed_names[0] ? ", " : "", sub.id);
		fprintf(ktap, "%*snot ok %d %s\n", INDENT, "", sub_number, sub.id);
	} else if (sub.skipped) {
		fprintf(ktap, "%*sok %d %s # SKIP the test called test__skip()\n",
			INDENT, "", sub_number, sub.id);
	} else {
		fprintf(ktap, "%*sok %d %s\n", INDENT, "", sub_number, sub.id);
	}
	fflush(ktap);
	top.out_start = end;
}

bool test__start_subtest(const char *name)
{
	char word[MAX_NAME + 1];

	test__end_subtest();
	sub_number++;
	if (!name || !name[0]) {
		test__report(__FILE__, __LINE__, "subtest #%d has no name", sub_number);
		return false;
	}
	id_name(name, word);
	if (!resumed) {
		char id[sizeof(sub.id)];

		snprintf(id, sizeof(id), "%s.%s", ID_PREFIX, word);
		resumed = !strcmp(id, after);
		return false;
	}
	if (only && !in_list(only, word) && !in_list(only, name)) {
		char id[sizeof(sub.id)];

		snprintf(id, sizeof(id), "%s.%s", ID_PREFIX, word);
		if (!in_list(only, id))
			return false;
	}
	top_collect();
	memset(&sub, 0, sizeof(sub));
	snprintf(sub.id, sizeof(sub.id), "%s.%s", ID_PREFIX, word);
	diag(INDENT, "running %s: subtest \"%s\"", sub.id, name);
	sub.t0 = seconds();
	sub.out_start = capture_end();
	in_sub = true;
	return true;
}

/* The end of the test: its subtests' summary and its own result. */
static int finish(void)
{
	bool failed;

	test__end_subtest();
	top_collect();
	in_test = false;
	failed = top.failed || sub_failed;
	if (top.failed || top.force_log || env.verbosity)
		dump(ID_PREFIX, top_out, top_out_len);
	if (sub_failed)
		diag(INDENT, "%s: %d of %d subtests failed: %s", ID_PREFIX,
		     sub_failed, sub_run, failed_names);
	diag(INDENT, "duration %s %.3f s", ID_PREFIX, seconds() - top.t0);
	if (failed)
		fprintf(ktap, "not ok 1 %s\n", ID_PREFIX);
	else if (top.skipped)
		fprintf(ktap, "ok 1 %s # SKIP the test called test__skip()\n", ID_PREFIX);
	else
		fprintf(ktap, "ok 1 %s\n", ID_PREFIX);
	fflush(ktap);
	return failed ? 1 : 0;
}

/*
 * A test that kills its own process (a bad pointer, abort()) or calls
 * exit() still ends its KTAP: the guest is fine, only the test is not.
 */
static void on_fatal_signal(int sig)
{
	char buf[600];
	int n = 0, fd = fileno(ktap);
	const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" :
			   sig == SIGABRT ? "SIGABRT" : sig == SIGFPE ? "SIGFPE" :
			   sig == SIGILL ? "SIGILL" : "a signal";

	n += snprintf(buf + n, sizeof(buf) - n, "%*s# the test program died of %s (%d)\n",
		      INDENT, "", name, sig);
	if (in_sub)
		n += snprintf(buf + n, sizeof(buf) - n, "%*snot ok %d %s\n",
			      INDENT, "", sub_number, sub.id);
	n += snprintf(buf + n, sizeof(buf) - n, "not ok 1 %s\n", ID_PREFIX);
	if (write(fd, buf, n) < 0)
		n = 0;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_early(void)
{
	if (!in_test)
		return;
	if (in_sub)
		sub.failed = true;
	top.failed = true;
	diag(INDENT, "the test called exit() before it returned");
	finish();
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && env.verbosity < VERBOSE_VERY)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bool jit_enabled(void)
{
	FILE *f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	int v = 0;

	if (!f)
		return false;
	if (fscanf(f, "%d", &v) != 1)
		v = 0;
	fclose(f);
	return v != 0;
}

/* Send the test's stdout and stderr to a file of its own. */
static int capture_output(void)
{
	int fd, out;

	out = dup(STDOUT_FILENO);
	if (out < 0 || !(ktap = fdopen(out, "w")))
		return -errno;
	setvbuf(ktap, NULL, _IOLBF, 0);
	fd = memfd_create("lab3-selftests-output", MFD_CLOEXEC);
	if (fd < 0)
		fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	fflush(stdout);
	fflush(stderr);
	if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
		return -errno;
	capture_fd = fd;
	/* A file is fully buffered: keep the test's lines in their order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: lab3-selftests [-v|-vv] [--only NAME[,NAME...]] [--after ID]\n");
}

int main(int argc, char **argv)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	unsigned int i;
	int err;

	for (i = 1; i < (unsigned int)argc; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			env.verbosity = VERBOSE_NORMAL;
		} else if (!strcmp(argv[i], "-vv")) {
			env.verbosity = VERBOSE_VERY;
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (i + 1 < (unsigned int)argc && !strcmp(argv[i], "--only")) {
			only = argv[++i];
		} else if (i + 1 < (unsigned int)argc && !strcmp(argv[i], "--after")) {
			after = argv[++i];
			resumed = false;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (!in_lab_guest()) {
		fprintf(stderr, "lab3-selftests: this is not a lab guest (no bpfloop.guest on the kernel\n"
				"command line). The tests load BPF programs into the running kernel:\n"
				"run them in QEMU (vm/qemu-run), never on the host.\n");
		return 2;
	}
	err = capture_output();
	if (err) {
		fprintf(stderr, "lab3-selftests: cannot capture the test's output: %s\n",
			strerror(-err));
		return 2;
	}

	env.jit_enabled = jit_enabled();
	env.nr_cpus = libbpf_num_possible_cpus();
	env.stdout = stdout;
	env.stderr = stderr;
	libbpf_set_print(print_libbpf);
	for (i = 0; i < ARRAY_SIZE(fatal); i++)
		signal(fatal[i], on_fatal_signal);
	atexit(on_exit_early);

	fprintf(ktap, "KTAP version 1\n1..1\n");
	fprintf(ktap, "%*sKTAP version 1\n%*s# Subtest: %s\n", INDENT, "", INDENT, "", ID_PREFIX);
	diag(INDENT, "running %s: prog_tests/bpf_loop.c", ID_PREFIX);
	snprintf(top.id, sizeof(top.id), "%s", ID_PREFIX);
	top.t0 = seconds();
	top.out_start = capture_end();
	in_test = true;
	if (!test_bpf_loop && !serial_test_bpf_loop)
		test__report("prog_tests/bpf_loop.c", 0,
			     "defines neither test_bpf_loop() nor serial_test_bpf_loop()");
	if (test_bpf_loop)
		test_bpf_loop();
	if (serial_test_bpf_loop) {
		test__end_subtest();
		serial_test_bpf_loop();
	}
	return finish();
}
