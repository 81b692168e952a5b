// SPDX-License-Identifier: GPL-2.0
/*
 * reap: no process of a grading run outlives it.
 *
 * A run (make grade, make check) marks itself with KIT_RUN=TOKEN in its
 * environment, a random token of its own; every process it starts
 * inherits it (workers, builds and their sandboxes' bwrap, QEMU and its
 * watcher), whatever process group or session it ends up in.
 *
 *   reap sweep TOKEN      SIGKILL every process of this user whose
 *                         environment holds KIT_RUN=TOKEN (not reap
 *                         itself), again until none is left; prints how
 *                         many were killed
 *   reap guard TOKEN PID  leave a guard in a session of its own, which
 *                         waits for PID (the run) to end, however it ends
 *                         (SIGKILL to the run's whole process group
 *                         included), then sweeps TOKEN; returns at once
 *
 * A run that starts where a stopped run was (the same OUT) sweeps the
 * stopped run's token too, in case its guard was killed with it.
 * Exit status: 0 done, 1 the processes could not all be killed within
 * 10 s (sweep), 2 usage.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* Does process PID's environment hold exactly the string WANT? */
static int marked(pid_t pid, const char *want)
{
	static char buf[1 << 20];
	char path[64];
	size_t len = strlen(want), off = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	while (off < sizeof(buf) - 1 && (n = read(fd, buf + off, sizeof(buf) - 1 - off)) > 0)
		off += (size_t)n;
	close(fd);
	buf[off] = '\0';
	for (size_t i = 0; i < off; i += strlen(buf + i) + 1)
		if (strlen(buf + i) == len && !memcmp(buf + i, want, len))
			return 1;
	return 0;
}

/* One pass: stop, then kill, every marked process. Returns how many. */
static int sweep_once(const char *want)
{
	pid_t self = getpid(), found[4096];
	int nr = 0, i;
	struct dirent *e;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((e = readdir(d)) && nr < (int)(sizeof(found) / sizeof(found[0]))) {
		pid_t pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = (pid_t)atoi(e->d_name);
		if (pid == self || pid == 1 || !marked(pid, want))
			continue;
		/* Frozen first, so that none forks while the others die. */
		if (kill(pid, SIGSTOP) == 0)
			found[nr++] = pid;
	}
	closedir(d);
	for (i = 0; i < nr; i++)
		kill(found[i], SIGKILL);
	return nr;
}

static int sweep(const char *token, int quiet)
{
	char want[256];
	int total = 0, n, round;

	if (snprintf(want, sizeof(want), "KIT_RUN=%s", token) >= (int)sizeof(want))
		return 2;
	for (round = 0; round < 100; round++) {
		n = sweep_once(want);
		total += n;
		if (!n)
			break;
		usleep(100000);
	}
	if (!quiet)
		printf("%d\n", total);
	return round < 100 ? 0 : 1;
}

static int pid_alive(pid_t pid)
{
	return kill(pid, 0) == 0 || errno == EPERM;
}

/* The guard's wait: until PID ends, then the sweep. */
static int guard_wait(const char *token, pid_t pid)
{
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);

	if (pidfd >= 0) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };

		while (poll(&p, 1, -1) < 0 && errno == EINTR)
			;
	} else {
		while (pid_alive(pid))
			usleep(200000);
	}
	return sweep(token, 1);
}

static int guard(const char *token, pid_t pid)
{
	extern char **environ;
	char *env[512], pidbuf[32];
	pid_t child = fork();
	int fd, n = 0;

	if (child < 0)
		return 1;
	if (child > 0)
		return 0;
	/* The guard: a session of its own, so that a signal to the run's
	 * process group or session does not reach it; nothing of the
	 * caller's held open. */
	setsid();
	if (fork() > 0)
		_exit(0);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	if (chdir("/"))
		_exit(1);
	/* The guard is no part of the run it guards: it starts again with
	 * an environment without the run's mark (/proc/PID/environ shows a
	 * process's first environment, whatever it unsets later). */
	for (char **e = environ; *e && n < 510; e++)
		if (strncmp(*e, "KIT_RUN=", 8))
			env[n++] = *e;
	env[n] = NULL;
	snprintf(pidbuf, sizeof(pidbuf), "%d", (int)pid);
	execve("/proc/self/exe", (char *[]){ "reap", "wait", (char *)token, pidbuf, NULL }, env);
	_exit(guard_wait(token, pid));
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "sweep") && argv[2][0])
		return sweep(argv[2], 0);
	if (argc == 4 && !strcmp(argv[1], "guard") && argv[2][0] && atoi(argv[3]) > 1)
		return guard(argv[2], (pid_t)atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "wait") && argv[2][0] && atoi(argv[3]) > 1)
		return guard_wait(argv[2], (pid_t)atoi(argv[3]));
	fprintf(stderr, "usage: reap sweep TOKEN | reap guard TOKEN PID\n");
	return 2;
}
