// SPDX-License-Identifier: GPL-2.0
/*
 * The suite's framework, the same in the guest and in the host's judge:
 * parameters from the seed, observations, checks and diagnostics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

int ktap_indent;
/* Where diagnostics go: the KTAP output in the guest; the judge on the
 * host keeps them to itself (NULL) unless asked. */
FILE *diag_out;

static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	/* A separator, so that ("ab", "c") and ("a", "bc") differ. */
	h ^= 0xff;
	return h * 0x100000001b3ull;
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint64_t param(const struct test_ctx *ctx, const char *name, uint64_t lo, uint64_t hi)
{
	uint64_t h = fnv1a(fnv1a(0xcbf29ce484222325ull, ctx->id), name);
	uint64_t span = hi - lo + 1;

	h = mix(h ^ mix(ctx->seed));
	return span ? lo + h % span : h;
}

static bool valid_name(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n < OBS_NAME &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_.") == n;
}

static struct observation *find(const struct test_ctx *ctx, const char *name)
{
	int i;

	for (i = 0; i < ctx->nr_obs; i++)
		if (!strcmp(ctx->obs[i].name, name))
			return (struct observation *)&ctx->obs[i];
	return NULL;
}

/* Record one observation; false when it cannot be (a bad name, a name
 * twice, too many): the judge on the host treats that as tampering. */
bool obs_add(struct test_ctx *ctx, const char *name, long long value)
{
	struct observation *o;

	if (!valid_name(name) || find(ctx, name) || ctx->nr_obs == MAX_OBS) {
		ctx->obs_trouble = true;
		return false;
	}
	o = &ctx->obs[ctx->nr_obs++];
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->value = value;
	return true;
}

void observe(struct test_ctx *ctx, long long value, const char *fmt, ...)
{
	char name[OBS_NAME + 16];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (obs_add(ctx, name, value) && diag_out) {
		fprintf(diag_out, "%*s# obs %s=%lld\n", ktap_indent, "", name, value);
		fflush(diag_out);
	}
}

bool has_seen(const struct test_ctx *ctx, const char *name)
{
	return find(ctx, name) != NULL;
}

long long seen(struct test_ctx *ctx, const char *fmt, ...)
{
	char name[OBS_NAME + 16];
	struct observation *o;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	o = find(ctx, name);
	if (o)
		return o->value;
	check_failed(ctx, __FILE__, __LINE__, "no observation '%s' was reported", name);
	return OBS_MISSING;
}

void diag(const char *fmt, ...)
{
	char buf[1024], *line, *save = NULL;
	va_list ap;

	if (!diag_out)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		fprintf(diag_out, "%*s# %s\n", ktap_indent, "", line);
	fflush(diag_out);
}

void check_failed(struct test_ctx *ctx, const char *file, int line, const char *fmt, ...)
{
	char buf[sizeof(ctx->reason)];
	va_list ap;

	(void)file;
	(void)line;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (!ctx->failed)
		snprintf(ctx->reason, sizeof(ctx->reason), "%s", buf);
	ctx->failed = true;
	diag("%s", buf);
}

const char *errno_note(long long ret)
{
	switch (ret) {
	case -EINVAL:
		return " (-EINVAL)";
	case -E2BIG:
		return " (-E2BIG)";
	case -EACCES:
		return " (-EACCES)";
	case -EPERM:
		return " (-EPERM)";
	case -ENOENT:
		return " (-ENOENT)";
	default:
		return "";
	}
}

const char *err_name(long long err)
{
	if (err == OBS_MISSING)
		return "not reported";
	return strerror(err < 0 ? (int)-err : (int)err);
}

static const struct refused refusals[] = {
#define EXPECT_REFUSED(prog, err, says) { prog, err, says },
#include "expect.h"
#undef EXPECT_REFUSED
	{ NULL, 0, NULL },
};

const struct refused *refused(const char *prog)
{
	const struct refused *r;

	for (r = refusals; r->prog; r++)
		if (!strcmp(r->prog, prog))
			return r;
	return NULL;
}
