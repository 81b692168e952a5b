// SPDX-License-Identifier: GPL-2.0
/*
 * vm-watch: run QEMU under watch, so that no guest can hang or flood the kit.
 *
 * Usage: vm-watch [options] -- COMMAND [ARGS...]
 *   --console FILE        the file QEMU writes the guest console to
 *   --cap BYTES           kill the guest when the console passes this size
 *   --marker TEXT         the line /init prints once user space runs
 *   --boot-timeout SECS   kill the guest when TEXT has not appeared by then
 *   --timeout SECS        kill the guest when it runs longer than this
 *   --idle FILE SECS      kill the guest when FILE (the result channel) has
 *                         not grown for SECS, counted from user space's
 *                         start: a test that hangs (verdict timeout)
 *   --channel-cap FILE BYTES
 *                         kill the guest when FILE (the result channel)
 *                         passes BYTES (verdict flood)
 *   --verdict FILE        write the verdict here (one line: word and reason)
 *
 * COMMAND runs in a process group of its own; on any verdict but "exited"
 * the whole group is killed, and so it is when vm-watch itself gets
 * SIGINT, SIGTERM or SIGHUP; and when vm-watch dies of any signal, even
 * SIGKILL, the kernel kills COMMAND (PR_SET_PDEATHSIG). Nothing is left
 * running.
 *
 * Verdicts (first word of the verdict file), and exit status:
 *   exited N       QEMU ended by itself with status N        0
 *                  (with the time the marker appeared, if it did)
 *   killed N       QEMU died of signal N that vm-watch did   7
 *                  not send (the OOM killer, a kill from
 *                  outside, or QEMU's own crash)
 *   boot-timeout   the marker did not appear in time         3
 *   timeout        the guest ran past --timeout              4
 *   flood          the console passed --cap bytes, or the    5
 *                  result channel --channel-cap
 *   interrupted    vm-watch was told to stop                 6
 *   error          COMMAND could not be started              2
 * A flooded console is cut back to --cap bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_verdict(const char *path, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(stderr, "vm-watch: %s\n", buf);
	if (!path)
		return;
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", buf);
	fclose(f);
}

/* Scan the console from *offset for the marker; keeps a tail for matches
 * that straddle two reads. Returns 1 once found. */
static int scan_marker(const char *console, const char *marker, off_t *offset,
		       char *tail, size_t tail_size)
{
	char buf[8192 + 256];
	size_t keep = strlen(tail);
	ssize_t n;
	int fd, found = 0;

	fd = open(console, O_RDONLY);
	if (fd < 0)
		return 0;
	if (lseek(fd, *offset, SEEK_SET) < 0) {
		close(fd);
		return 0;
	}
	while (!found && (n = read(fd, buf + keep, sizeof(buf) - keep - 1)) > 0) {
		size_t len = keep + (size_t)n, i;

		memcpy(buf, tail, keep);
		buf[len] = '\0';
		/* NUL bytes would hide the marker from strstr. */
		for (i = 0; i < len; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		if (strstr(buf, marker))
			found = 1;
		*offset += n;
		keep = len < tail_size - 1 ? len : tail_size - 1;
		memcpy(tail, buf + len - keep, keep);
		tail[keep] = '\0';
	}
	close(fd);
	return found;
}

static void kill_group(pid_t pid)
{
	int i;

	kill(-pid, SIGTERM);
	for (i = 0; i < 20; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			goto reap;
		usleep(50000);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
reap:
	/* Anything else left in the group. */
	kill(-pid, SIGKILL);
}

int main(int argc, char **argv)
{
	const char *console = NULL, *marker = NULL, *verdict = NULL, *idle_file = NULL;
	const char *channel = NULL;
	long long channel_cap = 0;
	double boot_timeout = 0, timeout = 0, idle = 0, start, marker_at = -1, grew_at = 0;
	long long idle_size = -1;
	long long cap = 0;
	int marker_seen = 0, i, status;
	off_t scanned = 0;
	char tail[256] = "";
	struct sigaction sa;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--") && i + 1 < argc) {
			i++;
			break;
		}
		if (i + 1 >= argc)
			goto usage;
		if (!strcmp(argv[i], "--console"))
			console = argv[++i];
		else if (!strcmp(argv[i], "--cap"))
			cap = atoll(argv[++i]);
		else if (!strcmp(argv[i], "--marker"))
			marker = argv[++i];
		else if (!strcmp(argv[i], "--boot-timeout"))
			boot_timeout = atof(argv[++i]);
		else if (!strcmp(argv[i], "--timeout"))
			timeout = atof(argv[++i]);
		else if (!strcmp(argv[i], "--verdict"))
			verdict = argv[++i];
		else if (!strcmp(argv[i], "--idle") && i + 2 < argc) {
			idle_file = argv[++i];
			idle = atof(argv[++i]);
		} else if (!strcmp(argv[i], "--channel-cap") && i + 2 < argc) {
			channel = argv[++i];
			channel_cap = atoll(argv[++i]);
		}
		else
			goto usage;
	}
	if (i >= argc || (cap && !console) || (marker && !console))
		goto usage;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	start = now();
	pid = fork();
	if (pid < 0) {
		write_verdict(verdict, "error fork: %s", strerror(errno));
		return 2;
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* Dies with vm-watch, however vm-watch dies. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[i], argv + i);
		fprintf(stderr, "vm-watch: cannot run %s: %s\n", argv[i], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);

	for (;;) {
		struct stat st;
		pid_t done = waitpid(pid, &status, WNOHANG);
		double t = now() - start;

		if (done == pid) {
			int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

			kill(-pid, SIGKILL);
			if (code == 127 && t < 1) {
				write_verdict(verdict, "error the VM command could not be started");
				return 2;
			}
			if (marker && !marker_seen &&
			    scan_marker(console, marker, &scanned, tail, sizeof(tail)))
				marker_at = t;
			if (WIFSIGNALED(status)) {
				write_verdict(verdict, "killed %d after %.1f s: QEMU died of signal %d, which vm-watch did not send",
					      WTERMSIG(status), t, WTERMSIG(status));
				return 7;
			}
			if (marker_at >= 0)
				write_verdict(verdict, "exited %d after %.1f s (user space at %.1f s)",
					      code, t, marker_at);
			else
				write_verdict(verdict, "exited %d after %.1f s", code, t);
			return 0;
		}
		if (stop_signal) {
			kill_group(pid);
			write_verdict(verdict, "interrupted by signal %d after %.1f s", (int)stop_signal, t);
			return 6;
		}
		if (cap && console && stat(console, &st) == 0 && st.st_size > cap) {
			kill_group(pid);
			if (truncate(console, cap) != 0)
				perror("vm-watch: truncate");
			write_verdict(verdict, "flood the console passed %lld bytes after %.1f s; the guest was stopped",
				      cap, t);
			return 5;
		}
		if (channel && channel_cap > 0 && stat(channel, &st) == 0 && st.st_size > channel_cap) {
			kill_group(pid);
			if (truncate(channel, channel_cap) != 0)
				perror("vm-watch: truncate");
			write_verdict(verdict, "flood the result channel passed %lld bytes after %.1f s; "
				      "the guest was stopped", channel_cap, t);
			return 5;
		}
		if (marker && !marker_seen) {
			marker_seen = scan_marker(console, marker, &scanned, tail, sizeof(tail));
			if (marker_seen)
				marker_at = t;
		}
		if (marker && !marker_seen && boot_timeout > 0 && t > boot_timeout) {
			kill_group(pid);
			write_verdict(verdict, "boot-timeout user space did not start within %.0f s", boot_timeout);
			return 3;
		}
		if (idle_file && idle > 0 && (!marker || marker_seen)) {
			long long size = stat(idle_file, &st) == 0 ? (long long)st.st_size : 0;

			if (size != idle_size) {
				idle_size = size;
				grew_at = t;
			} else if (t - grew_at > idle) {
				kill_group(pid);
				write_verdict(verdict, "timeout no result for %.0f s: a test hangs; the guest was stopped",
					      idle);
				return 4;
			}
		}
		if (timeout > 0 && t > timeout) {
			kill_group(pid);
			write_verdict(verdict, "timeout the guest ran past %.0f s and was stopped", timeout);
			return 4;
		}
		usleep(20000);
	}

usage:
	fprintf(stderr,
		"usage: vm-watch [--console FILE] [--cap BYTES] [--marker TEXT]\n"
		"                [--boot-timeout SECS] [--timeout SECS] [--idle FILE SECS]\n"
		"                [--channel-cap FILE BYTES]\n"
		"                [--verdict FILE]\n"
		"                -- COMMAND [ARGS...]\n");
	return 2;
}
