// SPDX-License-Identifier: GPL-2.0
/*
 * helper-ids: list the BPF helper IDs a UAPI bpf.h defines, or compare two.
 *
 * In 6.1 a helper's ID is its position in __BPF_FUNC_MAPPER(FN): FN(unspec)
 * is 0, the next entry 1, and so on. IDs are ABI, so no change the labs make
 * may move one.
 *
 *   helper-ids BPF_H              print "ID NAME" per helper
 *   helper-ids OLD_H NEW_H [ID:NAME ...]
 *                                 compare: every ID must carry the same name
 *                                 in both, except the listed ID:NAME pairs,
 *                                 which must carry NAME in NEW_H
 * Exit status: 0 same (or printed), 1 differ (each difference on stderr),
 * 2 usage, I/O or parse error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HELPERS 1024

struct helpers {
	char names[MAX_HELPERS][64];
	int count;
};

static int parse(const char *path, struct helpers *h)
{
	char line[512];
	int in_mapper = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "helper-ids: %s: %s\n", path, strerror(errno));
		return -1;
	}
	h->count = 0;
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (!in_mapper) {
			in_mapper = !strncmp(line, "#define __BPF_FUNC_MAPPER(FN)", 29);
			continue;
		}
		p = strstr(line, "FN(");
		if (!p)
			break;	/* the macro's end */
		if (h->count == MAX_HELPERS ||
		    sscanf(p + 3, "%63[A-Za-z0-9_]", h->names[h->count]) != 1)
			break;
		h->count++;
		if (!strchr(line, '\\'))
			break;
	}
	fclose(f);
	if (!h->count) {
		fprintf(stderr, "helper-ids: %s: no __BPF_FUNC_MAPPER(FN) list found\n", path);
		return -1;
	}
	return 0;
}

static struct helpers a, b;

int main(int argc, char **argv)
{
	int i, differ = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s BPF_H | OLD_H NEW_H [ID:NAME ...]\n", argv[0]);
		return 2;
	}
	if (parse(argv[1], &a))
		return 2;
	if (argc == 2) {
		for (i = 0; i < a.count; i++)
			printf("%d %s\n", i, a.names[i]);
		return 0;
	}
	if (parse(argv[2], &b))
		return 2;
	if (a.count != b.count) {
		fprintf(stderr, "helper-ids: %s has %d helper IDs, %s has %d\n",
			argv[1], a.count, argv[2], b.count);
		differ = 1;
	}
	for (i = 0; i < a.count && i < b.count; i++) {
		const char *want = a.names[i];
		int k;

		for (k = 3; k < argc; k++) {
			char *colon = strchr(argv[k], ':');

			if (colon && atoi(argv[k]) == i)
				want = colon + 1;
		}
		if (strcmp(want, b.names[i])) {
			fprintf(stderr, "helper-ids: ID %d is %s in %s, expected %s\n",
				i, b.names[i], argv[2], want);
			differ = 1;
		}
	}
	if (!differ)
		printf("helper-ids: all %d IDs in place\n", b.count);
	return differ;
}
