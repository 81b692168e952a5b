/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the kit's programs that run in the lab guest: the suite and the
 * lab 3 harness. */
#ifndef GUEST_H
#define GUEST_H

#include <stdbool.h>

/* The kernel command line carries bpfloop.guest (vm/qemu-run puts it
 * there): the programs that load BPF refuse to run anywhere else. */
bool in_lab_guest(void);

/* WORD is one of the items of the comma-separated LIST. */
bool in_list(const char *list, const char *word);

#endif
