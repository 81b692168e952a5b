// SPDX-License-Identifier: GPL-2.0
/* Shared by the kit's programs that run in the lab guest. */
#include <stdio.h>
#include <string.h>

#include "guest.h"

bool in_lab_guest(void)
{
	char line[4096] = "";
	FILE *f = fopen("/proc/cmdline", "r");
	bool yes;

	if (!f)
		return false;
	yes = fgets(line, sizeof(line), f) && strstr(line, "bpfloop.guest");
	fclose(f);
	return yes;
}

bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		bool start = p == list || p[-1] == ',';
		bool end = p[n] == '\0' || p[n] == ',';

		if (start && end)
			return true;
		p += n;
	}
	return false;
}
