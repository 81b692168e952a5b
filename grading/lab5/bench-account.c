// SPDX-License-Identifier: GPL-2.0
/*
 * lab5-account: run a student's lab 5 benchmark in the lab guest as a
 * process of its own, without root, and report what the kernel did while
 * it ran. The host's judge (grading/lab5/bench-judge.c) grades from these
 * figures; the benchmark's own output only says what the student claims.
 *
 *   lab5-account --tag TAG --nr-loops N [--uid UID] [--timeout SEC]
 *                [--sample-ms MS] -- COMMAND [ARG...]
 *
 * Before COMMAND starts, as root:
 *  - it makes the result channel /dev/ttyS1 and the run id /run/id
 *    root's alone (0600), and /sys/fs/bpf not writable by others (0755),
 *    so that the benchmark can neither write a line of the kit's nor pin
 *    an object that outlives it;
 *  - it loads and attaches the kit's count of bpf_loop() calls
 *    (loop_count.bpf.c, an fexit program on the helper) for nr_loops N;
 *  - it turns on the kernel's BPF run statistics (BPF_ENABLE_STATS:
 *    run_cnt and run_time_ns of every program) and keeps them on until
 *    it ends;
 *  - it notes every BPF program there is already, with its figures.
 * Then COMMAND runs in a child: uid and gid UID (default 1000), no
 * supplementary groups, with only CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN
 * (ambient, so they survive exec; every other capability is dropped from
 * the bounding set), no_new_privs, in a session of its own, stdin
 * /dev/null, stdout and stderr one pipe to this process, no other file
 * descriptor. Without CAP_SYS_ADMIN it cannot get a descriptor of the
 * kit's program or map by id; another uid, it cannot signal or trace this
 * process.
 *
 * While it runs, every MS milliseconds (default 100) this process takes
 * descriptors of the BPF programs that appeared (so their figures outlive
 * the child) and prints a sample. When the child ends, or after SEC
 * seconds (default 120; it is killed then), every process of UID is
 * killed, what is left in the pipe is forwarded, and a last sample and
 * the totals follow. Lines, on stdout:
 *
 *   lab5-run TAG nr_loops N uid UID
 *   lab5-out TEXT      a line the child printed, escaped: a backslash is
 *                      "\\", bytes below 0x20 and 0x7f are "\xHH"; a
 *                      line longer than 1024 bytes is cut into several.
 *                      Nothing the child prints can start a line of the
 *                      kit's. After 256 KiB the rest is dropped.
 *   lab5-sample T READ CALLS LOOPS SHORT OTHER_CALLS OTHER_LOOPS RUN_CNT RUN_TIME_NS
 *                      T: microseconds since the child started, halfway
 *                      through reading the figures; READ: how long the
 *                      reading took, in microseconds (a program of the
 *                      child's that runs in this process's way shows
 *                      there); CALLS,
 *                      LOOPS, SHORT, OTHER_*: loop_count.bpf.c's counts
 *                      (calls of bpf_loop() with nr_loops == N, the
 *                      iterations they ran, those of them that ran fewer or
 *                      failed; calls with another nr_loops and their
 *                      iterations); RUN_CNT and RUN_TIME_NS: the kernel's
 *                      run statistics of every BPF program but the kit's,
 *                      summed, less what they were before the child started
 *   lab5-first T       the first bpf_loop() call, in microseconds since
 *                      the child started ("lab5-first none": no call)
 *   lab5-prog ID TYPE RUN_CNT RUN_TIME_NS LOOP_CALLS NAME
 *                      each program that appeared (type: enum
 *                      bpf_prog_type; LOOP_CALLS: calls of helper 181 in its
 *                      translated instructions, -1 when the kernel hides the
 *                      helper's address; NAME "-" when it has none)
 *   lab5-kit KEY VALUE misses (calls the kit's count missed: it was
 *                      running already on that CPU), untracked (programs
 *                      beyond the ones it can hold), dropped (bytes of
 *                      output dropped)
 *   lab5-exit TAG STATUS   the child's exit status, "signal-N" when a
 *                      signal ended it, "timeout" when this process did
 *   lab5-error TEXT    the kit could not do its part; no figures follow
 *
 * Exit status: 0 the figures are complete (whatever the child did); 1 the
 * kit could not measure; 2 usage or not a lab guest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "guest.h"
#include "loop_count.h"
#include "loop_count.skel.h"

#define MAX_PROGS 256
#define FORWARD_LINE 1024
#define FORWARD_CAP (256 * 1024)

struct prog {
	__u32 id;
	int fd;
	bool before;		/* there before the child started */
	__u32 type;
	char name[BPF_OBJ_NAME_LEN];
	__u64 base_cnt, base_time;
	__u64 run_cnt, run_time;
};

static struct prog progs[MAX_PROGS];
static int nprogs;
static long untracked;
static __u32 own_id;

static __u64 mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static void kit_error(const char *fmt, ...)
{
	va_list ap;

	printf("lab5-error ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* Root's alone: the child must not open it, or pin into it. */
static int guard(const char *path, mode_t mode)
{
	if (chown(path, 0, 0) || chmod(path, mode)) {
		if (errno == ENOENT)
			return 0;
		kit_error("cannot make %s root's (%s)", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- the programs ---------------------------------------------------- */

static int prog_info(int fd, struct bpf_prog_info *info)
{
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len);
}

/* Take a descriptor of every program that is not held yet (but the kit's). */
static void scan_progs(bool before)
{
	struct bpf_prog_info info;
	__u32 id = 0;
	int i, fd;

	while (!bpf_prog_get_next_id(id, &id)) {
		if (id == own_id)
			continue;
		for (i = 0; i < nprogs && progs[i].id != id; i++)
			;
		if (i < nprogs)
			continue;
		if (nprogs == MAX_PROGS) {
			untracked++;
			continue;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0 || prog_info(fd, &info)) {
			if (fd >= 0)
				close(fd);
			continue;	/* gone already */
		}
		progs[nprogs] = (struct prog){
			.id = id, .fd = fd, .before = before, .type = info.type,
			.base_cnt = before ? info.run_cnt : 0,
			.base_time = before ? info.run_time_ns : 0,
			.run_cnt = info.run_cnt, .run_time = info.run_time_ns,
		};
		snprintf(progs[nprogs].name, sizeof(progs[nprogs].name), "%s",
			 info.name[0] ? info.name : "-");
		nprogs++;
	}
}

static void read_progs(__u64 *run_cnt, __u64 *run_time)
{
	struct bpf_prog_info info;
	int i;

	*run_cnt = *run_time = 0;
	for (i = 0; i < nprogs; i++) {
		if (!prog_info(progs[i].fd, &info)) {
			progs[i].run_cnt = info.run_cnt;
			progs[i].run_time = info.run_time_ns;
		}
		*run_cnt += progs[i].run_cnt - progs[i].base_cnt;
		*run_time += progs[i].run_time - progs[i].base_time;
	}
}

/* The address of a kernel symbol, 0 when unknown or hidden. */
static unsigned long ksym(const char *name)
{
	char line[256], sym[128], type;
	unsigned long addr, found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx %c %127s", &addr, &type, sym) == 3 && !strcmp(sym, name)) {
			found = addr;
			break;
		}
	fclose(f);
	return found;
}

/* Calls of the helper at address FN in a program's translated
 * instructions (a helper call holds FN - __bpf_call_base); -1 when the
 * kernel hides the addresses. */
static long helper_calls(int fd, unsigned long fn, unsigned long base)
{
	struct bpf_prog_info info;
	struct bpf_insn *insns;
	__u32 len = sizeof(info), n;
	long i, calls = 0;

	if (!fn || !base || prog_info(fd, &info))
		return -1;
	n = info.xlated_prog_len;
	if (!n)
		return -1;
	insns = calloc(1, n);
	if (!insns)
		return -1;
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = n;
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		free(insns);
		return -1;
	}
	for (i = 0; i < (long)(n / sizeof(*insns)); i++)
		if (insns[i].code == (BPF_JMP | BPF_CALL) && insns[i].src_reg == 0 &&
		    base + (long)insns[i].imm == fn)
			calls++;
	free(insns);
	return calls;
}

/* ---- the kit's count of bpf_loop() calls ------------------------------ */

static int read_counts(struct loop_count *skel, struct loop_counts *sum)
{
	int cpus = libbpf_num_possible_cpus(), i;
	struct loop_counts *per_cpu;
	__u32 key = 0;

	memset(sum, 0, sizeof(*sum));
	if (cpus <= 0)
		return -1;
	per_cpu = calloc(cpus, sizeof(*per_cpu));
	if (!per_cpu)
		return -1;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.counts), &key, per_cpu)) {
		free(per_cpu);
		return -1;
	}
	for (i = 0; i < cpus; i++) {
		sum->calls += per_cpu[i].calls;
		sum->loops += per_cpu[i].loops;
		sum->short_calls += per_cpu[i].short_calls;
		sum->other_calls += per_cpu[i].other_calls;
		sum->other_loops += per_cpu[i].other_loops;
		if (per_cpu[i].first_ns && (!sum->first_ns || per_cpu[i].first_ns < sum->first_ns))
			sum->first_ns = per_cpu[i].first_ns;
	}
	free(per_cpu);
	return 0;
}

static void sample(struct loop_count *skel, __u64 t0)
{
	struct loop_counts c;
	__u64 run_cnt, run_time, start = mono_ns(), end;

	scan_progs(false);
	read_progs(&run_cnt, &run_time);
	read_counts(skel, &c);
	end = mono_ns();
	printf("lab5-sample %lld %lld %llu %llu %llu %llu %llu %llu %llu\n",
	       (long long)((start + end) / 2 - t0) / 1000, (long long)(end - start) / 1000,
	       (unsigned long long)c.calls,
	       (unsigned long long)c.loops, (unsigned long long)c.short_calls,
	       (unsigned long long)c.other_calls, (unsigned long long)c.other_loops,
	       (unsigned long long)run_cnt, (unsigned long long)run_time);
}

/* ---- the child -------------------------------------------------------- */

static const int kept_caps[] = { CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN };
#define NKEPT ((int)(sizeof(kept_caps) / sizeof(kept_caps[0])))

static bool kept(int cap)
{
	int i;

	for (i = 0; i < NKEPT; i++)
		if (kept_caps[i] == cap)
			return true;
	return false;
}

/* In the child: become UID with the kept capabilities only, and run
 * ARGV with OUT as stdout and stderr. Never returns. */
static void run_child(uid_t uid, int out, char **argv)
{
	static char *envp[] = { "PATH=/usr/bin:/bin", "HOME=/", NULL };
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = {};
	int cap, i, null = open("/dev/null", O_RDONLY);

	signal(SIGPIPE, SIG_DFL);
	if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		goto fail;
	if (syscall(SYS_close_range, 3U, ~0U, 0U))
		goto fail;
	if (setsid() < 0)
		goto fail;
	for (cap = 0; cap <= CAP_LAST_CAP; cap++)
		if (!kept(cap) && prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) && errno != EINVAL)
			goto fail;
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		goto fail;
	for (i = 0; i < NKEPT; i++) {
		data[kept_caps[i] / 32].permitted |= 1U << (kept_caps[i] % 32);
		data[kept_caps[i] / 32].effective |= 1U << (kept_caps[i] % 32);
		data[kept_caps[i] / 32].inheritable |= 1U << (kept_caps[i] % 32);
	}
	if (syscall(SYS_capset, &hdr, data))
		goto fail;
	for (i = 0; i < NKEPT; i++)
		if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, kept_caps[i], 0, 0))
			goto fail;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || chdir("/"))
		goto fail;
	execve(argv[0], argv, envp);
fail:
	fprintf(stderr, "lab5-account: cannot start %s as uid %u: %s\n", argv[0],
		(unsigned int)uid, strerror(errno));
	_exit(127);
}

/* Kill every process of UID (a helper process becomes UID and sends
 * SIGKILL to all it may: the child and whatever it started). */
static void kill_uid(uid_t uid)
{
	pid_t pid = fork();

	if (pid == 0) {
		/* Nothing of this process's may pass to UID's. */
		if (syscall(SYS_close_range, 0U, ~0U, 0U) || setgroups(0, NULL) ||
		    setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
			_exit(1);
		kill(-1, SIGKILL);
		_exit(0);
	}
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
}

/* ---- forwarding the child's output ------------------------------------ */

static char pending[FORWARD_LINE];
static size_t npending;
static long forwarded, dropped;

static void forward_line(const char *s, size_t n)
{
	size_t i;

	if (forwarded + (long)n > FORWARD_CAP) {
		dropped += n;
		return;
	}
	forwarded += n;
	fputs("lab5-out ", stdout);
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c == '\\')
			fputs("\\\\", stdout);
		else if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('\n');
}

static void forward(const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			forward_line(pending, npending);
			npending = 0;
			continue;
		}
		pending[npending++] = buf[i];
		if (npending == sizeof(pending)) {
			forward_line(pending, npending);
			npending = 0;
		}
	}
}

/* ---- main ------------------------------------------------------------- */

static int usage(void)
{
	fprintf(stderr, "usage: lab5-account --tag TAG --nr-loops N [--uid UID] [--timeout SEC] [--sample-ms MS] -- COMMAND [ARG...]\n");
	return 2;
}

static long number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v < min || v > max)
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	const char *tag = NULL;
	long nr_loops = -1, uid = 1000, timeout = 120, sample_ms = 100;
	struct loop_count *skel;
	struct bpf_prog_info info;
	struct loop_counts c;
	unsigned long fn, base;
	__u64 t0, next, deadline, drain_until = 0;
	int i, pipefd[2], stats_fd, status = 0, stop_rc;
	bool child_done = false, pipe_done = false, timed_out = false;
	char **cmd = NULL;
	pid_t child;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && i + 1 < argc) {
			cmd = argv + i + 1;
			break;
		} else if (i + 1 >= argc) {
			return usage();
		} else if (!strcmp(argv[i], "--tag")) {
			tag = argv[++i];
		} else if (!strcmp(argv[i], "--nr-loops")) {
			nr_loops = number(argv[++i], 0, UINT_MAX);
		} else if (!strcmp(argv[i], "--uid")) {
			uid = number(argv[++i], 1, 65533);
		} else if (!strcmp(argv[i], "--timeout")) {
			timeout = number(argv[++i], 1, 3600);
		} else if (!strcmp(argv[i], "--sample-ms")) {
			sample_ms = number(argv[++i], 10, 10000);
		} else {
			return usage();
		}
	}
	if (!cmd || !tag || !*tag || strpbrk(tag, " \t\n") || nr_loops < 0 || uid < 0 ||
	    timeout < 0 || sample_ms < 0)
		return usage();
	if (!in_lab_guest()) {
		fprintf(stderr, "lab5-account: this loads BPF programs: run it only in the lab guest (vm/qemu-run)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	printf("lab5-run %s nr_loops %ld uid %ld\n", tag, nr_loops, uid);
	if (geteuid() != 0) {
		kit_error("lab5-account runs as root (it turns BPF statistics on)");
		return 1;
	}
	if (guard("/dev/ttyS1", 0600) || guard("/run/id", 0600) || guard("/sys/fs/bpf", 0755))
		return 1;

	skel = loop_count__open();
	if (!skel) {
		kit_error("cannot open the kit's loop count");
		return 1;
	}
	skel->rodata->target = nr_loops;
	if (loop_count__load(skel) || loop_count__attach(skel)) {
		kit_error("cannot load or attach the kit's fexit program on bpf_loop: %s", strerror(errno));
		return 1;
	}
	if (prog_info(bpf_program__fd(skel->progs.count_loops), &info)) {
		kit_error("cannot read the kit's own program: %s", strerror(errno));
		return 1;
	}
	own_id = info.id;
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		kit_error("cannot turn BPF run statistics on: %s", strerror(errno));
		return 1;
	}
	fn = ksym("bpf_loop");
	base = ksym("__bpf_call_base");
	scan_progs(true);

	if (pipe2(pipefd, O_CLOEXEC)) {
		kit_error("pipe: %s", strerror(errno));
		return 1;
	}
	kill_uid(uid);	/* nothing of UID may run already */
	t0 = mono_ns();
	child = fork();
	if (child < 0) {
		kit_error("fork: %s", strerror(errno));
		return 1;
	}
	if (child == 0)
		run_child(uid, pipefd[1], cmd);
	close(pipefd[1]);

	next = t0;
	deadline = t0 + (__u64)timeout * 1000000000ULL;
	while (!child_done || !pipe_done) {
		struct pollfd p = { .fd = pipe_done ? -1 : pipefd[0], .events = POLLIN };
		__u64 now = mono_ns();
		char buf[4096];
		ssize_t n;
		pid_t w;

		if (now >= next) {
			sample(skel, t0);
			next += (__u64)sample_ms * 1000000;
			if (next < now)
				next = now + (__u64)sample_ms * 1000000;
		}
		if (now >= deadline && !timed_out && !child_done) {
			timed_out = true;
			kill_uid(uid);
			/* Whoever held the pipe is gone now. */
			drain_until = now + 2000000000ULL;
		}
		if (drain_until && now >= drain_until)
			break;	/* the pipe did not close: stop reading it */
		if (poll(&p, 1, (int)((next - now) / 1000000) + 1) > 0) {
			n = read(pipefd[0], buf, sizeof(buf));
			if (n > 0)
				forward(buf, n);
			else if (n == 0 || errno != EINTR)
				pipe_done = true;
		}
		if (!child_done) {
			w = waitpid(child, &status, WNOHANG);
			if (w == child) {
				child_done = true;
				/* What it left running goes with it. */
				kill_uid(uid);
				if (!drain_until)
					drain_until = mono_ns() + 2000000000ULL;
			}
		}
	}
	if (npending)
		forward_line(pending, npending);
	if (!child_done) {
		kill(child, SIGKILL);
		waitpid(child, &status, 0);
	}

	sample(skel, t0);
	stop_rc = read_counts(skel, &c);
	if (c.first_ns)
		printf("lab5-first %lld\n", ((long long)c.first_ns - (long long)t0) / 1000);
	else
		printf("lab5-first none\n");
	for (i = 0; i < nprogs; i++)
		if (!progs[i].before)
			printf("lab5-prog %u %u %llu %llu %ld %s\n", progs[i].id, progs[i].type,
			       (unsigned long long)progs[i].run_cnt, (unsigned long long)progs[i].run_time,
			       helper_calls(progs[i].fd, fn, base), progs[i].name);
	if (!prog_info(bpf_program__fd(skel->progs.count_loops), &info))
		printf("lab5-kit misses %llu\n", (unsigned long long)info.recursion_misses);
	else
		printf("lab5-kit misses -1\n");
	printf("lab5-kit untracked %ld\n", untracked);
	printf("lab5-kit dropped %ld\n", dropped);
	if (timed_out)
		printf("lab5-exit %s timeout\n", tag);
	else if (WIFSIGNALED(status))
		printf("lab5-exit %s signal-%d\n", tag, WTERMSIG(status));
	else
		printf("lab5-exit %s %d\n", tag, WEXITSTATUS(status));
	fflush(stdout);
	close(stats_fd);
	loop_count__destroy(skel);
	return stop_rc ? 1 : 0;
}
