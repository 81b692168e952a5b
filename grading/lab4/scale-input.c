// SPDX-License-Identifier: GPL-2.0
/*
 * Lab 4's inputs for pyperf600 and strobemeta, made from a seed, and what
 * the unrolled programs leave behind on them (scale-input.h).
 *
 * The model follows the programs line by line, with the kernel's helpers
 * as 6.1 implements them on x86-64:
 * - bpf_probe_read_user() zeroes its buffer when the read faults;
 * - bpf_probe_read_user_str() copies a word at a time and zeroes the bytes
 *   after the NUL in the word that holds it (the rest of the buffer keeps
 *   what it had); a string of SIZE bytes or more is cut to SIZE - 1 and a
 *   NUL; it returns the length with the NUL, but 0 for "" when SIZE is 1
 *   (strncpy_from_user_nofault), and zeroes the buffer when it faults;
 * - bpf_get_current_comm() copies the task's name and its NUL.
 * The kit's tests run the unrolled programs on these inputs and check
 * that they agree with this model (tests/84-lab4.t).
 */
#include <stdio.h>
#include <string.h>

#include "scale-input.h"

uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int64_t rng_range(struct rng *r, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static void rand_text(struct rng *r, char *s, int len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789_./";
	int i;

	for (i = 0; i < len; i++)
		s[i] = chars[rng_range(r, 0, sizeof(chars) - 2)];
	s[len] = '\0';
}

uint32_t perf_raw_size(uint32_t n)
{
	return ((4 + n + 7) & ~7u) - 4;
}

/* ---- pyperf ---- */

/* bpf_probe_read_user_str(dst, size, s) for a readable string, size a
 * multiple of 8. */
static void py_read_str(char *dst, size_t size, const char *s)
{
	size_t len = strlen(s);

	if (len >= size) {
		memcpy(dst, s, size);
		dst[size - 1] = '\0';
		return;
	}
	memset(dst, 0, (len / 8 + 1) * 8);
	memcpy(dst, s, len);
}

/* The symbol after get_frame_data() read a frame whose code is CODE. */
static void py_frame_sym(const struct py_case *c, int code, struct py_symbol *sym)
{
	const struct py_code *cc;

	if (code == PY_REF_BAD)	/* co_filename and co_name read as NULL */
		return;
	cc = &c->codes[code];
	if (cc->file >= 0)
		py_read_str(sym->file, PY_FILE_LEN, c->str[cc->file]);
	if (cc->name >= 0)
		py_read_str(sym->name, PY_NAME_LEN, c->str[cc->name]);
}

static int py_new_string(struct py_case *c, struct rng *r, int maxlen)
{
	int i = c->nstrings++;

	rand_text(r, c->str[i], (int)rng_range(r, 0, maxlen));
	return i;
}

static bool sym_zero(const struct py_symbol *s)
{
	static const struct py_symbol zero;

	return !memcmp(s, &zero, sizeof(zero));
}

void py_make_case(uint64_t seed, int index, struct py_case *c)
{
	static struct py_symbol seen[PY_STACK_MAX];
	struct rng r = { seed ^ (0x5079706572660000ULL | (uint64_t)index) };
	struct py_symbol sym;
	int i, k, nseen = 0, walk, slot;

	memset(c, 0, sizeof(*c));
	c->index = index;
	/* The pointer fields sit in distinct 8-byte slots of 64-byte objects. */
	slot = (int)rng_range(&r, 0, 7);
	c->off.frame_back = 8 * slot;
	c->off.frame_code = 8 * ((slot + rng_range(&r, 1, 7)) % 8);
	slot = (int)rng_range(&r, 0, 7);
	c->off.code_filename = 8 * slot;
	c->off.code_name = 8 * ((slot + rng_range(&r, 1, 7)) % 8);
	c->off.thread_frame = 8 * (int32_t)rng_range(&r, 0, 7);
	c->off.thread_thread = 8 * (int32_t)rng_range(&r, 0, 7);
	c->off.frame_lineno = (int32_t)rng_range(&r, 0, 63);
	c->off.string_data = (int32_t)rng_range(&r, 0, 47);
	c->off.string_size = (int32_t)rng_range(&r, 0, 47);

	switch (index) {
	case 0:	/* longer than the walk: it stops at 600 */
		c->nframes = (int)rng_range(&r, PY_STACK_MAX + 1, PY_FRAMES_MAX);
		c->end = (enum py_end)rng_range(&r, 0, 2);
		break;
	case 1:	/* a whole stack */
		c->nframes = (int)rng_range(&r, 1, PY_STACK_MAX);
		c->end = PY_END_NULL;
		break;
	case 2:	/* a stack that ends on a frame that cannot be read */
		c->nframes = (int)rng_range(&r, 0, PY_STACK_MAX - 1);
		c->end = (enum py_end)rng_range(&r, 1, 2);
		break;
	default:
		c->nframes = (int)rng_range(&r, 0, PY_FRAMES_MAX);
		c->end = (enum py_end)rng_range(&r, 0, 2);
		break;
	}
	c->ncodes = (int)rng_range(&r, 2, PY_CODES_MAX);
	for (i = 0; i < c->ncodes; i++) {
		c->codes[i].name = rng_range(&r, 0, 15) ? py_new_string(c, &r, 80) : PY_REF_NULL;
		c->codes[i].file = rng_range(&r, 0, 15) ? py_new_string(c, &r, PY_STR_MAX) : PY_REF_NULL;
	}
	for (i = 0; i < c->nframes; i++)
		c->frame_code[i] = rng_range(&r, 0, 31) ? (int16_t)rng_range(&r, 0, c->ncodes - 1)
						      : PY_REF_BAD;
	c->counter0 = (int32_t)rng_range(&r, 0, 2);
	rand_text(&r, c->comm, COMM_LEN - 1);

	/* Some of the symbols the walk meets are known before it starts. */
	memset(&sym, 0, sizeof(sym));
	walk = c->nframes < PY_STACK_MAX ? c->nframes : PY_STACK_MAX;
	for (i = 0; i < walk; i++) {
		py_frame_sym(c, c->frame_code[i], &sym);
		if (sym_zero(&sym))
			continue;
		for (k = 0; k < nseen && memcmp(&seen[k], &sym, sizeof(sym)); k++)
			;
		if (k == nseen)
			seen[nseen++] = sym;
	}
	for (k = 0; k < nseen && c->nprepop < PY_PREPOP_MAX - 2; k++) {
		if (rng_range(&r, 0, 2))
			continue;
		c->prepop_key[c->nprepop] = seen[k];
		c->prepop_val[c->nprepop++] = (int32_t)rng_range(&r, 1, 1 << 20);
	}
	/* And two that it never meets. */
	for (i = 0; i < 2; i++) {
		char text[40];

		memset(&sym, 0, sizeof(sym));
		rand_text(&r, text, 39);
		py_read_str(sym.file, PY_FILE_LEN, text);
		py_read_str(sym.name, PY_NAME_LEN, "never.walked");
		c->prepop_key[c->nprepop] = sym;
		c->prepop_val[c->nprepop++] = (int32_t)rng_range(&r, 1, 1 << 20);
	}
}

void py_describe(const struct py_case *c, char *buf, size_t size)
{
	static const char *const ends[] = {
		"NULL", "a frame with no code object", "a pointer that faults",
	};

	snprintf(buf, size, "%d frame%s, then %s; %d code objects; %d symbols in symbolmap before",
		 c->nframes, c->nframes == 1 ? "" : "s", ends[c->end], c->ncodes, c->nprepop + 1);
}

static int py_find(const struct py_expect *e, const struct py_symbol *s)
{
	int i;

	for (i = 0; i < e->nsyms; i++)
		if (!memcmp(&e->sym_key[i], s, sizeof(*s)))
			return i;
	return -1;
}

#define PY_SET(e, field) \
	memset((e)->set + offsetof(struct py_event, field), 1, sizeof((e)->ev.field))

/* A frame pointer in the model: a frame's index, or one of these. */
#define PY_AT_NULL (-1)
#define PY_AT_END (-2)		/* the end object, when it is not NULL */

void py_expect(const struct py_case *c, uint32_t pid, uint32_t tid, int cpu,
	       struct py_expect *e)
{
	int call, i, counter, id, at;
	struct py_symbol sym;

	memset(e, 0, sizeof(*e));
	memset(&e->ev, FILL_BYTE, sizeof(e->ev));
	e->nsyms = 1;		/* the all-zero key: the symbol counter */
	e->sym_val[0] = c->counter0;
	for (i = 0; i < c->nprepop; i++) {
		e->sym_key[e->nsyms] = c->prepop_key[i];
		e->sym_val[e->nsyms++] = c->prepop_val[i];
	}
	for (call = 0; call < PY_CALLS; call++) {
		e->ev.pid = pid;
		e->ev.tid = tid;
		memcpy(e->ev.comm, c->comm, COMM_LEN);
		PY_SET(e, pid);
		PY_SET(e, tid);
		PY_SET(e, comm);
		/* use_tls is false: the thread state is the current one */
		e->ev.thread_current = 1;
		e->ev.pthread_match = 1;
		PY_SET(e, thread_current);
		PY_SET(e, pthread_match);
		if (c->nframes > 0)
			at = 0;
		else
			at = c->end == PY_END_NULL ? PY_AT_NULL : PY_AT_END;
		memset(&sym, 0, sizeof(sym));
		counter = 0;
		e->walked = 0;
		for (i = 0; i < PY_STACK_MAX; i++) {
			uint32_t new_id;

			if (at < 0)	/* NULL, or a frame get_frame_data() refuses */
				continue;
			py_frame_sym(c, c->frame_code[at], &sym);
			new_id = (uint32_t)e->sym_val[counter] * 64 + (uint32_t)cpu;
			id = py_find(e, &sym);
			if (id < 0) {
				if (e->nsyms == PY_SYMBOLS_MAX)
					break;	/* cannot happen with the kit's inputs */
				id = e->nsyms++;
				e->sym_key[id] = sym;
				e->sym_val[id] = 0;
			}
			if ((uint32_t)e->sym_val[id] == new_id)
				e->sym_val[counter]++;
			e->ev.stack[i] = e->sym_val[id];
			PY_SET(e, stack[i]);
			e->ev.stack_len = (int16_t)(i + 1);
			PY_SET(e, stack_len);
			e->walked++;
			if (at + 1 < c->nframes)
				at++;
			else
				at = c->end == PY_END_NULL ? PY_AT_NULL : PY_AT_END;
		}
		e->ev.stack_complete = at == PY_AT_NULL;
		PY_SET(e, stack_complete);
		e->success++;
		e->ev.has_meta = 0;
		PY_SET(e, has_meta);
		e->records++;
	}
	e->record_size = perf_raw_size(offsetof(struct py_event, metadata));
}

void py_field(size_t off, char *buf, size_t size, size_t *start, size_t *len)
{
	static const struct {
		const char *name;
		size_t off, size;
	} f[] = {
#define F(x) { #x, offsetof(struct py_event, x), sizeof(((struct py_event *)0)->x) }
		F(pid), F(tid), F(comm), F(kernel_stack_id), F(user_stack_id),
		F(thread_current), F(pthread_match), F(stack_complete), F(stack_len),
		F(has_meta), F(metadata), F(dummy_safeguard),
#undef F
	};
	size_t i, s = offsetof(struct py_event, stack);

	if (off >= s && off < s + sizeof(((struct py_event *)0)->stack)) {
		snprintf(buf, size, "event.stack[%zu]", (off - s) / 4);
		*start = s + (off - s) / 4 * 4;
		*len = 4;
		return;
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (off >= f[i].off && off < f[i].off + f[i].size) {
			snprintf(buf, size, "event.%s", f[i].name);
			*start = f[i].off;
			*len = f[i].size;
			return;
		}
	}
	snprintf(buf, size, "event byte %zu", off);
	*start = off;
	*len = 1;
}

/* ---- strobemeta ---- */

static uint8_t pick_str(struct rng *r)
{
	int64_t x = rng_range(r, 0, 9);

	return x < 7 ? SM_S_TEXT : x == 7 ? SM_S_EMPTY : x == 8 ? SM_S_NULL : SM_S_BAD;
}

void sm_make_case(uint64_t seed, int index, struct sm_case *c)
{
	struct rng r = { seed ^ (0x5374726f62650000ULL | (uint64_t)index) };
	/* How many of the 100 map slots hold a map: few, half, nearly all. */
	int used = index == 0 ? 20 : index == 1 ? 50 : 95;
	int i, j;

	memset(c, 0, sizeof(*c));
	c->index = index;
	c->req_meta_idx = rng_range(&r, 0, 3) ? rng_range(&r, 0, SM_MAPS + 9) : -1;
	for (i = 0; i < SM_INTS; i++) {
		int64_t x = rng_range(&r, 0, 9);

		c->ints[i].slot = x < 3 ? SM_ABSENT : x < 8 ? SM_PRESENT : SM_SLOT_BAD;
		c->ints[i].len = rng_range(&r, 0, 1) ? (uint16_t)rng_range(&r, 1, 3) : 0;
		c->ints[i].val = (int64_t)rng_next(&r);
	}
	for (i = 0; i < SM_STRS; i++) {
		int64_t x = rng_range(&r, 0, 9);

		c->strs[i].slot = x < 3 ? SM_ABSENT : x < 9 ? SM_PRESENT : SM_SLOT_BAD;
		c->strs[i].s = pick_str(&r);
	}
	for (i = 0; i < SM_MAPS; i++) {
		struct sm_mapvar *m = &c->maps[i];
		int64_t x = rng_range(&r, 0, 9);

		if (rng_range(&r, 0, 99) >= used)
			m->slot = SM_ABSENT;
		else
			m->slot = rng_range(&r, 0, 9) ? SM_PRESENT : SM_SLOT_BAD;
		m->raw = x < 8 ? SM_S_TEXT : x == 8 ? SM_S_NULL : SM_S_BAD;
		m->id = (int64_t)rng_next(&r);
		m->cnt = rng_range(&r, -2, SM_ENTRIES + 4);
		m->tag = pick_str(&r);
		for (j = 0; j < SM_ENTRIES; j++) {
			m->key[j] = pick_str(&r);
			m->val[j] = pick_str(&r);
		}
	}
	rand_text(&r, c->comm, COMM_LEN - 1);
}

void sm_describe(const struct sm_case *c, char *buf, size_t size)
{
	int i, ints = 0, strs = 0, maps = 0;

	for (i = 0; i < SM_INTS; i++)
		ints += c->ints[i].slot != SM_ABSENT;
	for (i = 0; i < SM_STRS; i++)
		strs += c->strs[i].slot != SM_ABSENT;
	for (i = 0; i < SM_MAPS; i++)
		maps += c->maps[i].slot != SM_ABSENT;
	snprintf(buf, size, "%d int, %d string and %d map variables set; req_meta_idx %lld",
		 ints, strs, maps, (long long)c->req_meta_idx);
}

#define SM_SET(e, field) \
	memset((e)->set + ((unsigned char *)&(e)->s.field - (unsigned char *)&(e)->s), 1, \
	       sizeof((e)->s.field))

/* bpf_probe_read_user_str(payload + *pos, 1, ptr): -1 when it faults. */
static int sm_read_str(struct sm_expect *e, int pos, uint8_t s)
{
	e->s.metadata.payload[pos] = '\0';
	SM_SET(e, metadata.payload[pos]);
	return s == SM_S_TEXT ? 1 : s == SM_S_EMPTY ? 0 : -1;
}

void sm_expect(const struct sm_case *c, uint32_t pid, struct sm_expect *e)
{
	struct sm_payload *d;
	int i, j, len, pos = 0;

	memset(e, 0, sizeof(*e));
	memset(&e->s, FILL_BYTE, sizeof(e->s));
	d = &e->s.metadata;
	e->s.pid = pid;
	SM_SET(e, pid);
	memcpy(e->s.comm, c->comm, COMM_LEN);
	SM_SET(e, comm);

	d->int_vals_set_mask = 0;
	SM_SET(e, metadata.int_vals_set_mask);
	d->req_meta_valid = 0;
	SM_SET(e, metadata.req_meta_valid);
	for (i = 0; i < SM_INTS; i++) {
		const struct sm_int *v = &c->ints[i];
		bool ok = v->slot == SM_PRESENT;

		if (v->slot == SM_ABSENT)
			continue;
		d->int_vals[i] = ok ? v->val : 0;
		SM_SET(e, metadata.int_vals[i]);
		if (ok && v->len)
			d->int_vals_set_mask |= 1u << i;
	}
	for (i = 0; i < SM_STRS; i++) {
		const struct sm_strvar *v = &c->strs[i];

		d->str_lens[i] = 0;
		SM_SET(e, metadata.str_lens[i]);
		if (v->slot == SM_ABSENT)
			continue;
		len = sm_read_str(e, pos, v->slot == SM_PRESENT ? v->s : SM_S_NULL);
		if (len < 0)
			continue;
		d->str_lens[i] = (uint16_t)len;
		pos += len;
	}
	for (i = 0; i < SM_MAPS; i++) {
		const struct sm_mapvar *m = &c->maps[i];
		struct sm_descr *descr = &d->map_descrs[i];

		descr->tag_len = 0;
		SM_SET(e, metadata.map_descrs[i].tag_len);
		descr->cnt = -1;
		SM_SET(e, metadata.map_descrs[i].cnt);
		if (m->slot != SM_PRESENT || m->raw != SM_S_TEXT)
			continue;	/* no location, or the map cannot be read */
		descr->id = (uint64_t)m->id;
		SM_SET(e, metadata.map_descrs[i].id);
		descr->cnt = (int16_t)m->cnt;
		if ((uint64_t)c->req_meta_idx == (uint64_t)i) {
			d->req_id = m->id;
			SM_SET(e, metadata.req_id);
			d->req_meta_valid = 1;
		}
		len = sm_read_str(e, pos, m->tag);
		if (len >= 0) {
			descr->tag_len = (int16_t)len;
			pos += len;
		}
		for (j = 0; j < SM_ENTRIES && j < m->cnt; j++) {
			descr->key_lens[j] = 0;
			SM_SET(e, metadata.map_descrs[i].key_lens[j]);
			len = sm_read_str(e, pos, m->key[j]);
			if (len >= 0) {
				descr->key_lens[j] = (uint16_t)len;
				pos += len;
			}
			descr->val_lens[j] = 0;
			SM_SET(e, metadata.map_descrs[i].val_lens[j]);
			len = sm_read_str(e, pos, m->val[j]);
			if (len >= 0) {
				descr->val_lens[j] = (uint16_t)len;
				pos += len;
			}
		}
	}
	e->s.has_meta = 1;
	SM_SET(e, has_meta);
	e->strings = pos;
	e->records = 1;
	e->record_size = perf_raw_size(1 + offsetof(struct sm_sample, metadata.payload) + pos);
}

void sm_field(size_t off, char *buf, size_t size, size_t *start, size_t *len)
{
	static const struct {
		const char *name;
		size_t off, size, each;
	} f[] = {
#define F(x, each) { #x, offsetof(struct sm_sample, x), sizeof(((struct sm_sample *)0)->x), each }
		F(ktime, 0), F(comm, 0), F(pid, 0), F(user_stack_id, 0), F(kernel_stack_id, 0),
		F(has_meta, 0), F(metadata.req_id, 0), F(metadata.req_meta_valid, 0),
		F(metadata.int_vals_set_mask, 0), F(metadata.int_vals, 8), F(metadata.str_lens, 2),
		F(metadata.payload, 1), F(dummy_safeguard, 0),
#undef F
	};
	static const struct {
		const char *name;
		size_t off, size, each;
	} g[] = {
#define G(x, each) { #x, offsetof(struct sm_descr, x), sizeof(((struct sm_descr *)0)->x), each }
		G(id, 0), G(tag_len, 0), G(cnt, 0), G(key_lens, 2), G(val_lens, 2),
#undef G
	};
	size_t i, d = offsetof(struct sm_sample, metadata.map_descrs);

	if (off >= d && off < d + SM_MAPS * sizeof(struct sm_descr)) {
		size_t k = (off - d) / sizeof(struct sm_descr), o = (off - d) % sizeof(struct sm_descr);
		size_t base = d + k * sizeof(struct sm_descr);

		for (i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
			if (o < g[i].off || o >= g[i].off + g[i].size)
				continue;
			if (g[i].each) {
				snprintf(buf, size, "metadata.map_descrs[%zu].%s[%zu]", k, g[i].name,
					 (o - g[i].off) / g[i].each);
				*start = base + g[i].off + (o - g[i].off) / g[i].each * g[i].each;
				*len = g[i].each;
			} else {
				snprintf(buf, size, "metadata.map_descrs[%zu].%s", k, g[i].name);
				*start = base + g[i].off;
				*len = g[i].size;
			}
			return;
		}
		snprintf(buf, size, "metadata.map_descrs[%zu] byte %zu", k, o);
		*start = off;
		*len = 1;
		return;
	}
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (off < f[i].off || off >= f[i].off + f[i].size)
			continue;
		if (f[i].each) {
			snprintf(buf, size, "%s[%zu]", f[i].name, (off - f[i].off) / f[i].each);
			*start = f[i].off + (off - f[i].off) / f[i].each * f[i].each;
			*len = f[i].each;
		} else {
			snprintf(buf, size, "%s", f[i].name);
			*start = f[i].off;
			*len = f[i].size;
		}
		return;
	}
	snprintf(buf, size, "sample byte %zu", off);
	*start = off;
	*len = 1;
}

/* ---- the guest's form for bytes ---- */

size_t rle_encode(const unsigned char *p, size_t n, char *out, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, o = 0;

	while (i < n) {
		size_t run = 1;

		while (i + run < n && p[i + run] == p[i])
			run++;
		if (o + 24 >= size)
			break;
		out[o++] = hex[p[i] >> 4];
		out[o++] = hex[p[i] & 15];
		if (run >= 3) {
			o += (size_t)snprintf(out + o, size - o, "*%zu,", run - 1);
			i += run;
		} else {
			i++;
		}
	}
	out[o] = '\0';
	return o;
}

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

long rle_decode(const char *text, unsigned char *out, size_t size)
{
	const char *p = text;
	size_t n = 0;

	while (*p && *p != '\n' && *p != ' ') {
		int hi = hexval(p[0]), lo = hi < 0 ? -1 : hexval(p[1]);
		unsigned long run = 0;

		if (lo < 0 || n >= size)
			return -1;
		out[n++] = (unsigned char)(hi << 4 | lo);
		p += 2;
		if (*p != '*')
			continue;
		for (p++; *p >= '0' && *p <= '9'; p++) {
			run = run * 10 + (unsigned long)(*p - '0');
			if (run > size)
				return -1;
		}
		if (*p++ != ',' || run > size - n)
			return -1;
		memset(out + n, out[n - 1], run);
		n += run;
	}
	return (long)n;
}
