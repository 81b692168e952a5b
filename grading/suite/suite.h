/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-guest test suite: shared declarations.
 *
 * A test is a function that checks one behaviour of the kernel and records
 * failures with the CHECK macros; each failure prints a "#" diagnostic line
 * that says what was expected and what came. Tests are listed per lab in
 * arrays (lab0.c, lab1.c, ...) that main.c strings together into KTAP.
 */
#ifndef SUITE_H
#define SUITE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* bpf_loop's helper ID: positional in 6.1, and ABI. */
#define HELPER_LOOP 181
/* The most loops bpf_loop accepts (1 << 23), as merged and documented. */
#define LOOP_LIMIT (1u << 23)

struct test_ctx {
	bool failed;
	bool skipped;
	char skip_reason[200];
	bool verbose;
};

/* Only at its own lab: a test of the state a lab starts from (lab 0's
 * "helper 181 is absent") that later labs change on purpose. */
#define TEST_ONLY_AT_OWN_LAB 0x1

struct suite_test {
	const char *id;		/* "lab0.bpf_syscall": lab, dot, name */
	const char *what;	/* one line: what it checks */
	void (*run)(struct test_ctx *ctx);
	unsigned int flags;
};

struct suite_lab {
	int number;
	const char *name;
	const struct suite_test *tests;	/* ends with a zeroed entry */
};

extern const struct suite_test lab0_tests[];
extern const struct suite_test lab1_tests[];
extern const struct suite_test lab2_tests[];
extern const struct suite_test lab6_tests[];

/* KTAP diagnostics: a "# " line at the current nesting. */
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print a (verifier) log as diagnostics, at most max_lines of its tail. */
void diag_log(const char *log, int max_lines);

void check_failed(struct test_ctx *ctx, const char *file, int line,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void test_skip(struct test_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define CHECK(ctx, cond, ...) ({					\
	bool __ok = (cond);						\
	if (!__ok)							\
		check_failed((ctx), __FILE__, __LINE__, __VA_ARGS__);	\
	__ok;								\
})

#define CHECK_EQ(ctx, got, want, what) ({				\
	long long __g = (long long)(got), __w = (long long)(want);	\
	CHECK((ctx), __g == __w, "%s: expected %lld, got %lld",	\
	      (what), __w, __g);					\
})

/* Programs and the verifier. */
#define VLOG_SIZE (1u << 20)
struct verdict {
	int err;		/* 0 loaded; else -errno of the load */
	char *log;		/* the verifier's log (level 1), VLOG_SIZE */
};

/*
 * Load only the program called prog_name of an opened (not loaded) object,
 * with the verifier log captured at the given level (1: verdict and
 * instructions on error; 2 adds states; 4: statistics only).
 * Returns the program's fd or a negative error; v gets the verdict.
 */
int load_one(struct bpf_object *obj, const char *prog_name, int log_level,
	     struct verdict *v);
/* The same for a skeleton (skel->skeleton): loading through it maps the
 * object's global data, so skel->bss and skel->data read what the program
 * wrote. Use it whenever a test reads globals after a run. */
int load_one_skel(struct bpf_object_skeleton *skel, const char *prog_name, int log_level,
		  struct verdict *v);
void verdict_free(struct verdict *v);

/* BPF_PROG_TEST_RUN of a tc program on a small Ethernet frame. Returns 0 or
 * -errno; *retval gets the program's return value. */
int tc_test_run(int prog_fd, unsigned int repeat, uint32_t *retval, uint32_t *duration_ns);

/* " (-EINVAL)" for the errors bpf_loop and the verifier give, else "":
 * a note for a diagnostic that prints the number. */
const char *errno_note(long long ret);

/* The verifier log says the program called an unknown helper ID. */
bool log_says_unknown_func(const char *log, int helper_id);

/* Silence libbpf's own printing unless verbose. */
void suite_libbpf_quiet(bool verbose);

#endif
