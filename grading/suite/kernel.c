// SPDX-License-Identifier: GPL-2.0
/* The in-guest suite: what every lab's RUN side uses to reach the kernel. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/if_ether.h>

#include "suite.h"

void diag_log(const char *log, int max_lines)
{
	const char *p, *start = log;
	int lines = 0;

	if (!log || !*log)
		return;
	for (p = log + strlen(log); p > log; p--)
		if (p[-1] == '\n' && p[0] != '\0' && ++lines > max_lines) {
			start = p;
			break;
		}
	if (start != log)
		diag("(log cut to its last %d lines)", max_lines);
	for (p = start; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		if (len && diag_out)
			fprintf(diag_out, "%*s#   %.*s\n", ktap_indent, "", len > 300 ? 300 : len, p);
		p += len + (nl ? 1 : 0);
	}
	if (diag_out)
		fflush(diag_out);
}

int load_one_skel(struct bpf_object_skeleton *skel, const char *prog_name, int log_level,
		  struct verdict *v)
{
	struct bpf_object *obj = *skel->obj;
	struct bpf_program *prog, *want = NULL;
	int err;

	v->err = -ENOENT;
	v->log = calloc(1, VLOG_SIZE);
	if (!v->log)
		return v->err = -ENOMEM;
	bpf_object__for_each_program(prog, obj) {
		bool it = !strcmp(bpf_program__name(prog), prog_name);

		bpf_program__set_autoload(prog, it);
		if (it)
			want = prog;
	}
	if (!want) {
		snprintf(v->log, VLOG_SIZE, "no program %s in the object", prog_name);
		return v->err;
	}
	bpf_program__set_log_buf(want, v->log, VLOG_SIZE);
	bpf_program__set_log_level(want, log_level);
	/* A skeleton's load also maps its global data, so that skel->bss
	 * and skel->data show what the programs wrote. */
	err = bpf_object__load_skeleton(skel);
	if (err) {
		v->err = err < 0 ? err : -err;
		return v->err;
	}
	v->err = 0;
	return bpf_program__fd(want);
}

/* --verbose: the verifier's log of every load a test made is shown. */
static bool show_logs;

void verdict_free(struct verdict *v)
{
	if (show_logs && v->log && *v->log) {
		diag("the verifier's log:");
		diag_log(v->log, 20);
	}
	free(v->log);
	v->log = NULL;
}

int tc_test_run(int prog_fd, unsigned int repeat, uint32_t *retval, uint32_t *duration_ns)
{
	unsigned char frame[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = frame,
		.data_size_in = sizeof(frame),
		.repeat = repeat,
	);
	int err;

	/* An IPv4 ethertype, so the skb looks like ordinary traffic. */
	frame[12] = ETH_P_IP >> 8;
	frame[13] = ETH_P_IP & 0xff;
	err = bpf_prog_test_run_opts(prog_fd, &opts);
	if (err)
		return -errno;
	if (retval)
		*retval = opts.retval;
	if (duration_ns)
		*duration_ns = opts.duration;
	return 0;
}

bool log_says_unknown_func(const char *log, int helper_id)
{
	char want[32];
	const char *p;

	if (!log)
		return false;
	snprintf(want, sizeof(want), "#%d\n", helper_id);
	for (p = strstr(log, "unknown func "); p; p = strstr(p + 1, "unknown func ")) {
		const char *nl = strchr(p, '\n');
		const char *hash = strstr(p, want);

		if (hash && (!nl || hash < nl + 1))
			return true;
	}
	return false;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int diag_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[1024];

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	/* Most of libbpf's lines name it already. */
	diag("%s%s", strncmp(buf, "libbpf: ", 8) ? "libbpf: " : "", buf);
	return 0;
}

void suite_libbpf_quiet(bool verbose)
{
	show_logs = verbose;
	libbpf_set_print(verbose ? diag_print : quiet_print);
}

/*
 * Count the calls in a loaded program's translation. The kernel rewrote
 * each helper call's imm into an address offset, so the helper's ID is
 * gone: in the suite's programs that call it, bpf_loop is the only
 * helper, so any helper call is a bpf_loop call. Reports TAG.info, TAG.insns,
 * TAG.helper_calls and TAG.bpf_calls.
 */
void observe_xlated(struct test_ctx *ctx, const char *tag, int fd)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), i, n;
	struct bpf_insn *insns;
	int helper = 0, bpf = 0, err;

	err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	n = info.xlated_prog_len / sizeof(*insns);
	insns = calloc(n ? n : 1, sizeof(*insns));
	if (!err && n && insns) {
		memset(&info, 0, sizeof(info));
		info.xlated_prog_len = n * sizeof(*insns);
		info.xlated_prog_insns = (uint64_t)(unsigned long)insns;
		len = sizeof(info);
		err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
	}
	observe(ctx, err, "%s.info", tag);
	observe(ctx, n, "%s.insns", tag);
	for (i = 0; !err && i < n; i++) {
		if (insns[i].code != (BPF_JMP | BPF_CALL))
			continue;
		if (insns[i].src_reg == 0)
			helper++;
		else if (insns[i].src_reg == BPF_PSEUDO_CALL)
			bpf++;
	}
	free(insns);
	if (!err) {
		observe(ctx, helper, "%s.helper_calls", tag);
		observe(ctx, bpf, "%s.bpf_calls", tag);
	}
}
