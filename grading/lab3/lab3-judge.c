// SPDX-License-Identifier: GPL-2.0
/*
 * lab3-judge: lab 3's verdicts, on the host, from the guest runs of a
 * student's selftests (grading/lab3/run-lab3).
 *
 *   lab3-judge --build-status FILE [--reference DIR] [--mutant NAME=DIR]...
 *
 * FILE is the selftests' build status (grading/pipeline/guest-build: "verdict ok"
 * or "verdict failed" and the reason). Each DIR is a vm/qemu-run folder of
 * one run of the selftests: its status file holds the program's exit
 * status when the guest finished, its verdict file the guest's end when it
 * did not (a crash, a hang), its output what the harness printed. A run
 * passed when the selftests exited 0.
 *
 * Prints lab 3's KTAP, with "# running ID" before each test:
 *   lab3.builds              the build's status
 *   lab3.pass_on_reference   the run on the reference passed
 *   lab3.catches.NAME        the run on mutant NAME did not pass (a failed
 *                            subtest, a crash or a hang catches it)
 * Exit status: 0 every test passed, 1 some did not, 2 usage.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../pipeline/ktap.h"

#define MAX_MUTANTS 64

static struct ktap out;

static void verdict(const char *id, const char *what, const char *why)
{
	ktap_result(&out, id, what, why != NULL, why, NULL);
}

/* The first line of DIR/NAME, or "" when there is none. */
static void first_line(const char *dir, const char *name, char *out, size_t size)
{
	char path[4096];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(out, size, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

/*
 * One run: true when the selftests exited 0; else why, for people: the
 * first subtest that failed (with the harness's diagnostic before it), or
 * how the guest ended.
 */
static bool run_passed(const char *dir, char *why, size_t size)
{
	char status[64], line[1024], diag[600] = "", path[4096];
	FILE *f;

	first_line(dir, "status", status, sizeof(status));
	if (!status[0]) {
		char end[400];

		first_line(dir, "verdict", end, sizeof(end));
		snprintf(why, size, "the guest did not finish (%s)", end[0] ? end : "no verdict");
		return false;
	}
	if (!strcmp(status, "0"))
		return true;
	snprintf(why, size, "the selftests exited with status %s", status);
	snprintf(path, sizeof(path), "%s/output", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		p[strcspn(p, "\n")] = '\0';
		if (p[0] == '#' && p[1] == ' ') {
			snprintf(diag, sizeof(diag), "%.500s", p + 2);
		} else if (!strncmp(p, "not ok ", 7)) {
			char *name = p + 7 + strspn(p + 7, "0123456789 ");

			snprintf(why, size, "%.200s failed%s%.500s", name, diag[0] ? ": " : "", diag);
			break;
		}
	}
	if (f)
		fclose(f);
	return false;
}

int main(int argc, char **argv)
{
	const char *build = NULL, *reference = NULL, *mutants[MAX_MUTANTS];
	char why[1200], word[32] = "", reason[600] = "", line[1024], id[160], what[200];
	int nr_mutants = 0, i;
	bool built;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--build-status"))
			build = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--reference"))
			reference = argv[++i];
		else if (i + 1 < argc && !strcmp(argv[i], "--mutant") && strchr(argv[i + 1], '=') &&
			 nr_mutants < MAX_MUTANTS)
			mutants[nr_mutants++] = argv[++i];
		else
			goto usage;
	}
	if (!build)
		goto usage;

	ktap_begin(&out, stdout, "lab3", 2 + nr_mutants);
	f = fopen(build, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "verdict\t", 8))
			snprintf(word, sizeof(word), "%.31s", line + 8);
		else if (!strncmp(line, "reason\t", 7))
			snprintf(reason, sizeof(reason), "%.500s", line + 7);
	}
	if (f)
		fclose(f);
	built = !strcmp(word, "ok");
	verdict("lab3.builds", "the selftests build against the kit's harness",
		built ? NULL : reason[0] ? reason : "the build did not finish");

	if (!built || !reference) {
		verdict("lab3.pass_on_reference", "every subtest passes on the reference kernel",
			built ? "no run on the reference kernel" : "not built");
	} else if (run_passed(reference, why, sizeof(why))) {
		verdict("lab3.pass_on_reference", "every subtest passes on the reference kernel", NULL);
	} else {
		snprintf(reason, sizeof(reason), "on the reference kernel: %.540s", why);
		verdict("lab3.pass_on_reference", "every subtest passes on the reference kernel", reason);
	}
	for (i = 0; i < nr_mutants; i++) {
		const char *name = mutants[i], *dir = strchr(name, '=') + 1;
		int n = (int)(dir - 1 - name);

		snprintf(id, sizeof(id), "lab3.catches.%.*s", n, name);
		snprintf(what, sizeof(what), "a subtest fails on mutant %.*s", n, name);
		if (!built) {
			verdict(id, what, "not built");
		} else if (run_passed(dir, why, sizeof(why))) {
			snprintf(reason, sizeof(reason), "every subtest passed on a kernel with this "
				 "mistake (mutant %.*s, grading/mutants/README.md)", n, name);
			verdict(id, what, reason);
		} else {
			verdict(id, what, NULL);
		}
	}
	return ktap_end(&out);
usage:
	fprintf(stderr, "usage: lab3-judge --build-status FILE [--reference DIR] [--mutant NAME=DIR]...\n");
	return 2;
}
