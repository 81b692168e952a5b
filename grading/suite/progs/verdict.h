/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verifier's verdict a program of the suite must get, written beside
 * the program:
 *
 *	REFUSED(prog_name, -EACCES, "what the verifier's log must say");
 *
 * one line each, after the program. grading/suite/expect-table reads these
 * lines into the suite's build (expect.h), the one table the guest's suite
 * and the host's judge take a refusal's error and message from
 * (suite.h, refused()). Here, compiled for BPF, a line only checks that
 * the message is not empty.
 */
#ifndef BPFLOOP_VERDICT_H
#define BPFLOOP_VERDICT_H

#define REFUSED(prog, err, says) _Static_assert(sizeof(says) > 1, #prog ": say what the log must say")

#endif
