/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one writer of the KTAP that the host-side labs' judges print
 * (lab3-judge, lab4-judge, bench-judge); ktap.c is its reader. One lab is
 * the one subtest of the run:
 *
 *	KTAP version 1
 *	1..1
 *	    KTAP version 1
 *	    # Subtest: labN
 *	    1..PLANNED
 *	    # running ID[: WHAT]
 *	    # WHY			(a failed test's reason)
 *	    ok|not ok NUMBER ID
 *	    ...
 *	ok|not ok 1 labN
 *
 * The readers (ktap.c, suite/judge.c) take a line's words with
 * ktap_skip_space() and ktap_take_id(). Header only: each judge is one C
 * file.
 */
#ifndef BPFLOOP_KTAP_H
#define BPFLOOP_KTAP_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct ktap {
	FILE *f;
	const char *lab;
	int number;
	bool failed;
};

static inline void ktap_begin(struct ktap *k, FILE *f, const char *lab, unsigned long planned)
{
	k->f = f;
	k->lab = lab;
	k->number = 0;
	k->failed = false;
	fprintf(f, "KTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: %s\n    1..%lu\n",
		lab, planned);
}

/* A diagnostic line of the subtest: "    # TEXT". */
static inline void ktap_note(struct ktap *k, const char *text)
{
	fprintf(k->f, "    # %s\n", text);
}

/*
 * Test ID's result: WHAT (or NULL) says what it checks; a failed test
 * prints WHY and MORE (either may be NULL) before its result line.
 */
static inline void ktap_result(struct ktap *k, const char *id, const char *what, bool failed,
			       const char *why, const char *more)
{
	fprintf(k->f, "    # running %s%s%s\n", id, what ? ": " : "", what ? what : "");
	if (failed && (why || more))
		fprintf(k->f, "    # %s%s\n", why ? why : "", more ? more : "");
	fprintf(k->f, "    %s %d %s\n", failed ? "not ok" : "ok", ++k->number, id);
	k->failed |= failed;
}

/* The run's own result line; returns whether a test failed. */
static inline bool ktap_end(struct ktap *k)
{
	fprintf(k->f, "%s 1 %s\n", k->failed ? "not ok" : "ok", k->lab);
	return k->failed;
}

/*
 * A judge's verdicts, held until every check has run, then printed in the
 * order of IDS: the tests grading/tests.list gives the lab (registry.h,
 * registry_where_ids), so that the table alone declares them.
 */
/*
 * The longest reason a reader keeps of a test (its first diagnostic line):
 * a judge's WHY fits whole (lab4-judge's is at most 600 bytes), so what
 * make check and the reports show is what the judge wrote.
 */
#define KTAP_REASON_MAX 640

#define KTAP_HELD_MAX 32
struct ktap_held {
	int nr;
	struct {
		char id[96], what[200], why[600], more[600];
		bool failed, printed;
	} v[KTAP_HELD_MAX];
};

/* Holds test ID's verdict (ktap_result's arguments); false when full. */
static inline bool ktap_hold(struct ktap_held *h, const char *id, const char *what, bool failed,
			     const char *why, const char *more)
{
	if (h->nr == KTAP_HELD_MAX)
		return false;
	snprintf(h->v[h->nr].id, sizeof(h->v[h->nr].id), "%s", id);
	snprintf(h->v[h->nr].what, sizeof(h->v[h->nr].what), "%s", what ? what : "");
	snprintf(h->v[h->nr].why, sizeof(h->v[h->nr].why), "%s", why ? why : "");
	snprintf(h->v[h->nr].more, sizeof(h->v[h->nr].more), "%s", more ? more : "");
	h->v[h->nr].failed = failed;
	h->v[h->nr].printed = false;
	h->nr++;
	return true;
}

/*
 * Prints the held verdicts of the NR tests IDS, in that order, with
 * ktap_result. A test of IDS that no check judged, or a held verdict of a
 * test IDS lacks, is the kit's own mistake: it is named on stderr (after
 * PROG) and the return is 2; else 0.
 */
static inline int ktap_print_held(struct ktap *k, struct ktap_held *h, const char *const *ids, int nr,
				  const char *prog)
{
	int i, j, st = 0;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < h->nr && strcmp(h->v[j].id, ids[i]); j++)
			;
		if (j == h->nr) {
			fprintf(stderr, "%s: grading/tests.list declares %s, which no check of the judge judges\n",
				prog, ids[i]);
			st = 2;
			continue;
		}
		h->v[j].printed = true;
		ktap_result(k, h->v[j].id, h->v[j].what[0] ? h->v[j].what : NULL, h->v[j].failed,
			    h->v[j].why[0] ? h->v[j].why : NULL, h->v[j].more[0] ? h->v[j].more : NULL);
	}
	for (j = 0; j < h->nr; j++)
		if (!h->v[j].printed) {
			fprintf(stderr, "%s: the check of %s has no line in grading/tests.list\n", prog,
				h->v[j].id);
			st = 2;
		}
	return st;
}

/* P past its spaces and tabs. */
static inline char *ktap_skip_space(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* The test id at P (letters, digits, '.', '_', '-') into OUT of SIZE bytes. */
static inline bool ktap_take_id(const char *p, char *out, size_t size)
{
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-");

	if (!n || n >= size)
		return false;
	memcpy(out, p, n);
	out[n] = '\0';
	return true;
}

#endif
