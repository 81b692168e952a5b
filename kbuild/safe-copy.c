// SPDX-License-Identifier: GPL-2.0
/*
 * safe-copy: copy a file that code the kit does not trust has made.
 *
 *   safe-copy ROOT PATH DEST MAX_BYTES
 *
 * Copies ROOT/PATH to DEST only if every component of PATH below ROOT is
 * a real folder and the last a regular file (no symbolic link anywhere on
 * the way: each is opened with O_NOFOLLOW from the one before), of at most
 * MAX_BYTES. A confined build may plant a link in its build folder to make
 * the host read or write something else; this is how the host takes
 * anything out of such a folder. DEST is written whole or not at all (a
 * temporary file renamed), and never through a link either.
 * Exit status: 0 copied, 1 refused (why on stderr), 2 usage or I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(const char *path, const char *why)
{
	fprintf(stderr, "safe-copy: %s: %s\n", path, why);
	return 1;
}

int main(int argc, char **argv)
{
	char *rel, *comp, *save = NULL, tmp[4200], buf[1 << 16];
	long long max, total = 0;
	int dir, fd, out;
	struct stat st;
	ssize_t n;

	if (argc != 5 || (max = atoll(argv[4])) <= 0) {
		fprintf(stderr, "usage: safe-copy ROOT PATH DEST MAX_BYTES\n");
		return 2;
	}
	dir = open(argv[1], O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (dir < 0)
		return refuse(argv[1], strerror(errno));
	rel = strdup(argv[2]);
	if (!rel || rel[0] == '/' || strstr(rel, ".."))
		return refuse(argv[2], "not a path below the root");
	comp = strtok_r(rel, "/", &save);
	for (;;) {
		char *next = strtok_r(NULL, "/", &save);

		if (!comp)
			return refuse(argv[2], "empty path");
		if (!next)
			break;
		fd = openat(dir, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (fd < 0)
			return refuse(argv[2], errno == ELOOP || errno == ENOTDIR ?
				      "a component is a link or not a folder" : strerror(errno));
		close(dir);
		dir = fd;
		comp = next;
	}
	fd = openat(dir, comp, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return refuse(argv[2], errno == ELOOP ? "a symbolic link" : strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return refuse(argv[2], "not a regular file");
	if (st.st_size > max)
		return refuse(argv[2], "larger than the limit");
	snprintf(tmp, sizeof(tmp), "%s.safe-copy.%d", argv[3], (int)getpid());
	out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
	if (out < 0) {
		fprintf(stderr, "safe-copy: %s: %s\n", tmp, strerror(errno));
		return 2;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		total += n;
		if (total > max) {
			unlink(tmp);
			return refuse(argv[2], "grew past the limit while it was read");
		}
		if (write(out, buf, n) != n) {
			fprintf(stderr, "safe-copy: %s: %s\n", tmp, strerror(errno));
			unlink(tmp);
			return 2;
		}
	}
	if (n < 0 || close(out) || rename(tmp, argv[3])) {
		fprintf(stderr, "safe-copy: %s: %s\n", argv[3], strerror(errno));
		unlink(tmp);
		return 2;
	}
	return 0;
}
