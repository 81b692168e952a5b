// SPDX-License-Identifier: GPL-2.0
/* The registry of the kit's tests (registry.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"

static bool valid_where(const char *w)
{
	if (!strcmp(w, "suite") || !strcmp(w, "suite-own"))
		return true;
	/* A host-side lab: "lab" and a number. */
	return !strncmp(w, "lab", 3) && w[3] >= '0' && w[3] <= '9' && !w[4];
}

int registry_read(const char *path, struct reg_test *tests, int max, char *err, size_t errlen)
{
	char line[1024];
	int lineno = 0, nr = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "cannot read the test table %s: %s", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char id[96], where[16], *p = line;
		int lab, n = 0, i;
		double points;

		lineno++;
		p[strcspn(p, "\r\n")] = '\0';
		p += strspn(p, " \t");
		if (!*p || *p == '#')
			continue;
		if (sscanf(p, "%95s %d %lf %15s %n", id, &lab, &points, where, &n) != 4 || !n ||
		    !p[n] || lab < 0 || lab >= REGISTRY_MAX_LABS || points < 0 || !valid_where(where)) {
			snprintf(err, errlen, "%s:%d: expected 'ID LAB POINTS WHERE WHAT' (lab 0..%d, "
				 "points >= 0, WHERE suite, suite-own or labN), got '%s'",
				 path, lineno, REGISTRY_MAX_LABS - 1, p);
			goto bad;
		}
		if (strncmp(id, "lab", 3) || id[3] - '0' != lab || id[4] != '.') {
			snprintf(err, errlen, "%s:%d: the id %s does not start with lab%d.", path,
				 lineno, id, lab);
			goto bad;
		}
		for (i = 0; i < nr; i++)
			if (!strcmp(tests[i].id, id)) {
				snprintf(err, errlen, "%s:%d: test %s is declared twice", path,
					 lineno, id);
				goto bad;
			}
		if (nr == max) {
			snprintf(err, errlen, "too many tests in the table");
			goto bad;
		}
		if (strlen(p + n) >= sizeof(tests[nr].what)) {
			snprintf(err, errlen, "%s:%d: the WHAT of %s is %zu characters, at most %zu: say it shorter",
				 path, lineno, id, strlen(p + n), sizeof(tests[nr].what) - 1);
			goto bad;
		}
		snprintf(tests[nr].id, sizeof(tests[nr].id), "%s", id);
		tests[nr].lab = lab;
		tests[nr].points = points;
		snprintf(tests[nr].where, sizeof(tests[nr].where), "%s", where);
		snprintf(tests[nr].what, sizeof(tests[nr].what), "%s", p + n);
		nr++;
	}
	fclose(f);
	if (!nr) {
		snprintf(err, errlen, "the test table declares no test: %s", path);
		return -1;
	}
	return nr;
bad:
	fclose(f);
	return -1;
}

int registry_where_ids(const char *table, const char *where, const char **ids, int max, char *err,
		       size_t errlen)
{
	static struct reg_test tests[REGISTRY_MAX_TESTS];
	int nr, i, n = 0;

	nr = registry_read(registry_path(table), tests, REGISTRY_MAX_TESTS, err, errlen);
	for (i = 0; i < nr; i++) {
		if (strcmp(tests[i].where, where))
			continue;
		if (n == max) {
			snprintf(err, errlen, "more than %d tests run in %s", max, where);
			return -1;
		}
		ids[n++] = tests[i].id;
	}
	return nr < 0 ? -1 : n;
}

const char *registry_where(const struct reg_test *t)
{
	return strcmp(t->where, "suite-own") ? t->where : "suite";
}

const char *registry_path(const char *file)
{
	static char path[4096];
	const char *kit = getenv("KIT");

	if (file)
		return file;
	snprintf(path, sizeof(path), "%s/grading/tests.list", kit ? kit : ".");
	return path;
}
