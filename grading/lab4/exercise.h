/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 4's exerciser, in the guest: runs a loaded pyperf or strobemeta
 * program on the kit's inputs (scale-input.h) and prints what the kernel
 * produced. Part of verif-load.
 */
#ifndef EXERCISE_H
#define EXERCISE_H

#include <stdint.h>
#include <bpf/libbpf.h>

enum exercise_kind {
	KIND_NONE,
	KIND_PYPERF,		/* a program named pyperf... */
	KIND_STROBEMETA,	/* a program named strobemeta... */
};

enum exercise_kind exercise_kind(const char *name);

/* Before the load: size the maps the inputs need (symbolmap,
 * strobemeta_cfgs). The same for every load, exercised or not. */
void exercise_prepare(struct bpf_object *obj, enum exercise_kind kind);

/* After the load: run the program on each input of SEED and print
 * "exercise ..." and "obs... " lines (described in verif-load.c). */
void exercise_run(struct bpf_object *obj, const char *name, enum exercise_kind kind,
		  uint64_t seed);

#endif
