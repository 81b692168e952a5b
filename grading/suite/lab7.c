// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 7: a sound verifier for bpf_loop callbacks. Each soundness test is a
 * pair of programs (progs/lab7.bpf.c) that carry the same state through
 * their ctx: the unsound one uses it unchecked for a memory access that is
 * safe only if the callback runs once, and must be refused; its twin
 * checks it, and must load and compute what the host's model says. A
 * kernel that refuses everything fails the twins; a kernel without
 * bpf_loop fails them too; the 6.1 verifier accepts the unsound program,
 * which the test then runs, harmlessly, to report what it did.
 *
 * The host fills both elements of the map vals (element 1 lies right
 * after element 0's 32 bytes) and the copy source with values of the
 * seed: what the unsound programs read or write past element 0 shows as
 * element 1's values.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suite.h"
#include "lab7.skel.h"
#include "lab7_pyperf600.skel.h"
#include "lab7_strobemeta.skel.h"

#define WORDS 4

/* What the host put in the map and in the copy source. */
struct fill {
	uint64_t e[2][WORDS];
	uint64_t src[8];
};

static void fill_values(const struct test_ctx *ctx, struct fill *f)
{
	char name[16];
	int e, w;

	for (e = 0; e < 2; e++) {
		for (w = 0; w < WORDS; w++) {
			snprintf(name, sizeof(name), "e%dw%d", e, w);
			f->e[e][w] = param(ctx, name, 1, UINT64_MAX);
		}
	}
	for (w = 0; w < 8; w++) {
		snprintf(name, sizeof(name), "src%d", w);
		f->src[w] = param(ctx, name, 1, UINT64_MAX);
	}
}

/*
 * Load one program of lab7.bpf.c in a skeleton of its own and, if it
 * loads, run it once with nr_loops and flags 0, on the host's values.
 * Observations TAG.load, TAG.run, TAG.ret, TAG.after, TAG.outN, TAG.eXwY
 * (the map after the run) and, with xlated, the calls in its translation.
 */
static void run_prog(struct test_ctx *ctx, const char *tag, const char *prog,
		     uint32_t nr_loops, bool xlated)
{
	struct verdict v = { 0 };
	struct lab7 *skel = lab7__open();
	uint32_t key, retval = 0;
	uint64_t elem[WORDS];
	struct fill f;
	int fd, map, err, i;

	observe(ctx, skel ? 0 : -errno, "%s.open", tag);
	if (!skel)
		return;
	fd = load_one_skel(skel->skeleton, prog, 1, &v);
	observe(ctx, fd < 0 ? v.err : 0, "%s.load", tag);
	if (fd < 0)
		diag_log(v.log, 12);
	verdict_free(&v);
	if (fd < 0)
		goto out;
	if (xlated)
		observe_xlated(ctx, tag, fd);
	fill_values(ctx, &f);
	map = bpf_map__fd(skel->maps.vals);
	for (key = 0; key < 2; key++) {
		memcpy(elem, f.e[key], sizeof(elem));
		err = bpf_map_update_elem(map, &key, &elem, BPF_ANY) ? -errno : 0;
		observe(ctx, err, "%s.update%u", tag, key);
	}
	memcpy(skel->bss->src_words, f.src, sizeof(f.src));
	skel->bss->nr_loops = nr_loops;
	skel->bss->flags = 0;
	err = tc_test_run(fd, 1, &retval, NULL);
	observe(ctx, err, "%s.run", tag);
	if (err)
		goto out;
	observe(ctx, skel->bss->ret, "%s.ret", tag);
	observe(ctx, (long long)skel->bss->after, "%s.after", tag);
	for (i = 0; i < 8; i++)
		observe(ctx, (long long)skel->bss->out[i], "%s.out%d", tag, i);
	for (key = 0; key < 2; key++) {
		err = bpf_map_lookup_elem(map, &key, &elem) ? -errno : 0;
		observe(ctx, err, "%s.lookup%u", tag, key);
		for (i = 0; !err && i < WORDS; i++)
			observe(ctx, (long long)elem[i], "%s.e%uw%d", tag, key, i);
	}
out:
	lab7__destroy(skel);
}

/* The model of a twin's run: what the host expects it to leave. */
struct expect {
	long long ret;
	bool has_after;
	uint64_t after;
	int nr_out;			/* out[0 .. nr_out - 1] are checked */
	uint64_t out[8];
	bool map_checked;		/* the map is checked, both elements */
	uint64_t e[2][WORDS];
};

/* The twin ran, and left what the model says. */
static bool judge_run(struct test_ctx *ctx, const char *tag, const char *prog,
		      const struct expect *x)
{
	long long v = seen(ctx, "%s.open", tag);
	char what[96];
	int i, e;

	if (!CHECK(ctx, v == 0, "opening the lab7 object: %s", err_name(v)))
		return false;
	v = seen(ctx, "%s.load", tag);
	if (!CHECK(ctx, v == 0, "%s was refused (%s): it checks the state it carries, or keeps it "
		   "where its callbacks cannot reach, so a sound verifier must accept it (the log is "
		   "in the test's diagnostics)", prog, err_name(v)))
		return false;
	for (e = 0; e < 2; e++) {
		v = seen(ctx, "%s.update%d", tag, e);
		if (!CHECK(ctx, v == 0, "writing element %d of vals: %s", e, err_name(v)))
			return false;
	}
	v = seen(ctx, "%s.run", tag);
	if (!CHECK(ctx, v == 0, "%s: BPF_PROG_TEST_RUN: %s", prog, err_name(v)))
		return false;
	snprintf(what, sizeof(what), "%s: bpf_loop's return", prog);
	if (!CHECK_EQ(ctx, seen(ctx, "%s.ret", tag), x->ret, what))
		return false;
	if (x->has_after) {
		snprintf(what, sizeof(what), "%s: the state after the loop", prog);
		if (!CHECK_EQ(ctx, seen(ctx, "%s.after", tag), x->after, what))
			return false;
	}
	for (i = 0; i < x->nr_out; i++) {
		uint64_t got = (uint64_t)seen(ctx, "%s.out%d", tag, i);

		if (!CHECK(ctx, got == x->out[i], "%s: call %d produced %#llx, expected %#llx",
			   prog, i, (unsigned long long)got, (unsigned long long)x->out[i]))
			return false;
	}
	for (e = 0; x->map_checked && e < 2; e++) {
		for (i = 0; i < WORDS; i++) {
			uint64_t got = (uint64_t)seen(ctx, "%s.e%dw%d", tag, e, i);

			if (!CHECK(ctx, got == x->e[e][i], "%s: element %d's word %d is %#llx after "
				   "the run, expected %#llx", prog, e, i, (unsigned long long)got,
				   (unsigned long long)x->e[e][i]))
				return false;
		}
	}
	return true;
}

/*
 * The unsound program was refused. If it was not, say what it did: the
 * value it reached past element 0, which the verifier's proof excluded.
 */
static void judge_refused(struct test_ctx *ctx, const char *prog, const char *flaw,
			  const char *obs, uint64_t past, const char *past_is)
{
	long long v = seen(ctx, "bad.open");
	uint64_t got;

	if (!CHECK(ctx, v == 0, "opening the lab7 object: %s", err_name(v)))
		return;
	/* Refused: the twin loaded, so bpf_loop is there and works. */
	if (seen(ctx, "bad.load") != 0)
		return;
	if (!has_seen(ctx, "bad.run") || seen(ctx, "bad.run") != 0) {
		CHECK(ctx, false, "%s was accepted: %s", prog, flaw);
		return;
	}
	got = (uint64_t)seen(ctx, "%s", obs);
	CHECK(ctx, false, "%s was accepted: %s. Run, it %s %#llx%s", prog, flaw,
	      got == past ? "reached" : "produced", (unsigned long long)got,
	      got == past ? past_is : "");
}

/* ---- the model ---- */

static uint32_t nr_in(const struct test_ctx *ctx, uint32_t lo, uint32_t hi)
{
	return (uint32_t)param(ctx, "nr_loops", lo, hi);
}

static uint32_t nr(const struct test_ctx *ctx, uint32_t hi)
{
	return nr_in(ctx, 0, hi);
}

/* index_good_cb from a start index: reads w[start..3], then stops. */
static void model_index_from(const struct fill *f, uint32_t n, int start, struct expect *x)
{
	uint32_t room = WORDS - start, i;

	x->ret = n <= room ? n : room + 1;
	x->has_after = true;
	x->after = start + (n < room ? n : room);
	x->nr_out = n < room ? n : room;
	for (i = 0; i < (uint32_t)x->nr_out; i++)
		x->out[i] = f->e[0][start + i];
}

static void model_index(const struct fill *f, uint32_t n, struct expect *x)
{
	model_index_from(f, n, 0, x);
}

static void model_spilled(const struct fill *f, uint32_t n, struct expect *x)
{
	model_index_from(f, n, 1, x);
}

/* Call j copies 8 * (j + 1) bytes; the fifth (40) stops the loop. */
static void model_size(const struct fill *f, uint32_t n, struct expect *x)
{
	uint32_t i;

	x->ret = n <= 4 ? n : 5;
	x->map_checked = true;
	memcpy(x->e, f->e, sizeof(x->e));
	for (i = 0; i < n && i < 4; i++)
		x->e[0][i] = f->src[i];
}

/* n calls add 1 each to a counter from 0; the word it names, if any. */
static void model_after(const struct fill *f, uint32_t n, struct expect *x)
{
	x->ret = n;
	x->has_after = true;
	x->after = n < 4 ? f->e[0][n] : 0;
}

/*
 * Each call sets the index to 1. The twin makes at least one call: a
 * verifier that never follows the callback believes the 5 of the start,
 * drops the read as dead, and leaves 0.
 */
static void model_zero_calls(const struct fill *f, uint32_t n, struct expect *x)
{
	x->ret = n;
	x->has_after = true;
	x->after = f->e[0][1];
}

/* The outer loop's callback runs the index loop once and stops it. */
static void model_nested(const struct fill *f, uint32_t n, struct expect *x)
{
	model_index_from(f, n, 0, x);
	x->ret = 1;
}

/*
 * One unsound test: the unsound program (run with its own constant count,
 * or nr_loops 0), and its checked twin (nr_loops nr_lo .. nr_hi, from the
 * seed) with the model of its run. If 6.1's rule accepts the unsound
 * program, what it reached past element 0 is observation obs, which is
 * then word past_w of element 1 (of the copy source with past_src).
 */
struct pair {
	const char *bad, *good;
	uint32_t nr_lo, nr_hi;
	void (*model)(const struct fill *f, uint32_t n, struct expect *x);
	const char *flaw;
	const char *obs;
	bool past_src;
	int past_w;
	const char *past_is;
};

#define PAST_E1W0 " (element 1's first word, outside the 32 bytes the verifier approved)"
#define PAST_E1W1 " (element 1's second word: w[5] of a 4-word value)"

static const struct pair index_pair = {
	"index_bad", "index_good", 0, 7, model_index,
	"its callback reads v->w[c->idx] and increments idx, checked only with idx == 0 "
	"(zeroes in the caller's stack)", "bad.out4", false, 0, PAST_E1W0,
};

static const struct pair spilled_pair = {
	"spilled_bad", "spilled_good", 0, 6, model_spilled,
	"its index starts as a spilled register holding 1, and the callback was checked "
	"only with 1", "bad.out3", false, 0, PAST_E1W0,
};

static const struct pair pointer_pair = {
	"pointer_bad", "pointer_good", 0, 7, model_index,
	"its callback reads *c->p and moves p on by 8 bytes, checked only with p at the "
	"value's start", "bad.out4", false, 0, PAST_E1W0,
};

static const struct pair size_pair = {
	"size_bad", "size_good", 0, 7, model_size,
	"its callback copies c->size bytes into a 32-byte value and adds 8 to size, checked "
	"only with size == 8 (a 32-bit spill)", "bad.e1w0", true, 4,
	" into element 1's first word (a copy of 40 bytes into 32)",
};

static const struct pair after_pair = {
	"after_bad", "after_good", 0, 6, model_after,
	"after a loop of 5 calls that each add 1 to a counter, it reads v->w[counter], where "
	"the verifier believed one call had run", "bad.after", false, 1, PAST_E1W1,
};

static const struct pair zero_calls_pair = {
	"zero_calls_bad", "zero_calls_good", 1, 3, model_zero_calls,
	"its callback sets idx to 1, and after the loop it reads v->w[idx] as if a call had "
	"run; run with nr_loops 0, idx is still 5", "bad.after", false, 1, PAST_E1W1,
};

static const struct pair nested_pair = {
	"nested_bad", "nested_good", 0, 7, model_nested,
	"an inner loop's callback moves an index in the outer caller's stack, which the inner "
	"call must check for every call too", "bad.out4", false, 0, PAST_E1W0,
};

static void run_pair(struct test_ctx *ctx, const struct pair *p)
{
	run_prog(ctx, "bad", p->bad, 0, false);
	run_prog(ctx, "good", p->good, nr_in(ctx, p->nr_lo, p->nr_hi), false);
}

static void judge_pair(struct test_ctx *ctx, const struct pair *p)
{
	struct expect x = { 0 };
	struct fill f;

	fill_values(ctx, &f);
	p->model(&f, nr_in(ctx, p->nr_lo, p->nr_hi), &x);
	if (!judge_run(ctx, "good", p->good, &x))
		return;
	judge_refused(ctx, p->bad, p->flaw, p->obs, p->past_src ? f.src[p->past_w] :
		      f.e[1][p->past_w], p->past_is);
}

/* ---- the tests ---- */

RUN(lab7_unsound_index) { run_pair(ctx, &index_pair); }
JUDGE(lab7_unsound_index) { judge_pair(ctx, &index_pair); }
RUN(lab7_unsound_spilled) { run_pair(ctx, &spilled_pair); }
JUDGE(lab7_unsound_spilled) { judge_pair(ctx, &spilled_pair); }
RUN(lab7_unsound_pointer) { run_pair(ctx, &pointer_pair); }
JUDGE(lab7_unsound_pointer) { judge_pair(ctx, &pointer_pair); }
RUN(lab7_unsound_size) { run_pair(ctx, &size_pair); }
JUDGE(lab7_unsound_size) { judge_pair(ctx, &size_pair); }
RUN(lab7_unsound_after_loop) { run_pair(ctx, &after_pair); }
JUDGE(lab7_unsound_after_loop) { judge_pair(ctx, &after_pair); }
RUN(lab7_unsound_zero_calls) { run_pair(ctx, &zero_calls_pair); }
JUDGE(lab7_unsound_zero_calls) { judge_pair(ctx, &zero_calls_pair); }
RUN(lab7_unsound_nested) { run_pair(ctx, &nested_pair); }
JUDGE(lab7_unsound_nested) { judge_pair(ctx, &nested_pair); }

/* payload_cb: call i appends (i % 3) + 1 bytes of i + 1 while 3 fit. */
#define PAYLOAD 24

RUN(lab7_keeps_payload)
{
	run_prog(ctx, "good", "payload", nr(ctx, 14), false);
}

JUDGE(lab7_keeps_payload)
{
	uint32_t n = nr(ctx, 14), i, k;
	struct expect x = { 0 };
	uint8_t buf[PAYLOAD] = { 0 };
	uint64_t off = 0;

	x.ret = n;
	for (i = 0; i < n; i++) {
		if (off > PAYLOAD - 3) {
			x.ret = i + 1;
			break;
		}
		for (k = 0; k < (i % 3) + 1; k++)
			buf[off + k] = i + 1;
		off += (i % 3) + 1;
	}
	x.has_after = true;
	x.after = off;
	x.nr_out = PAYLOAD / 8;
	memcpy(x.out, buf, sizeof(buf));	/* the guest is little-endian too */
	judge_run(ctx, "good", "payload", &x);
}

/* Two loops of n calls each: the counter below, and w[3] read after each. */
RUN(lab7_keeps_unreached)
{
	run_prog(ctx, "good", "unreached", nr(ctx, 9), false);
}

JUDGE(lab7_keeps_unreached)
{
	uint32_t n = nr(ctx, 9);
	struct expect x = { 0 };
	struct fill f;

	fill_values(ctx, &f);
	x.ret = 2 * n;
	x.has_after = true;
	x.after = n;
	x.nr_out = 2;
	x.out[0] = x.out[1] = f.e[0][3];
	judge_run(ctx, "good", "unreached", &x);
}

RUN(lab7_keeps_inlining)
{
	uint32_t n = nr(ctx, 10);

	run_prog(ctx, "inline", "fill_inline", n, true);
	run_prog(ctx, "helper", "fill_helper", n, true);
}

static void model_fill(uint32_t n, struct expect *x)
{
	uint32_t i, calls = n < 8 ? n : 8;

	x->ret = n <= 8 ? n : 9;
	x->has_after = true;
	x->after = calls;
	x->nr_out = 8;
	for (i = 0; i < calls; i++)
		x->out[i] = (uint64_t)i * 3 + 1;
}

JUDGE(lab7_keeps_inlining)
{
	struct expect x = { 0 };

	model_fill(nr(ctx, 10), &x);
	if (!judge_run(ctx, "inline", "fill_inline", &x) ||
	    !judge_run(ctx, "helper", "fill_helper", &x))
		return;
	CHECK_EQ(ctx, seen(ctx, "inline.info"), 0, "fill_inline: reading its translation");
	CHECK(ctx, seen(ctx, "inline.helper_calls") == 0,
	      "fill_inline: the bpf_loop call was not inlined (%lld helper call(s) left in the "
	      "translated program): its callback and flags (0) are the same on every path, and "
	      "lab 6 inlined it", seen(ctx, "inline.helper_calls"));
	CHECK(ctx, seen(ctx, "helper.helper_calls") == 1,
	      "fill_helper: flags the verifier cannot see must keep the helper call, found %lld",
	      seen(ctx, "helper.helper_calls"));
}

/*
 * Lab 4's bpf_loop versions of pyperf600 and strobemeta as the kit's
 * reference writes them (solution/07 of the work tree: strobemeta builds
 * its payload at a carried, checked offset): programs that real users
 * write with bpf_loop, which a sound verifier must still accept. Each is
 * loaded with the verifier's statistics (with its log too under --verbose,
 * which shows the reason of a refusal); the count of instructions the
 * verifier processed is the price of soundness on this kernel, and make
 * verif-cost sets the reference kernels' counts before and after the fix
 * side by side.
 */
static void load_lab4(struct test_ctx *ctx, const char *tag, struct bpf_object_skeleton *skel,
		      int open_err)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	struct verdict v = { 0 };
	int fd, err;

	observe(ctx, open_err, "%s.open", tag);
	if (!skel)
		return;
	fd = load_one_skel(skel, "on_event", ctx->verbose ? 1 | 4 : 4, &v);
	observe(ctx, fd < 0 ? v.err : 0, "%s.load", tag);
	if (fd >= 0) {
		err = bpf_obj_get_info_by_fd(fd, &info, &len) ? -errno : 0;
		observe(ctx, err, "%s.info", tag);
		if (!err) {
			observe(ctx, info.verified_insns, "%s.processed", tag);
			diag("%s_bpf_loop: the verifier processed %u instructions", tag, info.verified_insns);
		}
	}
	verdict_free(&v);
}

RUN(lab7_keeps_lab4)
{
	struct lab7_pyperf600 *py = lab7_pyperf600__open();
	int py_err = py ? 0 : -errno;
	struct lab7_strobemeta *sm = lab7_strobemeta__open();
	int sm_err = sm ? 0 : -errno;

	load_lab4(ctx, "pyperf600", py ? py->skeleton : NULL, py_err);
	load_lab4(ctx, "strobemeta", sm ? sm->skeleton : NULL, sm_err);
	lab7_pyperf600__destroy(py);
	lab7_strobemeta__destroy(sm);
}

JUDGE(lab7_keeps_lab4)
{
	static const char *const tags[] = { "pyperf600", "strobemeta" };
	long long v;
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		v = seen(ctx, "%s.open", tags[i]);
		if (!CHECK(ctx, v == 0, "opening %s_bpf_loop: %s", tags[i], err_name(v)))
			continue;
		v = seen(ctx, "%s.load", tags[i]);
		if (!CHECK(ctx, v == 0, "%s_bpf_loop (lab 4's, as the reference writes it) was refused "
			   "(%s): a program real users write with bpf_loop, which a sound verifier must "
			   "still accept. The verifier's reason: make run CMD='bpfloop-suite --only "
			   "lab7.keeps_lab4 --verbose'", tags[i], err_name(v)))
			continue;
		v = seen(ctx, "%s.info", tags[i]);
		if (!CHECK(ctx, v == 0, "%s_bpf_loop: reading its program info: %s", tags[i], err_name(v)))
			continue;
		v = seen(ctx, "%s.processed", tags[i]);
		CHECK(ctx, v > 0, "%s_bpf_loop loaded, yet the kernel says its verifier processed %lld "
		      "instructions", tags[i], v);
	}
}
