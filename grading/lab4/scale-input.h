/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 4's exercise of pyperf600 and strobemeta: the inputs the kit makes
 * from a seed, the types the programs share with user space (laid out as
 * the selftests' pyperf.h and strobemeta.h lay them out for pyperf600 and
 * strobemeta), and what the unrolled programs leave behind on each input.
 *
 * Shared by the guest's loader (verif-load, exercise.c), which builds the
 * inputs in memory and reports what the kernel produced, and the host's
 * judge (lab4-judge), which rebuilds the same inputs from the same seed and
 * compares. Both are x86-64, so the layouts below are the BPF programs'.
 */
#ifndef SCALE_INPUT_H
#define SCALE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 64-bit generator (splitmix64): the same numbers on both sides. */
struct rng {
	uint64_t s;
};

uint64_t rng_next(struct rng *r);
/* A number in [lo, hi]. */
int64_t rng_range(struct rng *r, int64_t lo, int64_t hi);

/* The byte both sides fill the maps' values with before a run: a field the
 * program does not write keeps it. */
#define FILL_BYTE 0xa5
#define COMM_LEN 16

/* ---- pyperf.h, STACK_MAX_LEN 600 ---- */

#define PY_STACK_MAX 600
#define PY_NAME_LEN 64
#define PY_FILE_LEN 128
#define PY_CALLS 5		/* on_event() runs __on_event() five times */
#define PY_SYMBOLS_MAX 4096	/* symbolmap's size as the kit loads it */

struct py_offsets {
	int32_t thread_frame, thread_thread, frame_back, frame_code, frame_lineno;
	int32_t code_filename, code_name, string_data, string_size;
};

struct py_pid_data {
	uint64_t current_state_addr;
	uint64_t tls_key_addr;
	struct py_offsets offsets;
	bool use_tls;
};

struct py_symbol {
	char name[PY_NAME_LEN];
	char file[PY_FILE_LEN];
};

struct py_event {
	uint32_t pid;
	uint32_t tid;
	char comm[COMM_LEN];
	int32_t kernel_stack_id;
	int32_t user_stack_id;
	bool thread_current;
	bool pthread_match;
	bool stack_complete;
	int16_t stack_len;
	int32_t stack[PY_STACK_MAX];
	int has_meta;
	int metadata;
	char dummy_safeguard;
};

struct py_stats {
	uint32_t success;
};

/* One input: a fake Python thread whose frames the program walks. */
#define PY_CASES 4
#define PY_FRAMES_MAX 700
#define PY_CODES_MAX 24
#define PY_STR_MAX 150
#define PY_PREPOP_MAX 32
#define PY_REF_NULL (-1)	/* a NULL pointer */
#define PY_REF_BAD (-2)		/* a pointer into a page that faults */

enum py_end {
	PY_END_NULL,		/* the last frame's f_back is NULL */
	PY_END_NO_CODE,		/* ... points to a frame whose f_code is NULL */
	PY_END_BAD,		/* ... points into a page that faults */
};

struct py_code {
	int16_t name, file;	/* a string's index, or PY_REF_NULL */
};

struct py_case {
	int index;
	struct py_offsets off;
	int nframes;
	enum py_end end;
	int16_t frame_code[PY_FRAMES_MAX];	/* a code's index, or PY_REF_BAD */
	int ncodes;
	struct py_code codes[PY_CODES_MAX];
	int nstrings;
	char str[2 * PY_CODES_MAX][PY_STR_MAX + 1];
	int32_t counter0;	/* symbolmap's value for the all-zero key */
	int nprepop;		/* symbols in symbolmap before the run */
	struct py_symbol prepop_key[PY_PREPOP_MAX];
	int32_t prepop_val[PY_PREPOP_MAX];
	char comm[COMM_LEN];
};

void py_make_case(uint64_t seed, int index, struct py_case *c);
/* One line on the input, for a reason: "612 frames, then NULL". */
void py_describe(const struct py_case *c, char *buf, size_t size);

/* What the unrolled pyperf600 leaves behind on that input. */
struct py_expect {
	struct py_event ev;
	unsigned char set[sizeof(struct py_event)];	/* bytes it writes */
	int nsyms;
	struct py_symbol sym_key[PY_SYMBOLS_MAX];
	int32_t sym_val[PY_SYMBOLS_MAX];
	uint32_t success;	/* statsmap's counter, from 0 */
	int records;		/* perf records, each record_size bytes */
	uint32_t record_size;
	int walked;		/* frames walked by each __on_event() */
};

void py_expect(const struct py_case *c, uint32_t pid, uint32_t tid, int cpu,
	       struct py_expect *e);
/* The name of the field of struct py_event at byte OFF ("stack[12]"). */
void py_field(size_t off, char *buf, size_t size, size_t *start, size_t *len);

/* ---- strobemeta.h, as strobemeta.c sets it up ---- */

#define SM_INTS 2
#define SM_STRS 25
#define SM_MAPS 100
#define SM_ENTRIES 20
#define SM_STR_LEN 1
#define SM_PAYLOAD (SM_STRS * SM_STR_LEN + SM_MAPS * (1 + SM_ENTRIES * 2) * SM_STR_LEN)
#define SM_CFGS_MAX 1024	/* strobemeta_cfgs's size as the kit loads it */

struct sm_loc {
	int64_t tls_mode;
	int64_t offset;
};

struct sm_cfg {
	int64_t req_meta_idx;
	struct sm_loc int_locs[SM_INTS];
	struct sm_loc str_locs[SM_STRS];
	struct sm_loc map_locs[SM_MAPS];
};

struct sm_value {
	uint16_t len;
	uint8_t reserved[6];
	uint64_t val;		/* the value, or a pointer */
};

struct sm_map_raw {
	int64_t id;
	int64_t cnt;
	uint64_t tag;
	struct {
		uint64_t key, val;
	} entries[SM_ENTRIES];
};

struct sm_descr {
	uint64_t id;
	int16_t tag_len;
	int16_t cnt;
	uint16_t key_lens[SM_ENTRIES];
	uint16_t val_lens[SM_ENTRIES];
};

struct sm_payload {
	int64_t req_id;
	uint8_t req_meta_valid;
	uint64_t int_vals_set_mask;
	int64_t int_vals[SM_INTS];
	uint16_t str_lens[SM_STRS];
	struct sm_descr map_descrs[SM_MAPS];
	char payload[SM_PAYLOAD];
};

struct sm_sample {
	uint64_t ktime;
	char comm[COMM_LEN];
	uint32_t pid;
	int user_stack_id;
	int kernel_stack_id;
	int has_meta;
	struct sm_payload metadata;
	char dummy_safeguard;
};

/* One input: strobe variables in the thread's memory, where the
 * configuration says they are. */
#define SM_CASES 3

enum sm_slot {
	SM_ABSENT,		/* tls_mode -1: no variable */
	SM_PRESENT,		/* tls_mode 0, the offset reaches the value */
	SM_SLOT_BAD,		/* tls_mode 0, the offset reaches a page that faults */
};

enum sm_str {
	SM_S_TEXT,		/* a string of 1 to 20 characters */
	SM_S_EMPTY,		/* "" */
	SM_S_NULL,
	SM_S_BAD,
};

struct sm_int {
	uint8_t slot;
	uint16_t len;
	int64_t val;
};

struct sm_strvar {
	uint8_t slot;
	uint8_t s;
};

struct sm_mapvar {
	uint8_t slot;
	uint8_t raw;		/* SM_S_TEXT: the map is there; SM_S_NULL, SM_S_BAD */
	int64_t id, cnt;
	uint8_t tag;
	uint8_t key[SM_ENTRIES], val[SM_ENTRIES];
};

struct sm_case {
	int index;
	int64_t req_meta_idx;
	struct sm_int ints[SM_INTS];
	struct sm_strvar strs[SM_STRS];
	struct sm_mapvar maps[SM_MAPS];
	char comm[COMM_LEN];
};

void sm_make_case(uint64_t seed, int index, struct sm_case *c);
void sm_describe(const struct sm_case *c, char *buf, size_t size);

/* What the unrolled strobemeta leaves behind on that input. */
struct sm_expect {
	struct sm_sample s;
	unsigned char set[sizeof(struct sm_sample)];
	int strings;		/* bytes of payload: strings read */
	int records;
	uint32_t record_size;
};

void sm_expect(const struct sm_case *c, uint32_t pid, struct sm_expect *e);
void sm_field(size_t off, char *buf, size_t size, size_t *start, size_t *len);

/* The size perf reports for a BPF output record of N bytes: the sample's
 * 4-byte size and the data, padded to 8 bytes. */
uint32_t perf_raw_size(uint32_t n);

/* Run-length hex, the form the guest reports bytes in: two hex digits a
 * byte; "*N," after a byte repeats it N more times. */
size_t rle_encode(const unsigned char *p, size_t n, char *out, size_t size);
/* Returns the bytes decoded, or -1 when TEXT is not such a form or holds
 * more than SIZE bytes. */
long rle_decode(const char *text, unsigned char *out, size_t size);

#endif
