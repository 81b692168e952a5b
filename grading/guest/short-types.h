/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's short type names, as the tree's tools/include gives them to
 * upstream's test runners: a skeleton declares a BPF program's "u32 x;"
 * globals with them. Shared by the kit's lab 3 and lab 5 harnesses.
 */
#ifndef BPFLOOP_SHORT_TYPES_H
#define BPFLOOP_SHORT_TYPES_H

#include <linux/types.h>

typedef __u64 u64;
typedef __s64 s64;
typedef __u32 u32;
typedef __s32 s32;
typedef __u16 u16;
typedef __s16 s16;
typedef __u8 u8;
typedef __s8 s8;

#endif
