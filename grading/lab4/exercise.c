// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4's exerciser (part of verif-load, in the guest): runs a loaded
 * pyperf or strobemeta program on the kit's inputs and prints what the
 * kernel produced, for the host's judge (lab4-judge) to compare with what
 * the unrolled program leaves behind.
 *
 * One input per case of the seed (scale-input.c makes them):
 * - pyperf: a fake Python thread in this process's memory (a thread state,
 *   a chain of frames, code objects, strings, at offsets the input chooses)
 *   that pidmap points to; symbolmap holds the symbol counter and some of
 *   the symbols before the run.
 * - strobemeta: int, string and map variables in this process's memory,
 *   and a configuration whose offsets, added to the task's address (what
 *   the program uses as its TLS base), reach them.
 * The program runs once, by BPF_PROG_TEST_RUN (a raw tracepoint runs in
 * the calling task), in a child process: the child pins itself to CPU 0,
 * names itself (the comm the program records), learns its task's address
 * (task_probe.bpf.c) and tells it; then it closes every file but the
 * program's, drops to user nobody (no capability: it cannot reach any BPF
 * object by id) and runs the program when told. Whatever the program does
 * to that process's memory (bpf_probe_write_user) stays there: this
 * process reads the maps and the perf buffer (opened after the fork, so
 * not mapped in the child) once the child is done, and prints them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "exercise.h"
#include "scale-input.h"
#include "task_probe.skel.h"

#define ARENA_SIZE (512 * 1024)
#define HELLO_TIMEOUT_MS 30000
#define RUN_TIMEOUT_MS 60000
#define NOBODY 65534
#define PERF_PAGES 16
#define SIZES_MAX 16

struct arena {
	unsigned char *base;	/* ARENA_SIZE bytes, then a page that faults */
	size_t used;
	bool full;
	uint64_t bad;		/* an address in that page */
};

static struct arena arena;
static char text[3 * sizeof(struct sm_sample) + 64];
static struct task_probe *probe;

enum exercise_kind exercise_kind(const char *name)
{
	if (!strncmp(name, "pyperf", 6))
		return KIND_PYPERF;
	if (!strncmp(name, "strobemeta", 10))
		return KIND_STROBEMETA;
	return KIND_NONE;
}

void exercise_prepare(struct bpf_object *obj, enum exercise_kind kind)
{
	struct bpf_map *map = NULL;

	if (kind == KIND_PYPERF)
		map = bpf_object__find_map_by_name(obj, "symbolmap");
	else if (kind == KIND_STROBEMETA)
		map = bpf_object__find_map_by_name(obj, "strobemeta_cfgs");
	if (map)
		bpf_map__set_max_entries(map, kind == KIND_PYPERF ? PY_SYMBOLS_MAX : SM_CFGS_MAX);
}

static int arena_init(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (arena.base)
		return 0;
	p = mmap(NULL, ARENA_SIZE + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return -1;
	if (mprotect((char *)p + ARENA_SIZE, page, PROT_NONE))
		return -1;
	arena.base = p;
	arena.bad = (uint64_t)(unsigned long)p + ARENA_SIZE + 64;
	return 0;
}

static void arena_reset(void)
{
	memset(arena.base, 0, ARENA_SIZE);
	arena.used = 0;
	arena.full = false;
}

/* N bytes, 16-aligned, with 16 spare bytes after them (a string read a
 * word at a time never reaches the next object). */
static uint64_t arena_alloc(size_t n)
{
	size_t at = (arena.used + 15) & ~(size_t)15;

	if (at + n + 16 > ARENA_SIZE) {
		arena.full = true;
		return 0;
	}
	arena.used = at + n + 16;
	return (uint64_t)(unsigned long)(arena.base + at);
}

static void put64(uint64_t addr, size_t off, uint64_t v)
{
	if (addr)
		memcpy((void *)(unsigned long)(addr + off), &v, sizeof(v));
}

static uint64_t put_string(const char *s, size_t at)
{
	size_t len = strlen(s);
	uint64_t o = arena_alloc(at + len + 1);

	if (o)
		memcpy((void *)(unsigned long)(o + at), s, len + 1);
	return o;
}

/* ---- the child that runs the program ---- */

struct hello {
	uint64_t task;
	int32_t cpu;
	int32_t err;
};

struct result {
	int32_t err;
	uint32_t retval;
};

struct child {
	pid_t pid;
	int go, back;
	struct hello hello;
};

static int read_full(int fd, void *buf, size_t n, int timeout_ms)
{
	size_t got = 0;

	while (got < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, timeout_ms) <= 0)
			return -ETIMEDOUT;
		r = read(fd, (char *)buf + got, n - got);
		if (r <= 0)
			return r ? -errno : -EPIPE;
		got += (size_t)r;
	}
	return 0;
}

static void write_full(int fd, const void *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w <= 0)
			_exit(5);
		buf = (const char *)buf + w;
		n -= (size_t)w;
	}
}

static void __attribute__((noreturn))
child_main(int prog_fd, const char *comm, int go, int back)
{
	LIBBPF_OPTS(bpf_test_run_opts, popts);
	__u64 ctx[2] = { 0, 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = ctx, .ctx_size_in = sizeof(ctx));
	struct hello h = { 0 };
	struct result res = { 0 };
	volatile unsigned char sink = 0;
	cpu_set_t set;
	char word;
	size_t i;
	int fd, null;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		h.err = errno;
	prctl(PR_SET_NAME, comm, 0, 0, 0);
	if (bpf_prog_test_run_opts(bpf_program__fd(probe->progs.task_probe), &popts))
		h.err = h.err ? h.err : errno;
	h.task = probe->bss->task_addr;
	h.cpu = sched_getcpu();
	/* Every page of the input is mapped in this process (the program
	 * cannot fault pages in). */
	for (i = 0; i < ARENA_SIZE; i += 4096)
		sink ^= arena.base[i];
	(void)sink;
	write_full(back, &h, sizeof(h));

	null = open("/dev/null", O_RDWR);
	for (fd = 0; fd < 3; fd++) {
		if (null >= 0)
			dup2(null, fd);
		else
			close(fd);
	}
	for (fd = 3; fd < 4096; fd++)
		if (fd != prog_fd && fd != go && fd != back)
			close(fd);
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(4);
	if (read(go, &word, 1) != 1)
		_exit(3);
	res.err = bpf_prog_test_run_opts(prog_fd, &opts) ? errno : 0;
	res.retval = opts.retval;
	write_full(back, &res, sizeof(res));
	_exit(0);
}

static int spawn(int prog_fd, const char *comm, struct child *ch)
{
	int go[2], back[2], err;

	if (pipe(go))
		return -errno;
	if (pipe(back)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return err;
	}
	fflush(stdout);
	ch->go = ch->back = -1;
	ch->pid = fork();
	if (ch->pid == 0) {
		close(go[1]);
		close(back[0]);
		child_main(prog_fd, comm, go[0], back[1]);
	}
	close(go[0]);
	close(back[1]);
	ch->go = go[1];
	ch->back = back[0];
	if (ch->pid < 0) {
		close(ch->go);
		close(ch->back);
		ch->go = ch->back = -1;
		return -ENOMEM;
	}
	err = read_full(ch->back, &ch->hello, sizeof(ch->hello), HELLO_TIMEOUT_MS);
	if (!err && ch->hello.err)
		err = -ch->hello.err;
	return err;
}

/* Tell the child to run the program; wait for it. Returns the status
 * word for the obs line. */
static const char *finish(struct child *ch, bool run, struct result *res)
{
	const char *status = "ok";
	int st, err;

	memset(res, 0, sizeof(*res));
	if (ch->pid <= 0)
		return "error";
	if (run && write(ch->go, "g", 1) != 1)
		status = "died";
	close(ch->go);
	if (run && !strcmp(status, "ok")) {
		err = read_full(ch->back, res, sizeof(*res), RUN_TIMEOUT_MS);
		if (err == -ETIMEDOUT)
			status = "timeout";
		else if (err)
			status = "died";
	}
	close(ch->back);
	if (!run || !strcmp(status, "timeout")) {
		/* A program still looping in the kernel keeps its child: do
		 * not wait for it. */
		kill(ch->pid, SIGKILL);
		usleep(100000);
		waitpid(ch->pid, &st, WNOHANG);
	} else {
		waitpid(ch->pid, &st, 0);
	}
	return status;
}

/* ---- perf output ---- */

struct perf_seen {
	int records;
	unsigned long long lost;
	uint32_t sizes[SIZES_MAX];
};

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct perf_seen *p = ctx;

	(void)cpu;
	(void)data;
	if (p->records < SIZES_MAX)
		p->sizes[p->records] = size;
	p->records++;
}

static void on_lost(void *ctx, int cpu, __u64 cnt)
{
	(void)cpu;
	((struct perf_seen *)ctx)->lost += cnt;
}

/*
 * Run one case whose set-up ended with err: collect the program's samples
 * while the child runs it, and print the case's obs line. Returns false
 * (after printing why) when the set-up had failed: the case is over.
 */
static bool run_case(const char *name, int k, int err, struct child *ch, int perf_fd,
		     struct perf_seen *seen)
{
	struct perf_buffer *pb = NULL;
	struct result res;
	const char *status;

	if (!err) {
		pb = perf_buffer__new(perf_fd, PERF_PAGES, on_sample, on_lost, seen, NULL);
		if (!pb)
			err = -errno;
	}
	status = finish(ch, !err, &res);
	if (err) {
		printf("obs name=%s case=%d status=error what=setting up the run: %s\n", name, k,
		       strerror(-err));
		perf_buffer__free(pb);
		return false;
	}
	perf_buffer__consume(pb);
	perf_buffer__free(pb);
	printf("obs name=%s case=%d pid=%d cpu=%d status=%s err=%d retval=%u\n", name, k, ch->pid,
	       ch->hello.cpu, status, res.err, res.retval);
	return true;
}

static void print_perf(const char *name, int k, const struct perf_seen *p)
{
	int i;

	printf("obs-perf name=%s case=%d records=%d lost=%llu sizes=", name, k, p->records, p->lost);
	for (i = 0; i < p->records && i < SIZES_MAX; i++)
		printf("%s%u", i ? "," : "", p->sizes[i]);
	printf("%s\n", p->records ? "" : "-");
}

/* ---- maps ---- */

static const char *check_map(struct bpf_object *obj, const char *name, enum bpf_map_type type,
			     __u32 key, __u32 value, int *fd)
{
	static char why[160];
	struct bpf_map *m = bpf_object__find_map_by_name(obj, name);

	if (!m) {
		snprintf(why, sizeof(why), "the program has no map named %s", name);
		return why;
	}
	if (bpf_map__type(m) != type || bpf_map__key_size(m) != key ||
	    (value && bpf_map__value_size(m) != value)) {
		snprintf(why, sizeof(why),
			 "map %s is not the unrolled program's (type %d, key %u, value %u bytes; expected type %d, key %u, value %u)",
			 name, bpf_map__type(m), bpf_map__key_size(m), bpf_map__value_size(m),
			 type, key, value);
		return why;
	}
	*fd = bpf_map__fd(m);
	return NULL;
}

static void clear_hash(int fd, size_t key_size)
{
	unsigned char key[256];
	int n = 0;

	if (key_size > sizeof(key))
		return;
	while (n++ < 2 * PY_SYMBOLS_MAX && !bpf_map_get_next_key(fd, NULL, key))
		if (bpf_map_delete_elem(fd, key))
			break;
}

static struct bpf_program *main_program(struct bpf_object *obj)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, "on_event");

	return p ? p : bpf_object__next_program(obj, NULL);
}

static void print_bytes(const char *tag, const char *name, int k, const void *p, size_t n)
{
	rle_encode(p, n, text, sizeof(text));
	printf("%s name=%s case=%d data=%s\n", tag, name, k, text);
}

/* ---- pyperf ---- */

struct py_maps {
	int pid, event, sym, stats, perf;
};

static void py_build(const struct py_case *c, struct py_pid_data *pd)
{
	static uint64_t str[2 * PY_CODES_MAX], code[PY_CODES_MAX], frame[PY_FRAMES_MAX];
	uint64_t end = 0, ts, cell;
	int i;

	arena_reset();
	for (i = 0; i < c->nstrings; i++)
		str[i] = put_string(c->str[i], (size_t)c->off.string_data);
	for (i = 0; i < c->ncodes; i++) {
		code[i] = arena_alloc(64);
		put64(code[i], c->off.code_filename, c->codes[i].file >= 0 ? str[c->codes[i].file] : 0);
		put64(code[i], c->off.code_name, c->codes[i].name >= 0 ? str[c->codes[i].name] : 0);
	}
	for (i = 0; i < c->nframes; i++)
		frame[i] = arena_alloc(64);
	if (c->end == PY_END_NO_CODE) {
		end = arena_alloc(64);	/* f_code NULL; f_back leads back up */
		put64(end, c->off.frame_back, c->nframes ? frame[0] : end);
	} else if (c->end == PY_END_BAD) {
		end = arena.bad;
	}
	for (i = 0; i < c->nframes; i++) {
		put64(frame[i], c->off.frame_back, i + 1 < c->nframes ? frame[i + 1] : end);
		put64(frame[i], c->off.frame_code,
		      c->frame_code[i] == PY_REF_BAD ? arena.bad : code[c->frame_code[i]]);
	}
	ts = arena_alloc(64);
	put64(ts, c->off.thread_frame, c->nframes ? frame[0] : end);
	cell = arena_alloc(8);
	put64(cell, 0, ts);
	memset(pd, 0, sizeof(*pd));
	pd->current_state_addr = cell;
	pd->offsets = c->off;
	pd->use_tls = false;
}

static const char *py_setup(const struct py_maps *m, const struct py_case *c)
{
	static struct py_event ev;
	struct py_symbol zero;
	struct py_stats stats = { 0 };
	int key = 0, i;

	clear_hash(m->pid, sizeof(int));
	clear_hash(m->event, sizeof(int));
	clear_hash(m->sym, sizeof(struct py_symbol));
	memset(&ev, FILL_BYTE, sizeof(ev));
	memset(&zero, 0, sizeof(zero));
	if (bpf_map_update_elem(m->event, &key, &ev, BPF_ANY))
		return "cannot fill eventmap";
	if (bpf_map_update_elem(m->sym, &zero, &c->counter0, BPF_ANY))
		return "cannot put the symbol counter in symbolmap";
	for (i = 0; i < c->nprepop; i++)
		if (bpf_map_update_elem(m->sym, &c->prepop_key[i], &c->prepop_val[i], BPF_ANY))
			return "cannot put a symbol in symbolmap";
	if (bpf_map_update_elem(m->stats, &key, &stats, BPF_ANY))
		return "cannot reset statsmap";
	return NULL;
}

static void py_report(const struct py_maps *m, const char *name, int k)
{
	static struct py_event ev;
	struct py_symbol key, next;
	struct py_stats stats;
	int zero = 0, n = 0, err;
	int32_t value;

	if (!bpf_map_lookup_elem(m->event, &zero, &ev))
		print_bytes("obs-event", name, k, &ev, sizeof(ev));
	if (!bpf_map_lookup_elem(m->stats, &zero, &stats))
		printf("obs-stats name=%s case=%d success=%u\n", name, k, stats.success);
	err = bpf_map_get_next_key(m->sym, NULL, &next);
	while (!err && n < PY_SYMBOLS_MAX) {
		key = next;
		if (!bpf_map_lookup_elem(m->sym, &key, &value)) {
			rle_encode((const unsigned char *)&key, sizeof(key), text, sizeof(text));
			printf("obs-sym name=%s case=%d value=%d key=%s\n", name, k, value, text);
			n++;
		}
		err = bpf_map_get_next_key(m->sym, &key, &next);
	}
}

static void run_pyperf(struct bpf_object *obj, const char *name, uint64_t seed)
{
	static struct py_case c;
	struct bpf_program *prog = main_program(obj);
	struct py_pid_data pd;
	struct py_maps m;
	const char *why;
	int k;

	why = check_map(obj, "pidmap", BPF_MAP_TYPE_HASH, sizeof(int), sizeof(struct py_pid_data), &m.pid);
	why = why ? why : check_map(obj, "eventmap", BPF_MAP_TYPE_HASH, sizeof(int),
				    sizeof(struct py_event), &m.event);
	why = why ? why : check_map(obj, "symbolmap", BPF_MAP_TYPE_HASH, sizeof(struct py_symbol),
				    sizeof(int32_t), &m.sym);
	why = why ? why : check_map(obj, "statsmap", BPF_MAP_TYPE_ARRAY, sizeof(int),
				    sizeof(struct py_stats), &m.stats);
	why = why ? why : check_map(obj, "perfmap", BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(int), 0,
				    &m.perf);
	if (!why && !prog)
		why = "the object has no program";
	printf("exercise name=%s kind=pyperf seed=%016llx cases=%d%s%s\n", name,
	       (unsigned long long)seed, why ? 0 : PY_CASES, why ? " error=" : "", why ? why : "");
	if (why)
		return;
	for (k = 0; k < PY_CASES; k++) {
		struct perf_seen seen = { 0 };
		struct child ch = { .pid = -1 };
		int err;

		py_make_case(seed, k, &c);
		py_build(&c, &pd);
		why = arena.full ? "the input does not fit the arena" : py_setup(&m, &c);
		if (why) {
			printf("obs name=%s case=%d status=error what=%s\n", name, k, why);
			continue;
		}
		err = spawn(bpf_program__fd(prog), c.comm, &ch);
		if (!err && bpf_map_update_elem(m.pid, &ch.pid, &pd, BPF_ANY))
			err = -errno;
		if (!run_case(name, k, err, &ch, m.perf, &seen))
			continue;
		py_report(&m, name, k);
		print_perf(name, k, &seen);
		printf("obs-end name=%s case=%d\n", name, k);
		fflush(stdout);
	}
}

/* ---- strobemeta ---- */

struct sm_maps {
	int cfgs, heap, perf;
	__u32 cfgs_max;
};

struct sm_addrs {
	uint64_t ints[SM_INTS], strs[SM_STRS], maps[SM_MAPS];
};

static uint64_t sm_value(uint16_t len, uint64_t val)
{
	uint64_t o = arena_alloc(sizeof(struct sm_value));
	struct sm_value v = { .len = len, .val = val };

	if (o)
		memcpy((void *)(unsigned long)o, &v, sizeof(v));
	return o;
}

static uint64_t sm_ptr(uint8_t s, uint64_t textp, uint64_t emptyp)
{
	return s == SM_S_TEXT ? textp : s == SM_S_EMPTY ? emptyp : s == SM_S_BAD ? arena.bad : 0;
}

static void sm_build(const struct sm_case *c, struct sm_addrs *a)
{
	uint64_t textp, emptyp;
	int i, j;

	arena_reset();
	memset(a, 0, sizeof(*a));
	textp = put_string("strobe", 0);
	emptyp = put_string("", 0);
	for (i = 0; i < SM_INTS; i++) {
		if (c->ints[i].slot == SM_PRESENT)
			a->ints[i] = sm_value(c->ints[i].len, (uint64_t)c->ints[i].val);
		else if (c->ints[i].slot == SM_SLOT_BAD)
			a->ints[i] = arena.bad;
	}
	for (i = 0; i < SM_STRS; i++) {
		if (c->strs[i].slot == SM_PRESENT)
			a->strs[i] = sm_value(1, sm_ptr(c->strs[i].s, textp, emptyp));
		else if (c->strs[i].slot == SM_SLOT_BAD)
			a->strs[i] = arena.bad;
	}
	for (i = 0; i < SM_MAPS; i++) {
		const struct sm_mapvar *mv = &c->maps[i];
		uint64_t raw = 0;

		if (mv->slot == SM_SLOT_BAD) {
			a->maps[i] = arena.bad;
			continue;
		}
		if (mv->slot != SM_PRESENT)
			continue;
		if (mv->raw == SM_S_TEXT) {
			struct sm_map_raw r;

			memset(&r, 0, sizeof(r));
			r.id = mv->id;
			r.cnt = mv->cnt;
			r.tag = sm_ptr(mv->tag, textp, emptyp);
			for (j = 0; j < SM_ENTRIES; j++) {
				r.entries[j].key = sm_ptr(mv->key[j], textp, emptyp);
				r.entries[j].val = sm_ptr(mv->val[j], textp, emptyp);
			}
			raw = arena_alloc(sizeof(r));
			if (raw)
				memcpy((void *)(unsigned long)raw, &r, sizeof(r));
		} else {
			raw = sm_ptr(mv->raw, textp, emptyp);
		}
		a->maps[i] = sm_value(1, raw);
	}
}

static int sm_update_all_cpus(int fd, uint32_t key, const void *value, size_t size)
{
	int ncpus = libbpf_num_possible_cpus(), i, err;
	size_t stride = (size + 7) & ~(size_t)7;
	unsigned char *buf;

	if (ncpus <= 0)
		return -EINVAL;
	buf = calloc((size_t)ncpus, stride);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < ncpus; i++)
		memcpy(buf + (size_t)i * stride, value, size);
	err = bpf_map_update_elem(fd, &key, buf, BPF_ANY) ? -errno : 0;
	free(buf);
	return err;
}

static void sm_loc(struct sm_loc *loc, uint64_t addr, uint64_t task)
{
	loc->tls_mode = addr ? 0 : -1;
	loc->offset = addr ? (int64_t)(addr - task) : 0;
}

static void run_strobemeta(struct bpf_object *obj, const char *name, uint64_t seed)
{
	static struct sm_case c;
	static struct sm_sample fill;
	struct bpf_program *prog = main_program(obj);
	struct bpf_map *cfgs;
	struct sm_addrs a;
	struct sm_maps m;
	const char *why;
	int k, i;

	why = check_map(obj, "strobemeta_cfgs", BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(uint32_t),
			sizeof(struct sm_cfg), &m.cfgs);
	why = why ? why : check_map(obj, "sample_heap", BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(uint32_t),
				    sizeof(struct sm_sample), &m.heap);
	why = why ? why : check_map(obj, "samples", BPF_MAP_TYPE_PERF_EVENT_ARRAY, sizeof(int), 0,
				    &m.perf);
	if (!why && !prog)
		why = "the object has no program";
	cfgs = bpf_object__find_map_by_name(obj, "strobemeta_cfgs");
	m.cfgs_max = cfgs ? bpf_map__max_entries(cfgs) : 0;
	printf("exercise name=%s kind=strobemeta seed=%016llx cases=%d%s%s\n", name,
	       (unsigned long long)seed, why ? 0 : SM_CASES, why ? " error=" : "", why ? why : "");
	if (why)
		return;
	memset(&fill, FILL_BYTE, sizeof(fill));
	for (k = 0; k < SM_CASES; k++) {
		int ncpus = libbpf_num_possible_cpus();
		size_t stride = (sizeof(struct sm_sample) + 7) & ~(size_t)7;
		struct perf_seen seen = { 0 };
		unsigned char *heap = NULL;
		struct sm_cfg cfg;
		struct child ch = { .pid = -1 };
		uint32_t zero = 0;
		int err;

		sm_make_case(seed, k, &c);
		sm_build(&c, &a);
		err = arena.full ? -ENOSPC : sm_update_all_cpus(m.heap, 0, &fill, sizeof(fill));
		if (!err)
			err = spawn(bpf_program__fd(prog), c.comm, &ch);
		if (!err && (uint32_t)ch.pid >= m.cfgs_max)
			err = -ERANGE;
		if (!err) {
			memset(&cfg, 0, sizeof(cfg));
			cfg.req_meta_idx = c.req_meta_idx;
			for (i = 0; i < SM_INTS; i++)
				sm_loc(&cfg.int_locs[i], a.ints[i], ch.hello.task);
			for (i = 0; i < SM_STRS; i++)
				sm_loc(&cfg.str_locs[i], a.strs[i], ch.hello.task);
			for (i = 0; i < SM_MAPS; i++)
				sm_loc(&cfg.map_locs[i], a.maps[i], ch.hello.task);
			err = sm_update_all_cpus(m.cfgs, (uint32_t)ch.pid, &cfg, sizeof(cfg));
		}
		if (!run_case(name, k, err, &ch, m.perf, &seen))
			continue;
		heap = ncpus > 0 ? calloc((size_t)ncpus, stride) : NULL;
		if (heap && !bpf_map_lookup_elem(m.heap, &zero, heap) && ch.hello.cpu >= 0 &&
		    ch.hello.cpu < ncpus)
			print_bytes("obs-sample", name, k, heap + (size_t)ch.hello.cpu * stride,
				    sizeof(struct sm_sample));
		free(heap);
		print_perf(name, k, &seen);
		printf("obs-end name=%s case=%d\n", name, k);
		fflush(stdout);
	}
}

void exercise_run(struct bpf_object *obj, const char *name, enum exercise_kind kind,
		  uint64_t seed)
{
	if (kind == KIND_NONE)
		return;
	if (!probe) {
		probe = task_probe__open_and_load();
		if (!probe || arena_init()) {
			printf("exercise name=%s kind=%s seed=%016llx cases=0 error=the kit's task probe or memory could not be set up\n",
			       name, kind == KIND_PYPERF ? "pyperf" : "strobemeta",
			       (unsigned long long)seed);
			task_probe__destroy(probe);
			probe = NULL;
			return;
		}
	}
	if (kind == KIND_PYPERF)
		run_pyperf(obj, name, seed);
	else
		run_strobemeta(obj, name, seed);
	fflush(stdout);
}
