// SPDX-License-Identifier: GPL-2.0
/*
 * verif-load: load BPF objects in the lab guest and report what the
 * verifier said about each program (lab 4, verifier scale).
 *
 * Usage: verif-load [--seed HEX] NAME=FILE.bpf.o...
 *
 * Each object is opened with libbpf and loaded with log_level
 * BPF_LOG_STATS, nothing attached. A NAME that starts with pyperf or
 * strobemeta has its symbolmap or strobemeta_cfgs sized for the kit's
 * inputs first (exercise.c), whether it is exercised or not, so that
 * every load of it is the same. For each program of the object, one line:
 *
 *   verif name=NAME prog=PROG loaded=0|1 errno=E wall_usec=N
 *         verified_insns=N processed=N max_states_per_insn=N
 *         total_states=N peak_states=N mark_read=N verif_usec=N
 *         stack=A+B xlated=N loop_calls=N [reason=TEXT]
 *
 * (one line; -1 where a figure is unknown). verified_insns and xlated come
 * from bpf_prog_info; processed to verif_usec and stack from the verifier's
 * log. loop_calls counts the calls to helper 181 (bpf_loop) in the program
 * as the kernel keeps it (its xlated instructions): a helper call there
 * holds the helper's address, not its number, so the address is learnt
 * first from a probe program (loop_probe.bpf.c) that calls helper 181 with
 * flags the verifier cannot know, so that no kernel inlines it. reason is
 * the verifier's last message when the load failed; the log's last 30
 * lines follow then, as "verif-log NAME: LINE".
 *
 * The first line is "verif-probe helper181=ok|none|hidden" (none: the
 * kernel refuses helper 181; hidden: the kernel hides addresses, so calls
 * cannot be counted and loop_calls is -1).
 *
 * With --seed, each loaded pyperf or strobemeta object is then run on the
 * inputs of that seed (exercise.c, scale-input.c) and what the kernel
 * produced is printed, before the next object is loaded:
 *
 *   exercise name=NAME kind=pyperf|strobemeta seed=HEX cases=N [error=TEXT]
 *   obs name=NAME case=K pid=P cpu=C status=ok|timeout|died err=E retval=R
 *       (or: obs name=NAME case=K status=error what=TEXT)
 *   obs-event name=NAME case=K data=BYTES       pyperf: eventmap's value
 *   obs-stats name=NAME case=K success=N        pyperf: statsmap's counter
 *   obs-sym name=NAME case=K value=V key=BYTES  pyperf: each symbolmap entry
 *   obs-sample name=NAME case=K data=BYTES      strobemeta: sample_heap's
 *                                               value on the CPU it ran on
 *   obs-perf name=NAME case=K records=N lost=N sizes=S,...
 *   obs-end name=NAME case=K
 *
 * BYTES is run-length hex (scale-input.h). Nothing is judged here: the
 * host's lab4-judge compares these with what the unrolled program leaves
 * behind on the same inputs.
 * Exit status: 0 every object loaded, 1 some did not, 2 usage.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "exercise.h"
#include "guest.h"
#include "loop_probe.skel.h"

#define LOG_SIZE (1u << 20)

static char log_buf[LOG_SIZE];

struct stats {
	long long processed, max_states, total_states, peak_states, mark_read;
	long long verif_usec;
	char stack[64];
};

static long long now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* The address the kernel writes into a call of helper 181, learnt from
 * the probe program (loop_probe.bpf.c), which makes one such call. */
static int probe_loop_imm(__s32 *imm, int *hidden)
{
	struct loop_probe *skel;
	struct bpf_insn xlated[64];
	struct bpf_prog_info info;
	__u32 len = sizeof(info), i, n;
	int fd, err = -1;

	*hidden = 0;
	skel = loop_probe__open_and_load();
	if (!skel)
		return -1;
	fd = bpf_program__fd(skel->progs.loop_probe);
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = sizeof(xlated);
	info.xlated_prog_insns = (__u64)(unsigned long)xlated;
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		goto out;
	n = info.xlated_prog_len / sizeof(struct bpf_insn);
	if (n > sizeof(xlated) / sizeof(xlated[0]))
		n = sizeof(xlated) / sizeof(xlated[0]);
	for (i = 0; i < n; i++) {
		if (xlated[i].code == (BPF_JMP | BPF_CALL) && xlated[i].src_reg == 0) {
			*imm = xlated[i].imm;
			*hidden = *imm == 0;
			err = 0;
			break;
		}
	}
out:
	loop_probe__destroy(skel);
	return err;
}

static long long after(const char *log, const char *key)
{
	const char *p = strstr(log, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

static void parse_log(const char *log, struct stats *st)
{
	const char *p = strstr(log, "processed ");

	st->processed = p ? strtoll(p + strlen("processed "), NULL, 10) : -1;
	st->max_states = after(log, "max_states_per_insn ");
	st->total_states = after(log, "total_states ");
	st->peak_states = after(log, "peak_states ");
	st->mark_read = after(log, "mark_read ");
	st->verif_usec = after(log, "verification time ");
	strcpy(st->stack, "-1");
	p = strstr(log, "stack depth ");
	if (p) {
		size_t n;

		p += strlen("stack depth ");
		n = strcspn(p, " \n");
		if (n >= sizeof(st->stack))
			n = sizeof(st->stack) - 1;
		memcpy(st->stack, p, n);
		st->stack[n] = '\0';
	}
}

static bool stats_line(const char *line)
{
	return !strncmp(line, "processed ", 10) || !strncmp(line, "stack depth ", 12) ||
	       !strncmp(line, "verification time ", 18) || !strncmp(line, "max_states", 10);
}

/* The verifier's reason: the last non-empty line of LOG that is not one
 * of the statistics lines, tabs made spaces. */
static void log_reason(const char *log, char *out, size_t size)
{
	const char *end = log + strlen(log), *start;
	size_t n, i;

	out[0] = '\0';
	while (end > log) {
		start = end;
		while (start > log && start[-1] != '\n')
			start--;
		if (end > start && !stats_line(start)) {
			n = end - start;
			if (n >= size)
				n = size - 1;
			for (i = 0; i < n; i++)
				out[i] = start[i] == '\t' ? ' ' : start[i];
			out[n] = '\0';
			return;
		}
		end = start > log ? start - 1 : log;
	}
}

/* The end of a refused program's log, for the run's output file. */
static void print_log_end(const char *name, const char *log, int lines)
{
	const char *p = log + strlen(log);

	while (p > log && lines >= 0) {
		p--;
		if (*p == '\n')
			lines--;
	}
	if (*p == '\n')
		p++;
	while (*p) {
		size_t n = strcspn(p, "\n");

		printf("verif-log %s: %.*s\n", name, (int)n, p);
		p += n;
		if (*p)
			p++;
	}
}

static int count_calls(int fd, __s32 imm, long long *xlated_len)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info), i, n;
	struct bpf_insn *insns;
	int calls = 0;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	n = info.xlated_prog_len / sizeof(struct bpf_insn);
	*xlated_len = n;
	insns = calloc(n ? n : 1, sizeof(*insns));
	if (!insns)
		return -1;
	len = sizeof(info);
	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = n * sizeof(struct bpf_insn);
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		free(insns);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (insns[i].code == (BPF_JMP | BPF_CALL) && insns[i].src_reg == 0 &&
		    insns[i].imm == imm)
			calls++;
	free(insns);
	return calls;
}

static long long verified_insns(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -1;
	return info.verified_insns;
}

static bool seeded;
static uint64_t seed;

static int load_one(const char *name, const char *file, int have_imm, __s32 imm)
{
	enum exercise_kind kind = exercise_kind(name);
	struct bpf_program *prog;
	struct bpf_object *obj;
	struct stats st;
	long long t0, wall, xlated = -1;
	char reason[400] = "";
	int err, fd, calls;

	obj = bpf_object__open_file(file, NULL);
	if (!obj) {
		printf("verif name=%s prog=- loaded=0 errno=%d reason=cannot open %s\n",
		       name, errno, file);
		return 1;
	}
	exercise_prepare(obj, kind);
	log_buf[0] = '\0';
	bpf_object__for_each_program(prog, obj) {
		bpf_program__set_log_level(prog, 4);
		bpf_program__set_log_buf(prog, log_buf, LOG_SIZE);
	}
	t0 = now_usec();
	err = bpf_object__load(obj);
	wall = now_usec() - t0;
	bpf_object__for_each_program(prog, obj) {
		parse_log(log_buf, &st);
		fd = bpf_program__fd(prog);
		calls = -1;
		if (fd >= 0 && have_imm)
			calls = count_calls(fd, imm, &xlated);
		else if (fd >= 0)
			count_calls(fd, 0, &xlated);
		if (err) {
			log_reason(log_buf, reason, sizeof(reason));
			print_log_end(name, log_buf, 30);
		}
		printf("verif name=%s prog=%s loaded=%d errno=%d wall_usec=%lld "
		       "verified_insns=%lld processed=%lld max_states_per_insn=%lld "
		       "total_states=%lld peak_states=%lld mark_read=%lld verif_usec=%lld "
		       "stack=%s xlated=%lld loop_calls=%d%s%s\n",
		       name, bpf_program__name(prog), !err, err ? -err : 0, wall,
		       fd >= 0 ? verified_insns(fd) : -1, st.processed, st.max_states,
		       st.total_states, st.peak_states, st.mark_read, st.verif_usec,
		       st.stack, xlated, calls, err ? " reason=" : "", reason);
		fflush(stdout);
	}
	if (!err && seeded)
		exercise_run(obj, name, kind, seed);
	bpf_object__close(obj);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	int i = 1, failed = 0, hidden = 0, have_imm;
	__s32 imm = 0;
	char *end;

	if (argc > 2 && !strcmp(argv[1], "--seed")) {
		errno = 0;
		seed = strtoull(argv[2], &end, 16);
		if (errno || !*argv[2] || *end) {
			fprintf(stderr, "verif-load: --seed takes a hexadecimal number\n");
			return 2;
		}
		seeded = true;
		i = 3;
	}
	if (argc <= i) {
		fprintf(stderr, "usage: verif-load [--seed HEX] NAME=FILE.bpf.o...\n");
		return 2;
	}
	if (!in_lab_guest()) {
		fprintf(stderr, "verif-load: this loads BPF programs: run it only in the lab guest (vm/qemu-run)\n");
		return 2;
	}
	libbpf_set_print(NULL);
	have_imm = probe_loop_imm(&imm, &hidden) == 0 && !hidden;
	printf("verif-probe helper181=%s\n", have_imm ? "ok" : hidden ? "hidden" : "none");
	fflush(stdout);
	for (; i < argc; i++) {
		char *eq = strchr(argv[i], '=');

		if (!eq || eq == argv[i]) {
			fprintf(stderr, "verif-load: '%s' is not NAME=FILE\n", argv[i]);
			return 2;
		}
		*eq = '\0';
		failed |= load_one(argv[i], eq + 1, have_imm, imm);
	}
	return failed;
}
