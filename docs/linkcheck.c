// SPDX-License-Identifier: GPL-2.0
/*
 * linkcheck: the internal links of a static HTML site resolve.
 *
 * For each href= and src= of the given pages that is not an external URL
 * (one with a scheme such as https: or mailto:, or starting with //):
 *   - the file it names, relative to the page's folder, exists (a folder
 *     will do);
 *   - a #fragment names the id= of an element of the target page (or of
 *     the page itself for "#frag"). A fragment into a file that is not
 *     HTML (a repository's .md source) is not checked.
 * A page must also load nothing from outside the site: an external URL in
 * src= or in a <link> href (a stylesheet or font from a CDN) is reported.
 * Absolute paths ("/x") are reported too: they break when the site moves.
 *
 * With --inert (the class report's pages, which quote what students
 * wrote), a page must also run nothing and load nothing from elsewhere
 * whatever made it: any <script>, <iframe>, <frame>, <object>, <embed>,
 * <applet>, <base>, <form> or refreshing <meta>, any on...= event handler
 * attribute, any javascript:, vbscript: or data: URL, any style= with
 * url(, expression( or @import, and any external srcset=, poster=,
 * background= or data= is reported as broken. --inert-only checks that
 * alone, not whether the links resolve (a page checked before the rest of
 * its site is written).
 *
 * Usage: linkcheck [--inert | --inert-only] PAGE.html...
 * Prints one line per broken link, "PAGE: HREF: why", then
 * "N links in M pages, K broken".
 * Exit status: 0 every link resolves, 1 some do not, 2 usage or I/O error.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The ids of one page, loaded once per file whatever links to it. */
struct page {
	char *path;		/* realpath() of the file */
	char **ids;
	int nr_ids, cap_ids;
	struct page *next;
};

static struct page *pages;
static int io_error;

static char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p) {
		perror("linkcheck");
		exit(2);
	}
	return p;
}

static char *read_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	do {
		if (cap - len < 65536) {
			cap = cap ? 2 * cap : 131072;
			buf = realloc(buf, cap + 1);
			if (!buf) {
				perror("linkcheck");
				exit(2);
			}
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* HTML character references in an attribute value, in place. */
static void decode_entities(char *s)
{
	static const struct { const char *name; char c; } named[] = {
		{ "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' },
		{ "quot;", '"' }, { "apos;", '\'' }, { NULL, 0 },
	};
	char *in = s, *out = s;
	int i;

	while (*in) {
		if (*in != '&') {
			*out++ = *in++;
			continue;
		}
		for (i = 0; named[i].name; i++)
			if (!strncmp(in + 1, named[i].name, strlen(named[i].name)))
				break;
		if (named[i].name) {
			*out++ = named[i].c;
			in += 1 + strlen(named[i].name);
		} else if (in[1] == '#') {
			char *end;
			long c = in[2] == 'x' || in[2] == 'X' ?
				strtol(in + 3, &end, 16) : strtol(in + 2, &end, 10);

			/* Only ASCII matters for paths and the ids pandoc makes. */
			if (*end == ';' && c > 0 && c < 128) {
				*out++ = (char)c;
				in = end + 1;
			} else {
				*out++ = *in++;
			}
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* %XX escapes of a URL part, in place. */
static void decode_percent(char *s)
{
	char *in = s, *out = s;

	while (*in) {
		if (in[0] == '%' && hexval(in[1]) >= 0 && hexval(in[2]) >= 0) {
			*out++ = (char)(hexval(in[1]) * 16 + hexval(in[2]));
			in += 3;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
}

/*
 * Calls fn(tag, attribute, value, arg) for every attribute of every tag of
 * html, values decoded, and fn(tag, "", "", arg) for the tag itself first.
 * Comments are skipped, and so is the text of <script> and <style>, which
 * may hold a '<' that starts no tag.
 */
typedef void attr_fn(const char *tag, const char *name, char *value, void *arg);

static void each_attribute(const char *html, attr_fn *fn, void *arg)
{
	const char *p = html;
	char tag[16];

	while ((p = strchr(p, '<'))) {
		size_t n;

		if (!strncmp(p, "<!--", 4)) {
			p = strstr(p + 4, "-->");
			if (!p)
				return;
			continue;
		}
		p++;
		if (*p == '/' || *p == '!' || *p == '?')
			continue;
		n = strcspn(p, " \t\r\n/>");
		snprintf(tag, sizeof(tag), "%.*s", (int)n, p);
		p += n;
		{
			char none[1] = "";

			fn(tag, "", none, arg);
		}
		for (;;) {
			const char *name;
			size_t nlen;
			char *value;

			p += strspn(p, " \t\r\n/");
			if (!*p || *p == '>')
				break;
			name = p;
			nlen = strcspn(p, " \t\r\n/>=");
			p += nlen;
			if (*p != '=') {
				if (!nlen)
					p++;	/* stray character: step over it */
				continue;
			}
			p++;
			if (*p == '"' || *p == '\'') {
				const char *end = strchr(p + 1, *p);

				if (!end)
					return;
				value = xstrndup(p + 1, end - p - 1);
				p = end + 1;
			} else {
				size_t vlen = strcspn(p, " \t\r\n>");

				value = xstrndup(p, vlen);
				p += vlen;
			}
			decode_entities(value);
			{
				char aname[32];

				snprintf(aname, sizeof(aname), "%.*s", (int)nlen, name);
				fn(tag, aname, value, arg);
			}
			free(value);
		}
		if (!strcasecmp(tag, "script") || !strcasecmp(tag, "style")) {
			char end[24];
			const char *q;

			snprintf(end, sizeof(end), "</%s", tag);
			q = strstr(p, end);
			if (!q)
				return;
			p = q;
		}
	}
}

static void add_id(const char *tag, const char *name, char *value, void *arg)
{
	struct page *pg = arg;

	if (strcmp(name, "id") && !(strcmp(tag, "a") == 0 && strcmp(name, "name") == 0))
		return;
	if (pg->nr_ids == pg->cap_ids) {
		pg->cap_ids = pg->cap_ids ? 2 * pg->cap_ids : 64;
		pg->ids = realloc(pg->ids, pg->cap_ids * sizeof(*pg->ids));
		if (!pg->ids) {
			perror("linkcheck");
			exit(2);
		}
	}
	pg->ids[pg->nr_ids++] = xstrndup(value, strlen(value));
}

/* The page at path (an existing file), its ids read on first use. */
static struct page *load_page(const char *path)
{
	char real[PATH_MAX];
	struct page *pg;
	char *html;

	if (!realpath(path, real))
		return NULL;
	for (pg = pages; pg; pg = pg->next)
		if (!strcmp(pg->path, real))
			return pg;
	html = read_file(real);
	if (!html) {
		fprintf(stderr, "linkcheck: %s: %s\n", path, strerror(errno));
		io_error = 1;
		return NULL;
	}
	pg = calloc(1, sizeof(*pg));
	if (!pg) {
		perror("linkcheck");
		exit(2);
	}
	pg->path = xstrndup(real, strlen(real));
	each_attribute(html, add_id, pg);
	free(html);
	pg->next = pages;
	pages = pg;
	return pg;
}

static int has_id(const struct page *pg, const char *id)
{
	int i;

	for (i = 0; i < pg->nr_ids; i++)
		if (!strcmp(pg->ids[i], id))
			return 1;
	return 0;
}

static int is_external(const char *url)
{
	const char *p = url;

	if (!strncmp(url, "//", 2))
		return 1;
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	p += strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
	return *p == ':';
}

static int is_html(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"));
}

struct scan {
	const char *page;	/* as given on the command line */
	const char *dir;	/* its folder, with a trailing '/' or empty */
	int links, broken;
};

static void broken(struct scan *s, const char *url, const char *why, const char *what)
{
	printf("%s: %s: %s%s\n", s->page, url, why, what ? what : "");
	s->broken++;
}

static void check_link(const char *tag, const char *name, char *value, void *arg)
{
	struct scan *s = arg;
	char *url, *frag, *query, *target;
	struct stat st;
	struct page *pg;

	if (strcmp(name, "href") && strcmp(name, "src"))
		return;
	s->links++;
	if (is_external(value)) {
		if (!strcmp(name, "src") || !strcmp(tag, "link"))
			broken(s, value, "loads an external resource: the site must work offline", NULL);
		return;
	}
	url = xstrndup(value, strlen(value));
	frag = strchr(url, '#');
	if (frag)
		*frag++ = '\0';
	query = strchr(url, '?');
	if (query)
		*query = '\0';
	decode_percent(url);
	if (frag)
		decode_percent(frag);
	if (url[0] == '/') {
		broken(s, value, "an absolute path: it breaks when the site moves", NULL);
		free(url);
		return;
	}
	if (url[0]) {
		target = malloc(strlen(s->dir) + strlen(url) + 1);
		if (!target) {
			perror("linkcheck");
			exit(2);
		}
		strcpy(target, s->dir);
		strcat(target, url);
	} else {
		target = xstrndup(s->page, strlen(s->page));
	}
	if (stat(target, &st)) {
		broken(s, value, "no such file: ", target);
	} else if (frag && *frag && S_ISREG(st.st_mode) && is_html(target)) {
		pg = load_page(target);
		if (pg && !has_id(pg, frag)) {
			char what[PATH_MAX + 64];

			snprintf(what, sizeof(what), "\"%s\" in %s", frag, target);
			broken(s, value, "no element with the id ", what);
		}
	}
	free(target);
	free(url);
}

/* 0: links only; 1: links, and the page is inert; 2: inert only. */
static int inert_mode;

/* A URL with every ASCII space and control character taken out, as a
 * browser reads it ("java\tscript:" is javascript:), in lower case. */
static void url_scheme(const char *value, char *out, size_t size)
{
	size_t n = 0;

	for (; *value && n + 1 < size; value++)
		if ((unsigned char)*value > 0x20 && *value != 0x7f)
			out[n++] = (char)(*value >= 'A' && *value <= 'Z' ? *value - 'A' + 'a' : *value);
	out[n] = '\0';
}

static int contains_ci(const char *s, const char *needle)
{
	size_t n = strlen(needle);

	for (; *s; s++)
		if (!strncasecmp(s, needle, n))
			return 1;
	return 0;
}

static void check_inert(const char *tag, const char *name, char *value, void *arg)
{
	static const char *const active[] = {
		"script", "iframe", "frame", "object", "embed", "applet", "base", "form", NULL,
	};
	static const char *const loads[] = { "srcset", "poster", "background", "data", NULL };
	struct scan *s = arg;
	char url[64];
	int i;

	if (!name[0]) {
		for (i = 0; active[i]; i++)
			if (!strcasecmp(tag, active[i]))
				broken(s, tag, "active content: a page that quotes students runs nothing", NULL);
		return;
	}
	if (!strncasecmp(name, "on", 2)) {
		broken(s, name, "an event handler attribute: a page that quotes students runs nothing", NULL);
		return;
	}
	if (!strcasecmp(tag, "meta") && !strcasecmp(name, "http-equiv") && contains_ci(value, "refresh")) {
		broken(s, value, "a refreshing <meta>: it loads another page", NULL);
		return;
	}
	if (!strcasecmp(name, "style")) {
		if (contains_ci(value, "url(") || contains_ci(value, "expression(") ||
		    contains_ci(value, "@import"))
			broken(s, value, "a style that loads or runs something", NULL);
		return;
	}
	url_scheme(value, url, sizeof(url));
	if (!strncmp(url, "javascript:", 11) || !strncmp(url, "vbscript:", 9) ||
	    !strncmp(url, "data:", 5)) {
		broken(s, value, "a script or data URL: a page that quotes students runs nothing", NULL);
		return;
	}
	for (i = 0; loads[i]; i++)
		if (!strcasecmp(name, loads[i]) && (contains_ci(value, "//") || is_external(value)))
			broken(s, value, "loads an external resource: the site must work offline", NULL);
	/* check_link says this of src= and <link href=> when it runs. */
	if (inert_mode == 2 && is_external(value) &&
	    (!strcmp(name, "src") || (!strcmp(name, "href") && !strcmp(tag, "link"))))
		broken(s, value, "loads an external resource: the site must work offline", NULL);
}

static void check_page(const char *tag, const char *name, char *value, void *arg)
{
	if (inert_mode)
		check_inert(tag, name, value, arg);
	if (inert_mode != 2)
		check_link(tag, name, value, arg);
}

int main(int argc, char **argv)
{
	int i, links = 0, nr_broken = 0, first = 1;

	if (argc > 1 && !strcmp(argv[1], "--inert"))
		inert_mode = 1, first = 2;
	else if (argc > 1 && !strcmp(argv[1], "--inert-only"))
		inert_mode = 2, first = 2;
	if (argc <= first) {
		fprintf(stderr, "usage: %s [--inert | --inert-only] PAGE.html...\n", argv[0]);
		return 2;
	}
	for (i = first; i < argc; i++) {
		struct scan s = { .page = argv[i] };
		const char *slash = strrchr(argv[i], '/');
		char *html = read_file(argv[i]);

		if (!html) {
			fprintf(stderr, "linkcheck: %s: %s\n", argv[i], strerror(errno));
			io_error = 1;
			continue;
		}
		s.dir = slash ? xstrndup(argv[i], slash - argv[i] + 1) : "";
		each_attribute(html, check_page, &s);
		links += s.links;
		nr_broken += s.broken;
		if (slash)
			free((char *)s.dir);
		free(html);
	}
	printf("%d links in %d pages, %d broken\n", links, argc - first, nr_broken);
	if (io_error)
		return 2;
	return nr_broken ? 1 : 0;
}
