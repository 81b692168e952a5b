// SPDX-License-Identifier: GPL-2.0
/*
 * config-check: verify that a kernel .config has every option a fragment
 * asks for. Kconfig drops an option silently when one of its dependencies
 * is missing; this names each one that did.
 *
 * Usage: config-check FRAGMENT DOTCONFIG
 * Exit status: 0 all present, 1 some dropped (listed on stderr), 2 usage or
 * I/O error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct option_line {
	char name[128];
	char value[256];	/* "n" for "# CONFIG_X is not set" */
};

/* Parse one line of a .config or fragment into name and value. */
static int parse_line(const char *line, struct option_line *opt)
{
	const char *eq;
	size_t n;

	if (sscanf(line, "# %127[A-Za-z0-9_] is not set", opt->name) == 1 &&
	    strncmp(opt->name, "CONFIG_", 7) == 0) {
		strcpy(opt->value, "n");
		return 1;
	}
	if (strncmp(line, "CONFIG_", 7) != 0)
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return 0;
	n = (size_t)(eq - line);
	if (n >= sizeof(opt->name))
		return 0;
	memcpy(opt->name, line, n);
	opt->name[n] = '\0';
	snprintf(opt->value, sizeof(opt->value), "%s", eq + 1);
	opt->value[strcspn(opt->value, "\r\n")] = '\0';
	return 1;
}

/* The value of NAME in the .config at PATH: "n" when absent or unset. */
static int lookup(FILE *config, const char *name, char *value, size_t size)
{
	char line[1024];
	struct option_line opt;

	rewind(config);
	snprintf(value, size, "n");
	while (fgets(line, sizeof(line), config)) {
		if (parse_line(line, &opt) && strcmp(opt.name, name) == 0) {
			snprintf(value, size, "%s", opt.value);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	FILE *fragment, *config;
	char line[1024], have[256];
	struct option_line want;
	int asked = 0, dropped = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FRAGMENT DOTCONFIG\n", argv[0]);
		return 2;
	}
	fragment = fopen(argv[1], "r");
	if (!fragment) {
		fprintf(stderr, "config-check: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	config = fopen(argv[2], "r");
	if (!config) {
		fprintf(stderr, "config-check: %s: %s\n", argv[2], strerror(errno));
		fclose(fragment);
		return 2;
	}
	while (fgets(line, sizeof(line), fragment)) {
		if (!parse_line(line, &want))
			continue;
		asked++;
		lookup(config, want.name, have, sizeof(have));
		if (strcmp(have, want.value) != 0) {
			fprintf(stderr, "config-check: %s=%s was asked for, the .config has %s\n",
				want.name, want.value,
				strcmp(have, "n") ? have : "it unset");
			dropped++;
		}
	}
	fclose(fragment);
	fclose(config);
	if (dropped) {
		fprintf(stderr,
			"config-check: %d of %d options did not take: a dependency is missing.\n"
			"  Look each one up with 'make menuconfig' (search with /) in the build\n"
			"  folder, add what it depends on to %s, and build again.\n",
			dropped, asked, argv[1]);
		return 1;
	}
	printf("config-check: all %d options of %s are set\n", asked, argv[1]);
	return 0;
}
