/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lab 5: upstream's summary line (ops_report_final), as bench-read and
 * bench-judge read it:
 *   Summary: throughput T ± S M ops/s (P M ops/prod), latency L ns/op
 */
#ifndef LAB5_SUMMARY_H
#define LAB5_SUMMARY_H

#include <math.h>
#include <stdio.h>

struct summary {
	double tput, sd, per_prod, latency;
	int found;
};

/* 0 when LINE is the summary in upstream's format ("±" is UTF-8). */
static inline int parse_summary(const char *line, struct summary *s)
{
	int end = -1;

	if (sscanf(line, "Summary: throughput %lf \xc2\xb1 %lf M ops/s (%lfM ops/prod), latency %lf ns/op%n",
		   &s->tput, &s->sd, &s->per_prod, &s->latency, &end) != 4 || end < 0)
		return -1;
	while (line[end] == ' ' || line[end] == '\r' || line[end] == '\n')
		end++;
	return line[end] ? -1 : 0;
}

/* 0 when the summary S was found (BAD: the Summary line that did not
 * parse, or "") and its numbers are positive and agree with each other
 * (L is 1000 / P within 1 %); else the reason in WHY. */
static inline int check_summary(const struct summary *s, const char *bad, char *why, size_t len)
{
	if (!s->found) {
		if (bad[0])
			snprintf(why, len, "the summary line is not in upstream's format (ops_report_final): '%.200s'",
				 bad);
		else
			snprintf(why, len, "no summary line ('Summary: throughput ... latency ... ns/op'): does report_final print it?");
		return 1;
	}
	if (!(s->tput > 0) || !(s->per_prod > 0) || !isfinite(s->latency) || !(s->latency > 0)) {
		snprintf(why, len, "the summary's numbers are not positive: throughput %g, latency %g",
			 s->tput, s->latency);
		return 1;
	}
	if (fabs(s->latency * s->per_prod / 1000.0 - 1) > 0.01 + 0.0005 / s->per_prod / s->latency * 1000) {
		snprintf(why, len, "the summary disagrees with itself: latency %.3f ns/op is not 1000 / %.3f M ops/prod",
			 s->latency, s->per_prod);
		return 1;
	}
	return 0;
}

#endif
