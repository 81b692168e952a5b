// SPDX-License-Identifier: GPL-2.0
/*
 * ktap: read the suite's KTAP output and list one verdict per test.
 *
 * Usage: ktap FILE...
 * The files are runs of one boot each, in order: when a test crashed the
 * guest, the host boots again and resumes after it, so a later file adds
 * to (never contradicts) an earlier one. For each test:
 *     ID <TAB> VERDICT <TAB> SECONDS <TAB> REASON
 * VERDICT is pass, fail, skip, crash or timeout (the test started,
 * "# running ID", and no result line followed: the output ends inside it). REASON is the
 * skip reason or the test's first diagnostic line. Output that is not KTAP
 * is ignored, and a truncated file is read as far as it goes. The host
 * appends "# boot-end WORD: REASON" to a boot's output when the guest did not
 * finish: the test running then gets verdict "timeout" (WORD timeout) or
 * "crash" (any other WORD), with REASON.
 * Exit status: 0 every test passed or skipped, 1 some did not, 2 usage or
 * I/O error, 3 no test result at all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"

#define MAX_TESTS 512

struct result {
	char id[96];
	char verdict[8];
	char reason[KTAP_REASON_MAX];
	double seconds;
};

static struct result results[MAX_TESTS];
static int nr_results;

static struct result *find(const char *id, int create)
{
	int i;

	for (i = 0; i < nr_results; i++)
		if (!strcmp(results[i].id, id))
			return &results[i];
	if (!create || nr_results == MAX_TESTS)
		return NULL;
	memset(&results[nr_results], 0, sizeof(results[0]));
	snprintf(results[nr_results].id, sizeof(results[0].id), "%s", id);
	return &results[nr_results++];
}


static void read_file(FILE *f)
{
	char line[2048], id[96], running[96] = "";
	struct result *r;

	while (fgets(line, sizeof(line), f)) {
		char *p = ktap_skip_space(line), *rest;
		int not_ok = 0;

		p[strcspn(p, "\r\n")] = '\0';
		if (!strncmp(p, "# running ", 10)) {
			if (ktap_take_id(p + 10, id, sizeof(id)) && (r = find(id, 1))) {
				snprintf(running, sizeof(running), "%s", id);
				strcpy(r->verdict, "crash");
				r->reason[0] = '\0';
			}
			continue;
		}
		if (!strncmp(p, "# duration ", 11)) {
			if (ktap_take_id(p + 11, id, sizeof(id)) && (r = find(id, 0)))
				r->seconds = strtod(p + 11 + strlen(id), NULL);
			continue;
		}
		if (!strncmp(p, "# boot-end ", 11)) {
			char word[32] = "";

			r = running[0] ? find(running, 0) : NULL;
			if (r && sscanf(p + 11, "%31[a-z-]", word) == 1) {
				strcpy(r->verdict, strcmp(word, "timeout") ? "crash" : "timeout");
				snprintf(r->reason, sizeof(r->reason), "%s", ktap_skip_space(p + 11));
			}
			running[0] = '\0';
			continue;
		}
		if (p[0] == '#' && running[0]) {
			r = find(running, 0);
			if (r && !r->reason[0])
				snprintf(r->reason, sizeof(r->reason), "%s", ktap_skip_space(p + 1));
			continue;
		}
		if (!strncmp(p, "not ok ", 7)) {
			not_ok = 1;
			p += 7;
		} else if (!strncmp(p, "ok ", 3)) {
			p += 3;
		} else {
			continue;
		}
		strtol(p, &rest, 10);
		if (rest == p)
			continue;
		rest = ktap_skip_space(rest);
		if (rest[0] == '-' && rest[1] == ' ')
			rest = ktap_skip_space(rest + 1);
		/* Only tests ("lab1.name"), not the per-lab summary lines. */
		if (!ktap_take_id(rest, id, sizeof(id)) || !strchr(id, '.'))
			continue;
		r = find(id, 1);
		if (!r)
			continue;
		rest += strlen(id);
		if (!not_ok && strstr(rest, "# SKIP")) {
			strcpy(r->verdict, "skip");
			snprintf(r->reason, sizeof(r->reason), "%s", ktap_skip_space(strstr(rest, "# SKIP") + 6));
		} else {
			strcpy(r->verdict, not_ok ? "fail" : "pass");
			if (!not_ok)
				r->reason[0] = '\0';
		}
		if (!strcmp(running, id))
			running[0] = '\0';
	}
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");

		if (!f) {
			fprintf(stderr, "ktap: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		read_file(f);
		fclose(f);
	}
	for (i = 0; i < nr_results; i++) {
		struct result *r = &results[i];
		char *c;

		for (c = r->reason; *c; c++)
			if (*c == '\t')
				*c = ' ';
		printf("%s\t%s\t%.3f\t%s\n", r->id, r->verdict, r->seconds, r->reason);
		bad |= strcmp(r->verdict, "pass") && strcmp(r->verdict, "skip");
	}
	if (!nr_results)
		return 3;
	return bad;
}
