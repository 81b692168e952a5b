/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 3: the part of the BPF selftests' test_progs.h that a prog_tests
 * file uses, so that a student's tools/testing/selftests/bpf/prog_tests/
 * bpf_loop.c builds unchanged against the kit's harness (harness.c)
 * instead of the kernel tree's test_progs runner.
 *
 * The names and the meaning of each macro follow upstream: an ASSERT_*
 * macro evaluates to true when the check holds; on failure it marks the
 * running subtest (or the test, outside any subtest) failed and prints one
 * KTAP diagnostic line with what was expected, what came and file:line.
 * CHECK() keeps upstream's inverted sense: the condition is the failure,
 * and the caller declares the 'duration' it names.
 *
 * Only libbpf 1.1's own headers are used, never the kernel tree's tools/.
 */
#ifndef __TEST_PROGS_H
#define __TEST_PROGS_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/param.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/perf_event.h>
#include <linux/unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/bpf_endian.h>

/* u32 and friends, which skeletons use. */
#include "../guest/short-types.h"

enum verbosity {
	VERBOSE_NONE,
	VERBOSE_NORMAL,
	VERBOSE_VERY,
	VERBOSE_SUPER,
};

struct test_env {
	enum verbosity verbosity;	/* lab3-selftests -v, -vv */
	bool verifier_stats;
	bool debug;
	bool jit_enabled;		/* /proc/sys/net/core/bpf_jit_enable */
	bool has_testmod;		/* never: the guest has no bpf_testmod */
	int nr_cpus;
	/* Both go to the harness's capture of the test's output, shown as
	 * diagnostics when the test fails: never onto the KTAP stream. */
	FILE *stdout;
	FILE *stderr;
};

extern struct test_env env;

bool test__start_subtest(const char *name);
void test__end_subtest(void);
void test__skip(void);
void test__fail(void);
void test__force_log(void);

/* Mark the running (sub)test failed and print "# MESSAGE (file:line)". */
void test__report(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for CHECK(): "# TAG: MESSAGE (file:line)". */
void test__report_check(const char *file, int line, const char *tag,
			const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))
#endif

#ifndef __packed
#define __packed __attribute__((packed))
#endif

/* The kernel's ERR_PTR convention, as tools/include/linux/err.h has it. */
#ifndef MAX_ERRNO
#define MAX_ERRNO 4095
#endif
#define IS_ERR_VALUE(x) ((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE((unsigned long)ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr) { return !ptr || IS_ERR(ptr); }

static inline __u64 ptr_to_u64(const void *ptr)
{
	return (__u64)(unsigned long)ptr;
}

static inline void *u64_to_ptr(__u64 ptr)
{
	return (void *)(unsigned long)ptr;
}

/* The guest kernel is x86-64, built with syscall wrappers. */
#define SYS_NANOSLEEP_KPROBE_NAME "__x64_sys_nanosleep"

#define PRINT_FAIL(format...) test__report(__FILE__, __LINE__, format)

#define _CHECK(condition, tag, duration, format...) ({			\
	int ___ret = !!(condition);					\
	int ___save_errno = errno;					\
	(void)(duration);						\
	if (___ret)							\
		test__report_check(__FILE__, __LINE__, (tag), format);	\
	errno = ___save_errno;						\
	___ret;								\
})

#define CHECK(condition, tag, format...) \
	_CHECK(condition, tag, duration, format)
#define CHECK_ATTR(condition, tag, format...) \
	_CHECK(condition, tag, tattr.duration, format)

#define CHECK_FAIL(condition) ({					\
	int ___ret = !!(condition);					\
	int ___save_errno = errno;					\
	if (___ret)							\
		test__report(__FILE__, __LINE__, "CHECK_FAIL(%s)", #condition); \
	errno = ___save_errno;						\
	___ret;								\
})

/*
 * The comparisons: the values compare in their own types (as upstream
 * does) and print as long long.
 */
#define __ASSERT_CMP(actual, expected, name, op, what) ({		\
	typeof(actual) ___act = (actual);				\
	typeof(expected) ___exp = (expected);				\
	bool ___ok = ___act op ___exp;					\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected %s%lld, got %lld",		\
			     (name), what, (long long)(___exp),		\
			     (long long)(___act));			\
	___ok;								\
})

#define ASSERT_EQ(actual, expected, name) \
	__ASSERT_CMP(actual, expected, name, ==, "")
#define ASSERT_NEQ(actual, expected, name) \
	__ASSERT_CMP(actual, expected, name, !=, "a value other than ")
#define ASSERT_LT(actual, expected, name) \
	__ASSERT_CMP(actual, expected, name, <, "less than ")
#define ASSERT_LE(actual, expected, name) \
	__ASSERT_CMP(actual, expected, name, <=, "at most ")
#define ASSERT_GT(actual, expected, name) \
	__ASSERT_CMP(actual, expected, name, >, "more than ")
#define ASSERT_GE(actual, expected, name) \
	__ASSERT_CMP(actual, expected, name, >=, "at least ")

#define ASSERT_FAIL(fmt, args...) ({					\
	test__report(__FILE__, __LINE__, fmt, ##args);			\
	false;								\
})

#define ASSERT_TRUE(actual, name) ({					\
	bool ___ok = (actual);						\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected true, got false", (name));	\
	___ok;								\
})

#define ASSERT_FALSE(actual, name) ({					\
	bool ___ok = !(actual);						\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected false, got true", (name));	\
	___ok;								\
})

#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *___act = (actual);					\
	const char *___exp = (expected);				\
	bool ___ok = strcmp(___act, ___exp) == 0;			\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected '%s', got '%s'",		\
			     (name), ___exp, ___act);			\
	___ok;								\
})

#define ASSERT_STRNEQ(actual, expected, len, name) ({			\
	const char *___act = (actual);					\
	const char *___exp = (expected);				\
	int ___len = (len);						\
	bool ___ok = strncmp(___act, ___exp, ___len) == 0;		\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected '%.*s', got '%.*s'",		\
			     (name), ___len, ___exp, ___len, ___act);	\
	___ok;								\
})

#define ASSERT_HAS_SUBSTR(str, substr, name) ({				\
	const char *___str = (str);					\
	const char *___substr = (substr);				\
	bool ___ok = strstr(___str, ___substr) != NULL;			\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected a string containing '%s', got '%s'", \
			     (name), ___substr, ___str);		\
	___ok;								\
})

#define ASSERT_OK(res, name) ({						\
	long long ___res = (res);					\
	int ___errno = errno;						\
	bool ___ok = ___res == 0;					\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected success (0), got %lld (errno %d: %s)", \
			     (name), ___res, ___errno, strerror(___errno)); \
	errno = ___errno;						\
	___ok;								\
})

#define ASSERT_ERR(res, name) ({					\
	long long ___res = (res);					\
	bool ___ok = ___res < 0;					\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected an error (< 0), got %lld",	\
			     (name), ___res);				\
	___ok;								\
})

#define ASSERT_NULL(ptr, name) ({					\
	const void *___res = (ptr);					\
	bool ___ok = !___res;						\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected NULL, got %p", (name), ___res); \
	___ok;								\
})

/* libbpf 1.x returns NULL and sets errno; older code returned ERR_PTR. */
#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___res = (ptr);					\
	int ___errno = errno;						\
	bool ___ok = ___res && !IS_ERR(___res);				\
	if (!___res)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected a valid pointer, got NULL (errno %d: %s)", \
			     (name), ___errno, strerror(___errno));	\
	else if (!___ok)						\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected a valid pointer, got error %ld (%s)", \
			     (name), PTR_ERR(___res), strerror(-PTR_ERR(___res))); \
	errno = ___errno;						\
	___ok;								\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *___res = (ptr);					\
	bool ___ok = !___res || IS_ERR(___res);				\
	if (!___ok)							\
		test__report(__FILE__, __LINE__,			\
			     "%s: expected an error, got pointer %p",	\
			     (name), ___res);				\
	___ok;								\
})

#define SYS(goto_label, fmt, ...) ({					\
	char ___cmd[1024];						\
	snprintf(___cmd, sizeof(___cmd), fmt, ##__VA_ARGS__);		\
	if (!ASSERT_OK(system(___cmd), ___cmd))				\
		goto goto_label;					\
})

#define SYS_NOFAIL(fmt, ...) ({						\
	char ___cmd[1024];						\
	snprintf(___cmd, sizeof(___cmd), fmt, ##__VA_ARGS__);		\
	system(___cmd);							\
})

#endif /* __TEST_PROGS_H */
