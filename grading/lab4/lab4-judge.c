// SPDX-License-Identifier: GPL-2.0
/*
 * lab4-judge: lab 4's verdicts, on the host, from what the guest reported
 * (grading/lab4/verif-load: "verif ..." lines for each load, "exercise" and
 * "obs..." lines for each run on the kit's inputs).
 *
 *   lab4-judge --seed HEX --pristine FILE --student FILE [--build-status FILE]
 *              [--guest-stopped TEXT] [--verbose]
 *       lab 4's KTAP on stdout (with "# running ID" before each test, as
 *       grading/ktap reads it); --verbose adds "pass ID" / "fail ID: why"
 *       lines on stderr.
 *   lab4-judge --self-check FILE
 *       only the check of the kit's own model: the unrolled programs'
 *       observations in FILE, each on the seed of its own run.
 *   lab4-judge [--tests FILE] --list
 *       the test ids: lab 4's tests of grading/tests.list (or FILE), the
 *       registry. The verdicts are printed in its order, one for each test
 *       it declares; a declared test that no check judges, or a check the
 *       table does not declare, stops the judge (status 2) with its name.
 *
 * --pristine holds what the guest said of the kit's unrolled pyperf600 and
 * strobemeta (built from the work tree's tag base, never from a student's
 * files; kept per reference kernel in $WORK/cache/lab4): their verifier
 * figures and their runs. --student holds what it said of the student's
 * pyperf600_bpf_loop and strobemeta_bpf_loop. A program's lines are read
 * from its own file only. --build-status is the status file of the
 * student's programs' build (grading/pipeline/guest-build).
 * --guest-stopped says why the guest did not finish, for the reasons.
 *
 * The tests:
 *   lab4.builds                            the student's programs compile
 *   lab4.{pyperf600,strobemeta}_loads      the bpf_loop version loads
 *   lab4.{...}_calls_loop                  its loaded instructions call
 *                                          helper 181 (bpf_loop)
 *   lab4.{...}_scale                       the verifier processed at most
 *                                          5% of the instructions it
 *                                          processed for the kit's unrolled
 *                                          program
 *   lab4.pyperf600_walks_stack             on every input of the seed, it
 *   lab4.strobemeta_reads_values           leaves behind what the unrolled
 *                                          program does (scale-input.c):
 *                                          map contents, perf records,
 *                                          return value
 * Before judging, the unrolled programs' own runs (on the seed they were
 * run with) are checked against the same model: when they disagree, the
 * model is wrong, and no verdict is given (exit status 3).
 *
 * Exit status: 0 every test passed (--self-check: the model agrees), 1 some
 * did not, 2 usage or I/O error, 3 the kit's unrolled programs disagree with
 * the model or their runs are missing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pipeline/ktap.h"
#include "../pipeline/registry.h"
#include "scale-input.h"

#define SCALE_PERCENT 5
#define LINE_CAP (256 * 1024)
#define FILE_CAP (64L * 1024 * 1024)
#define CASES_MAX 4
#define SIZES_MAX 16
#define WHY_LEN 600

enum kind { PYPERF, STROBEMETA };

struct verif {
	bool have;
	int loaded, err, loop_calls;
	long long processed;
	char reason[400];	/* verif-load's reason= (at most 400 bytes) */
};

struct obs {
	bool have, end, error, bad_bytes;
	char what[200];
	char status[16];
	long pid, cpu, err;
	unsigned long retval;
	bool have_event, have_stats, have_sample, have_perf;
	struct py_event ev;
	uint32_t success;
	int nsyms;
	struct py_symbol *sym_key;
	int32_t *sym_val;
	struct sm_sample *sample;
	int records, nsizes;
	unsigned long long lost;
	uint32_t sizes[SIZES_MAX];
};

struct prog {
	const char *name;
	enum kind kind;
	bool pristine;
	struct verif v;
	bool exercised;
	uint64_t seed;
	int cases;
	char error[200];
	struct obs c[CASES_MAX];
};

static struct prog progs[] = {
	{ .name = "pyperf600", .kind = PYPERF, .pristine = true },
	{ .name = "strobemeta", .kind = STROBEMETA, .pristine = true },
	{ .name = "pyperf600_bpf_loop", .kind = PYPERF },
	{ .name = "strobemeta_bpf_loop", .kind = STROBEMETA },
};

#define NR_PROGS (sizeof(progs) / sizeof(progs[0]))

static char line[LINE_CAP];
static unsigned char bytes[sizeof(struct sm_sample) + 64];

static struct prog *find_prog(const char *name, bool pristine)
{
	size_t i;

	for (i = 0; i < NR_PROGS; i++)
		if (!strcmp(progs[i].name, name) && progs[i].pristine == pristine)
			return &progs[i];
	return NULL;
}

/* The value after " KEY=" in LINE (the first one), or NULL. */
static const char *field(const char *line, const char *key)
{
	char pat[40];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p ? p + strlen(pat) : NULL;
}

static long long num(const char *line, const char *key, long long dflt)
{
	const char *p = field(line, key);

	return p ? strtoll(p, NULL, 10) : dflt;
}

static void word(const char *line, const char *key, char *out, size_t size)
{
	const char *p = field(line, key);
	size_t n;

	out[0] = '\0';
	if (!p)
		return;
	n = strcspn(p, " \n");
	if (n >= size)
		n = size - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

static void rest(const char *line, const char *key, char *out, size_t size)
{
	const char *p = field(line, key);

	out[0] = '\0';
	if (p) {
		snprintf(out, size, "%s", p);
		out[strcspn(out, "\n")] = '\0';
	}
}

static struct obs *obs_of(struct prog *p, const char *line)
{
	long k = num(line, "case", -1);

	if (k < 0 || k >= CASES_MAX)
		return NULL;
	return &p->c[k];
}

static int alloc_obs(struct obs *o, enum kind kind)
{
	if (kind == PYPERF && !o->sym_key) {
		o->sym_key = calloc(PY_SYMBOLS_MAX, sizeof(*o->sym_key));
		o->sym_val = calloc(PY_SYMBOLS_MAX, sizeof(*o->sym_val));
		if (!o->sym_key || !o->sym_val)
			return -1;
	}
	if (kind == STROBEMETA && !o->sample) {
		o->sample = calloc(1, sizeof(*o->sample));
		if (!o->sample)
			return -1;
	}
	return 0;
}

static void take_verif(struct prog *p, const char *line)
{
	const char *r;

	memset(&p->v, 0, sizeof(p->v));
	p->v.have = true;
	p->v.loaded = num(line, "loaded", 0) == 1;
	p->v.err = (int)num(line, "errno", 0);
	p->v.processed = num(line, "processed", -1);
	p->v.loop_calls = (int)num(line, "loop_calls", -1);
	r = field(line, "reason");
	if (r) {
		snprintf(p->v.reason, sizeof(p->v.reason), "%s", r);
		p->v.reason[strcspn(p->v.reason, "\n")] = '\0';
	}
}

/* Decode BYTES of LINE's "data=" or "key=" into OUT (N bytes exactly). */
static bool take_bytes(const char *line, const char *key, void *out, size_t n)
{
	const char *p = field(line, key);
	long got;

	if (!p)
		return false;
	got = rle_decode(p, bytes, sizeof(bytes));
	if (got != (long)n)
		return false;
	memcpy(out, bytes, n);
	return true;
}

static int take_line(struct prog *p, const char *tag, const char *line)
{
	struct obs *o;

	if (!strcmp(tag, "verif")) {
		take_verif(p, line);
		return 0;
	}
	if (!strcmp(tag, "exercise")) {
		char seed[40];

		p->exercised = true;
		word(line, "seed", seed, sizeof(seed));
		p->seed = strtoull(seed, NULL, 16);
		p->cases = (int)num(line, "cases", 0);
		rest(line, "error", p->error, sizeof(p->error));
		return 0;
	}
	o = obs_of(p, line);
	if (!o)
		return 0;
	if (alloc_obs(o, p->kind))
		return -1;
	if (!strcmp(tag, "obs")) {
		struct py_symbol *keys = o->sym_key;
		int32_t *vals = o->sym_val;
		struct sm_sample *sample = o->sample;

		memset(o, 0, sizeof(*o));
		o->sym_key = keys;
		o->sym_val = vals;
		o->sample = sample;
		o->have = true;
		word(line, "status", o->status, sizeof(o->status));
		o->error = !strcmp(o->status, "error");
		rest(line, "what", o->what, sizeof(o->what));
		o->pid = (long)num(line, "pid", -1);
		o->cpu = (long)num(line, "cpu", -1);
		o->err = (long)num(line, "err", 0);
		o->retval = (unsigned long)num(line, "retval", 0);
	} else if (!o->have) {
		return 0;
	} else if (!strcmp(tag, "obs-event") && p->kind == PYPERF) {
		o->have_event = take_bytes(line, "data", &o->ev, sizeof(o->ev));
		o->bad_bytes |= !o->have_event;
	} else if (!strcmp(tag, "obs-stats") && p->kind == PYPERF) {
		o->have_stats = true;
		o->success = (uint32_t)num(line, "success", 0);
	} else if (!strcmp(tag, "obs-sym") && p->kind == PYPERF) {
		if (o->nsyms == PY_SYMBOLS_MAX ||
		    !take_bytes(line, "key", &o->sym_key[o->nsyms], sizeof(struct py_symbol))) {
			o->bad_bytes = true;
			return 0;
		}
		o->sym_val[o->nsyms++] = (int32_t)num(line, "value", 0);
	} else if (!strcmp(tag, "obs-sample") && p->kind == STROBEMETA) {
		o->have_sample = take_bytes(line, "data", o->sample, sizeof(*o->sample));
		o->bad_bytes |= !o->have_sample;
	} else if (!strcmp(tag, "obs-perf")) {
		const char *s = field(line, "sizes");

		o->have_perf = true;
		o->records = (int)num(line, "records", 0);
		o->lost = (unsigned long long)num(line, "lost", 0);
		while (s && *s >= '0' && *s <= '9' && o->nsizes < SIZES_MAX) {
			char *end;

			o->sizes[o->nsizes++] = (uint32_t)strtoul(s, &end, 10);
			s = *end == ',' ? end + 1 : NULL;
		}
	} else if (!strcmp(tag, "obs-end")) {
		o->end = true;
	}
	return 0;
}

/* Read FILE; take the lines of the programs whose file it is. */
static int read_file(const char *file, bool pristine)
{
	FILE *f = fopen(file, "r");
	long total = 0;

	if (!f) {
		fprintf(stderr, "lab4-judge: cannot read %s: %s\n", file, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);
		char tag[16], name[64];
		struct prog *p;

		total += (long)n;
		if (total > FILE_CAP)
			break;
		if (n == sizeof(line) - 1 && line[n - 1] != '\n') {
			int ch;

			while ((ch = fgetc(f)) != EOF && ch != '\n')
				total++;
			continue;	/* too long to be the kit's */
		}
		n = strcspn(line, " ");
		if (n == 0 || n >= sizeof(tag))
			continue;
		memcpy(tag, line, n);
		tag[n] = '\0';
		if (strcmp(tag, "verif") && strcmp(tag, "exercise") && strncmp(tag, "obs", 3))
			continue;
		word(line, "name", name, sizeof(name));
		p = find_prog(name, pristine);
		if (p && take_line(p, tag, line)) {
			fclose(f);
			fprintf(stderr, "lab4-judge: out of memory\n");
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* ---- comparing a run with the model ---- */

static void say(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, WHY_LEN, fmt, ap);
	va_end(ap);
}

static void show_value(const unsigned char *p, size_t len, bool text, char *out, size_t size)
{
	long long v = 0;

	if (text) {
		size_t i, o = 0;

		for (i = 0; i < len && p[i] && o + 2 < size; i++)
			out[o++] = p[i] >= 32 && p[i] < 127 ? (char)p[i] : '?';
		out[o] = '\0';
		return;
	}
	switch (len) {
	case 1: v = (signed char)p[0]; break;
	case 2: { int16_t x; memcpy(&x, p, 2); v = x; break; }
	case 4: { int32_t x; memcpy(&x, p, 4); v = x; break; }
	case 8: { int64_t x; memcpy(&x, p, 8); v = x; break; }
	default: v = p[0]; break;
	}
	snprintf(out, size, "%lld", v);
}

typedef void (*field_fn)(size_t off, char *buf, size_t size, size_t *start, size_t *len);

/* The first byte the model writes that differs, searched in REGIONS
 * first (start, length pairs), then everywhere. */
static bool compare(const void *actual, const void *expected, const unsigned char *set,
		    size_t n, const size_t *regions, int nregions, field_fn name_of,
		    const char *program, const char *label, char *why)
{
	const unsigned char *a = actual, *e = expected;
	int r;

	for (r = 0; r <= nregions; r++) {
		size_t from = r < nregions ? regions[2 * r] : 0;
		size_t to = r < nregions ? from + regions[2 * r + 1] : n;
		size_t i;

		for (i = from; i < to && i < n; i++) {
			char fname[96], got[64], want[64];
			size_t start, len;
			bool text;

			if (!set[i] || a[i] == e[i])
				continue;
			size_t j;

			name_of(i, fname, sizeof(fname), &start, &len);
			text = strstr(fname, "comm") != NULL;
			show_value(a + start, len, text, got, sizeof(got));
			show_value(e + start, len, text, want, sizeof(want));
			for (j = start; j < start + len && a[j] == FILL_BYTE; j++)
				;
			if (j == start + len)
				say(why, "%s: %s was not written (it holds the kit's fill bytes, 0x%02x), the unrolled %s leaves %s%s%s",
				    label, fname, FILL_BYTE, program, text ? "'" : "", want,
				    text ? "'" : "");
			else
				say(why, "%s: %s is %s%s%s, the unrolled %s leaves %s%s%s", label, fname,
				    text ? "'" : "", got, text ? "'" : "", program, text ? "'" : "",
				    want, text ? "'" : "");
			return false;
		}
	}
	return true;
}

static bool common_checks(const struct obs *o, const char *label, char *why)
{
	if (o->have && o->error) {
		say(why, "%s: the kit could not set up the run: %s", label, o->what);
		return false;
	}
	if (!o->have || !o->end) {
		say(why, "%s: no complete report of the run", label);
		return false;
	}
	if (o->bad_bytes) {
		say(why, "%s: the guest's report of the maps could not be read", label);
		return false;
	}
	if (strcmp(o->status, "ok")) {
		say(why, "%s: the program did not return (%s)", label,
		    !strcmp(o->status, "timeout") ? "still running after 60 s" : "its process died");
		return false;
	}
	if (o->err) {
		say(why, "%s: BPF_PROG_TEST_RUN failed: %s", label, strerror((int)o->err));
		return false;
	}
	if (o->retval) {
		say(why, "%s: on_event() returned %lu, the unrolled program returns 0", label,
		    o->retval);
		return false;
	}
	return true;
}

static bool perf_checks(const struct obs *o, int records, uint32_t size, const char *program,
			const char *label, const char *what, char *why)
{
	int i;

	if (!o->have_perf || o->records != records || o->lost) {
		say(why, "%s: the program sent %d perf record%s (%llu lost), the unrolled %s sends %d",
		    label, o->records, o->records == 1 ? "" : "s", o->lost, program, records);
		return false;
	}
	for (i = 0; i < o->nsizes && i < records; i++) {
		if (o->sizes[i] != size) {
			say(why, "%s: perf record %d holds %u bytes, the unrolled %s's %u%s", label,
			    i + 1, o->sizes[i], program, size, what);
			return false;
		}
	}
	return true;
}

static void sym_text(const struct py_symbol *s, char *out, size_t size)
{
	char name[24], file[40];

	show_value((const unsigned char *)s->name, sizeof(s->name), true, name, sizeof(name));
	show_value((const unsigned char *)s->file, sizeof(s->file), true, file, sizeof(file));
	snprintf(out, size, "'%s' in '%s'", name, file);
}

static bool judge_pyperf_case(const struct prog *p, int k, uint64_t seed, const char *program,
			      char *why)
{
	static struct py_case c;
	static struct py_expect e;
	const struct obs *o = &p->c[k];
	const size_t regions[] = {
		offsetof(struct py_event, stack_len), sizeof(e.ev.stack_len),
		offsetof(struct py_event, stack), sizeof(e.ev.stack),
		offsetof(struct py_event, stack_complete), sizeof(e.ev.stack_complete),
	};
	char desc[200], label[260], s[200];
	int i, j;

	py_make_case(seed, k, &c);
	py_describe(&c, desc, sizeof(desc));
	snprintf(label, sizeof(label), "input %d (%s)", k + 1, desc);
	if (!common_checks(o, label, why))
		return false;
	if (!o->have_event || !o->have_stats) {
		say(why, "%s: eventmap or statsmap could not be read", label);
		return false;
	}
	py_expect(&c, (uint32_t)o->pid, (uint32_t)o->pid, (int)o->cpu, &e);
	if (!compare(&o->ev, &e.ev, e.set, sizeof(e.ev), regions, 3, py_field, program, label,
		     why))
		return false;
	if (o->success != e.success) {
		say(why, "%s: statsmap counts %u walks, the unrolled %s %u", label, o->success,
		    program, e.success);
		return false;
	}
	for (i = 0; i < e.nsyms; i++) {
		for (j = 0; j < o->nsyms; j++)
			if (!memcmp(&o->sym_key[j], &e.sym_key[i], sizeof(e.sym_key[i])))
				break;
		sym_text(&e.sym_key[i], s, sizeof(s));
		if (j == o->nsyms) {
			say(why, "%s: symbolmap has no entry for %s, which the unrolled %s has", label,
			    s, program);
			return false;
		}
		if (o->sym_val[j] != e.sym_val[i]) {
			say(why, "%s: symbolmap holds %d for %s, the unrolled %s %d", label,
			    o->sym_val[j], s, program, e.sym_val[i]);
			return false;
		}
	}
	if (o->nsyms != e.nsyms) {
		say(why, "%s: symbolmap has %d entries, the unrolled %s's %d", label, o->nsyms,
		    program, e.nsyms);
		return false;
	}
	return perf_checks(o, e.records, e.record_size, program, label, " (an Event each)", why);
}

static bool judge_strobemeta_case(const struct prog *p, int k, uint64_t seed,
				  const char *program, char *why)
{
	static struct sm_case c;
	static struct sm_expect e;
	const struct obs *o = &p->c[k];
	char desc[200], label[260], what[120];

	sm_make_case(seed, k, &c);
	sm_describe(&c, desc, sizeof(desc));
	snprintf(label, sizeof(label), "input %d (%s)", k + 1, desc);
	if (!common_checks(o, label, why))
		return false;
	if (!o->have_sample) {
		say(why, "%s: sample_heap could not be read", label);
		return false;
	}
	sm_expect(&c, (uint32_t)o->pid, &e);
	if (!compare(o->sample, &e.s, e.set, sizeof(e.s), NULL, 0, sm_field, program, label, why))
		return false;
	snprintf(what, sizeof(what),
		 ": the sample up to the end of its payload, %d bytes of strings, and one more",
		 e.strings);
	return perf_checks(o, e.records, e.record_size, program, label, what, why);
}

/* Every input of SEED, or the program's own seed when SEED is NULL. */
static bool judge_runs(const struct prog *p, const uint64_t *seed, const char *program,
		       char *why)
{
	int k, cases = p->kind == PYPERF ? PY_CASES : SM_CASES;

	if (!p->exercised) {
		say(why, "no run of %s was reported", p->name);
		return false;
	}
	if (p->error[0]) {
		say(why, "%s could not be run: %s", p->name, p->error);
		return false;
	}
	if (seed && p->seed != *seed) {
		say(why, "the guest ran %s on seed %016llx, not %016llx", p->name,
		    (unsigned long long)p->seed, (unsigned long long)*seed);
		return false;
	}
	if (p->cases != cases) {
		say(why, "the guest ran %s on %d inputs, not %d", p->name, p->cases, cases);
		return false;
	}
	for (k = 0; k < cases; k++) {
		bool ok = p->kind == PYPERF ?
			judge_pyperf_case(p, k, p->seed, program, why) :
			judge_strobemeta_case(p, k, p->seed, program, why);

		if (!ok)
			return false;
	}
	return true;
}

/* The kit's check of its model: the unrolled programs agree with it. */
static int self_check(bool verbose)
{
	char why[WHY_LEN];
	int bad = 0;
	size_t i;

	for (i = 0; i < NR_PROGS; i++) {
		struct prog *p = &progs[i];

		if (!p->pristine)
			continue;
		if (judge_runs(p, NULL, p->name, why)) {
			if (verbose)
				printf("ok: the unrolled %s agrees with the model on seed %016llx\n",
				       p->name, (unsigned long long)p->seed);
		} else {
			fprintf(stderr, "lab4-judge: the kit's unrolled %s does not agree with the kit's model (seed %016llx): %s\n",
				p->name, (unsigned long long)p->seed, why);
			bad = 1;
		}
	}
	return bad ? 3 : 0;
}

/* ---- the verdicts ---- */

static struct ktap out;
static bool verbose;

static struct ktap_held held;

/* A verdict, held: they are printed in grading/tests.list's order. */
static void verdict(const char *id, const char *what, const char *why)
{
	if (!ktap_hold(&held, id, what, why != NULL, why, NULL)) {
		fprintf(stderr, "lab4-judge: more than %d verdicts\n", KTAP_HELD_MAX);
		exit(2);
	}
}

static const char *grouped(long long v, char *buf, size_t size)
{
	char digits[32];
	int n, i, j = 0;

	n = snprintf(digits, sizeof(digits), "%lld", v);
	for (i = 0; i < n && j + 2 < (int)size; i++) {
		if (i && digits[i - 1] != '-' && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = digits[i];
	}
	buf[j] = '\0';
	return buf;
}

/*
 * One program's four tests. The behaviour test (walks_stack, reads_values)
 * is decided first: loading, calling the loop and scaling are worth
 * something only for a program that computes what the unrolled one does,
 * so each of the three fails, with its own figures and the behaviour's
 * reason, when the behaviour test fails.
 */
static void grade_program(const char *id, struct prog *u, struct prog *l, const char *stopped,
			  uint64_t seed)
{
	char test[96], what[200], why[WHY_LEN], wrong[WHY_LEN], b1[32], b2[32];
	const char *behaviour = u->kind == PYPERF ? "walks_stack" : "reads_values";
	bool loaded = l->v.have && l->v.loaded;
	bool faithful = false;

	/* The behaviour, into WRONG (empty when it passes). */
	if (!loaded)
		say(wrong, "%s did not load", l->name);
	else if (judge_runs(l, &seed, u->name, wrong))
		faithful = true;
	else if (stopped)
		snprintf(wrong + strlen(wrong), WHY_LEN - strlen(wrong), "; the guest stopped: %s",
			 stopped);
	if (faithful)
		wrong[0] = '\0';

	snprintf(test, sizeof(test), "lab4.%s_loads", id);
	snprintf(what, sizeof(what), "%s loads on solution/03", l->name);
	if (!l->v.have)
		say(why, "%s was not loaded (it did not build, or the guest stopped before it%s%s)",
		    l->name, stopped ? ": " : "", stopped ? stopped : "");
	else if (!l->v.loaded)
		say(why, "the verifier refused %s (errno %d): %s", l->name, l->v.err,
		    l->v.reason[0] ? l->v.reason : "no log");
	else if (!faithful)
		say(why, "%s loads, but does not compute what the kit's unrolled %s does (lab4.%s_%s): %s",
		    l->name, u->name, id, behaviour, wrong);
	verdict(test, what, faithful ? NULL : why);

	snprintf(test, sizeof(test), "lab4.%s_calls_loop", id);
	snprintf(what, sizeof(what), "the loaded %s calls helper 181 (bpf_loop)", l->name);
	if (!loaded)
		say(why, "%s did not load", l->name);
	else if (l->v.loop_calls < 0)
		say(why, "the kernel hides the program's helper calls: cannot count them");
	else if (l->v.loop_calls == 0)
		say(why, "the loaded %s makes no call to helper 181 (bpf_loop): the loop is still in the program",
		    l->name);
	else if (!faithful)
		say(why, "%s calls helper 181, but does not compute what the kit's unrolled %s does (lab4.%s_%s)",
		    l->name, u->name, id, behaviour);
	verdict(test, what, faithful && l->v.loop_calls > 0 ? NULL : why);

	snprintf(test, sizeof(test), "lab4.%s_scale", id);
	snprintf(what, sizeof(what),
		 "the verifier processes at most %d%% of the instructions of the kit's unrolled %s",
		 SCALE_PERCENT, u->name);
	if (!loaded) {
		say(why, "%s did not load", l->name);
	} else if (l->v.processed < 0) {
		say(why, "the verifier's log of %s has no 'processed N insns' line", l->name);
	} else if (l->v.processed * 100 > u->v.processed * SCALE_PERCENT) {
		say(why, "the verifier processed %s insns for %s, %.1f%% of the kit's unrolled %s's %s (at most %d%%)",
		    grouped(l->v.processed, b1, sizeof(b1)), l->name,
		    100.0 * (double)l->v.processed / (double)u->v.processed, u->name,
		    grouped(u->v.processed, b2, sizeof(b2)), SCALE_PERCENT);
	} else if (!faithful) {
		say(why, "the verifier processed %s insns for %s, but a program that does not compute what the kit's unrolled %s does (lab4.%s_%s) scales nothing",
		    grouped(l->v.processed, b1, sizeof(b1)), l->name, u->name, id, behaviour);
	} else {
		why[0] = '\0';
	}
	verdict(test, what, why[0] ? why : NULL);

	snprintf(test, sizeof(test), "lab4.%s_%s", id, behaviour);
	if (u->kind == PYPERF)
		snprintf(what, sizeof(what),
			 "on %d fake Python stacks, %s leaves what the kit's unrolled %s leaves (maps, perf records)",
			 PY_CASES, l->name, u->name);
	else
		snprintf(what, sizeof(what),
			 "on %d sets of strobe variables, %s leaves what the kit's unrolled %s leaves (maps, perf records)",
			 SM_CASES, l->name, u->name);
	verdict(test, what, faithful ? NULL : wrong);
}

/* lab4.builds, from the build's status file (lib/kit.sh's stage_status:
 * "verdict ok|failed", "reason ..."). */
static void build_verdict(const char *status)
{
	const char *what = "pyperf600_bpf_loop.c and strobemeta_bpf_loop.c compile with your headers (clang -target bpf)";
	char why[WHY_LEN] = "", verdict_word[32] = "";
	FILE *f = status ? fopen(status, "r") : NULL;

	if (status && !f)
		snprintf(why, sizeof(why), "no build status (%s)", status);
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "verdict\t", 8))
			snprintf(verdict_word, sizeof(verdict_word), "%.31s", line + 8);
		else if (!strncmp(line, "reason\t", 7))
			snprintf(why, sizeof(why), "%.300s", line + 7);
	}
	if (f) {
		fclose(f);
		if (!strcmp(verdict_word, "ok"))
			why[0] = '\0';
		else if (!why[0])
			snprintf(why, sizeof(why), "the build did not finish");
	}
	verdict("lab4.builds", what, why[0] ? why : NULL);
}

static int usage(void)
{
	fprintf(stderr,
		"usage: lab4-judge [--tests FILE] --seed HEX --pristine FILE --student FILE\n"
		"                  [--build-status FILE] [--guest-stopped TEXT] [--verbose]\n"
		"       lab4-judge --self-check FILE\n"
		"       lab4-judge [--tests FILE] --list\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *pristine = NULL, *student = NULL, *log = NULL, *stopped = NULL;
	const char *self = NULL, *seed_text = NULL, *table = NULL;
	const char *tests[REGISTRY_MAX_TESTS];
	char inputs[4200], err[600];
	bool list = false, failed;
	int nr, k;
	uint64_t seed;
	char *end;
	size_t i;
	int st;

	for (i = 1; i < (size_t)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (size_t)argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--list")) {
			list = true;
			continue;
		} else if (!strcmp(a, "--verbose")) {
			verbose = true;
			continue;
		}
		if (!v)
			return usage();
		if (!strcmp(a, "--seed"))
			seed_text = v;
		else if (!strcmp(a, "--pristine"))
			pristine = v;
		else if (!strcmp(a, "--student"))
			student = v;
		else if (!strcmp(a, "--build-status"))
			log = v;
		else if (!strcmp(a, "--guest-stopped"))
			stopped = v;
		else if (!strcmp(a, "--self-check"))
			self = v;
		else if (!strcmp(a, "--tests"))
			table = v;
		else
			return usage();
		i++;
	}
	if (self) {
		if (read_file(self, true))
			return 2;
		return self_check(true);
	}
	nr = registry_where_ids(table, "lab4", tests, REGISTRY_MAX_TESTS, err, sizeof(err));
	if (nr < 0) {
		fprintf(stderr, "lab4-judge: %s\n", err);
		return 2;
	}
	if (list) {
		for (i = 0; i < (size_t)nr; i++)
			printf("%s\n", tests[i]);
		return 0;
	}
	if (!seed_text || !pristine || !student)
		return usage();
	errno = 0;
	seed = strtoull(seed_text, &end, 16);
	if (errno || !*seed_text || *end)
		return usage();
	if (read_file(pristine, true) || read_file(student, false))
		return 2;
	if (!progs[0].v.have || !progs[0].v.loaded || progs[0].v.processed <= 0 ||
	    !progs[1].v.have || !progs[1].v.loaded || progs[1].v.processed <= 0) {
		fprintf(stderr, "lab4-judge: %s has no verifier figures for the kit's unrolled pyperf600 and strobemeta\n",
			pristine);
		return 3;
	}
	st = self_check(false);
	if (st)
		return st;

	build_verdict(log);
	grade_program("pyperf600", &progs[0], &progs[2], stopped, seed);
	grade_program("strobemeta", &progs[1], &progs[3], stopped, seed);

	ktap_begin(&out, stdout, "lab4", nr);
	snprintf(inputs, sizeof(inputs), "inputs of seed %016llx; the unrolled programs' figures and runs: %s",
		 (unsigned long long)seed, pristine);
	ktap_note(&out, inputs);
	st = ktap_print_held(&out, &held, tests, nr, "lab4-judge");
	failed = ktap_end(&out);
	for (k = 0; verbose && k < held.nr; k++)
		fprintf(stderr, "    %-7s %s%s%s\n", held.v[k].failed ? "fail" : "pass", held.v[k].id,
			held.v[k].failed ? ": " : "", held.v[k].failed ? held.v[k].why : "");
	return st ? st : failed;
}
