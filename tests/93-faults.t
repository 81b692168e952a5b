# A fault of the grading machine is never a student's verdict: each fault
# is made here as the machine makes it, without changing the host (a
# shadowed program first on PATH, a signal to the grader's own processes),
# and for each one:
#   - no student whose grading met the fault gets a verdict or points;
#   - the message names the cause and the fix;
#   - once the fault is lifted, the same command resumes, and the
#     gradebook equals the undisturbed one, byte for byte;
#   - no process of a killed run survives it.
# And a student's own fault stays the student's: a kernel that stops
# QEMU every time is graded as it is, because the control (the kit's base
# kernel) boots; a patch that does not apply and a compile error keep
# their verdicts.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/faults
rm -rf "$T"
mkdir -p "$T/bin"
G=$KIT/grading/instructor/grade
REAL_BWRAP=$(command -v bwrap)
REAL_QEMU=$(command -v qemu-system-x86_64)
REAL_GIT=$(command -v git)
BASE_IMAGE=$("$KIT/kbuild/kernel-build" --kept --ref base)
# The accelerator is chosen once per work folder (a trial boot): before
# any QEMU is shadowed.
"$KIT/lib/preflight" >/dev/null 2>"$T/preflight.log" || { fail "faults: the machine passes the preflight" "$(cat "$T/preflight.log")"; exit 0; }

# fake DIR NAME SCRIPT: DIR/NAME, a stand-in for a program, first on PATH.
fake() {
	mkdir -p "$1"
	printf '#!/bin/sh\n%s\n' "$3" >"$1/$2"
	chmod +x "$1/$2"
}
# A sandbox that cannot be made, as on Ubuntu 23.10+ or in a container.
fake "$T/no-sandbox" bwrap 'echo "bwrap: setting up uid map: Permission denied" >&2; exit 1'
# The same, only for the kernel builds (it starts mid-class: the
# preflight's own sandbox is made).
fake "$T/no-build-sandbox" bwrap "case \" \$* \" in *' /kbuild/build/linux '*) echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1 ;; esac
exec $REAL_BWRAP \"\$@\""
# QEMU without memory for a guest: every boot but the preflight's.
fake "$T/no-qemu" qemu-system-x86_64 "case \"\$*\" in *'/preflight/'*) exec $REAL_QEMU \"\$@\" ;; esac
echo \"qemu-system-x86_64: cannot set up guest memory 'pc.ram': Cannot allocate memory\" >&2; exit 1"
# QEMU that stops at once on any kernel but the kit's base kernel: what a
# student's kernel that kills QEMU early looks like; the control boots.
fake "$T/student-qemu" qemu-system-x86_64 "case \"\$*\" in *'/preflight/'* | *'-kernel $BASE_IMAGE '*) exec $REAL_QEMU \"\$@\" ;; esac
echo 'qemu-system-x86_64: the guest stopped QEMU' >&2; exit 1"
# A host tool that crashes: git, reading a patch's mail.
fake "$T/crashing-git" git "case \" \$* \" in *' mailinfo '*) kill -SEGV \$\$ ;; esac
exec $REAL_GIT \"\$@\""

# The class: a patch that does not apply, one that does not build (its
# build is the one a fault can meet: no kernel of it is ever kept) and a
# lab-1 series whose kernel is kept; the light class leaves out the build.
class=$T/class light=$T/light
mkdir -p "$class" "$light"
cp -r "$KIT"/grading/samples/{no-apply,no-build,only-lab1} "$class/"
cp -r "$KIT"/grading/samples/{no-apply,only-lab1} "$light/"
# grade OUT [ARGS...] / grade_light OUT [ARGS...]: the class graded into
# OUT; its status.
grade() {
	local out=$1
	shift
	"$G" --submissions "$class" --out "$out" --jobs 2 "$@" >"$out.log" 2>&1
}
grade_light() {
	local out=$1
	shift
	"$G" --submissions "$light" --out "$out" --jobs 2 "$@" >"$out.log" 2>&1
}
status_of() { meta_value "$1/students/$2/status" status; }
# same_book NAME OUT [STUDENT...]: OUT's gradebook is the undisturbed one
# (its header and those students' rows), byte for byte.
same_book() {
	local name=$1 out=$2 want
	shift 2
	want=$(awk -F, -v only=" $* " 'NR == 1 || only == "  " || index(only, " " $1 " ")' "$T/base/gradebook.csv")
	if [ "$want" = "$(cat "$out/gradebook.csv" 2>/dev/null)" ]; then
		pass "$name"
	else
		fail "$name" "$(diff <(echo "$want") "$out/gradebook.csv" | head -n 8)"
	fi
}
# expect_not_graded NAME RC OUT STUDENT: the run stopped (exit 75), and
# STUDENT is not graded (kit error): no verdict, no points.
expect_not_graded() {
	[ "$2" = 75 ] && [ "$(status_of "$3" "$4")" = kit-error ] && [ ! -f "$3/students/$4/scores.tsv" ] && pass "$1" ||
		fail "$1" "status $2, $4: $(status_of "$3" "$4")"
}
# survivors TOKEN: the processes still marked with a run's token.
survivors() { grep -lzx "KIT_RUN=$1" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
# expect_no_survivors NAME OUT: none of OUT's last run's processes lives.
expect_no_survivors() {
	local tok n=1
	tok=$(meta_value "$2/.lock.info" token)
	for _ in $(seq 20); do
		n=$(survivors "$tok")
		[ "$n" = 0 ] && break
		sleep 0.5
	done
	[ -n "$tok" ] && [ "$n" = 0 ] && pass "$1" ||
		fail "$1" "token '${tok:-none}': $n process(es) left: $(grep -lzx "KIT_RUN=$tok" /proc/[0-9]*/environ 2>/dev/null | sed 's#/proc/\([0-9]*\)/environ#\1#' | xargs -r ps -o pid=,args= -p | head -n 5)"
}

# ---- the undisturbed class ----
grade "$T/base"
rc=$?
[ "$rc" = 0 ] && pass "faults: the undisturbed class grades (exit 0)" || fail "faults: the undisturbed class grades (exit 0)" "status $rc: $(tail -n 5 "$T/base.log")"
[ "$(status_of "$T/base" no-apply)" = does-not-apply ] && [ "$(status_of "$T/base" no-build)" = does-not-build ] &&
	[ "$(status_of "$T/base" only-lab1)" = graded ] &&
	pass "faults: a patch that does not apply and a compile error stay the students' (does-not-apply, does-not-build)" ||
	fail "faults: a patch that does not apply and a compile error stay the students' (does-not-apply, does-not-build)" "$(cat "$T/base/gradebook.csv")"
expect_no_survivors "faults: a finished run leaves no process behind" "$T/base"

# ---- the sandbox denied: the preflight stops make grade and make check ----
PATH=$T/no-sandbox:$PATH grade "$T/sandbox"
rc=$?
[ "$rc" = 75 ] && pass "faults: no sandbox: make grade stops at the preflight (exit 75)" ||
	fail "faults: no sandbox: make grade stops at the preflight (exit 75)" "status $rc: $(tail -n 5 "$T/sandbox.log")"
expect_grep "faults: no sandbox: the message names bwrap's cause" 'preflight \(sandbox\).*setting up uid map: Permission denied' "$T/sandbox.log"
expect_grep "faults: no sandbox: ... and Ubuntu's fix" 'kernel.apparmor_restrict_unprivileged_userns=0' "$T/sandbox.log"
expect_grep "faults: no sandbox: ... and a container's" '--privileged' "$T/sandbox.log"
[ -z "$(ls -A "$T/sandbox/students" 2>/dev/null)" ] && pass "faults: no sandbox: no student is touched" ||
	fail "faults: no sandbox: no student is touched" "$(ls "$T/sandbox/students")"
PATH=$T/no-sandbox:$PATH "$KIT/grading/student/check" 1 >"$T/check-sandbox.log" 2>&1
rc=$?
[ "$rc" = 75 ] && grep -q 'apparmor_restrict_unprivileged_userns' "$T/check-sandbox.log" &&
	pass "faults: no sandbox: make check stops at the preflight too, with the fix" ||
	fail "faults: no sandbox: make check stops at the preflight too, with the fix" "status $rc: $(tail -n 4 "$T/check-sandbox.log")"

# ---- the sandbox denied mid-class: the build is no verdict ----
PATH=$T/no-build-sandbox:$PATH grade "$T/mid" --jobs 1
rc=$?
expect_not_graded "faults: sandbox lost mid-class: the student is not graded (kit error), the run stops (exit 75)" "$rc" "$T/mid" no-build
expect_grep "faults: sandbox lost mid-class: the cause is named" 'sandbox could not be made' "$T/mid/students/no-build/stages/kit-error"
expect_grep "faults: sandbox lost mid-class: the gradebook shows no points for it" '^no-build,(,)*,kit-error,' "$T/mid/gradebook.csv"
expect_grep "faults: sandbox lost mid-class: the run says how to resume" 'run the same command again' "$T/mid.log"
grade "$T/mid"
rc=$?
[ "$rc" = 0 ] && pass "faults: sandbox back: the resume grades the rest (exit 0)" || fail "faults: sandbox back: the resume grades the rest (exit 0)" "status $rc: $(tail -n 5 "$T/mid.log")"
same_book "faults: sandbox back: the gradebook is the undisturbed one" "$T/mid"

# ---- QEMU cannot start mid-class; the control fails too ----
PATH=$T/no-qemu:$PATH grade_light "$T/qemu"
rc=$?
expect_not_graded "faults: QEMU refuses: the student is not graded (kit error), exit 75" "$rc" "$T/qemu" only-lab1
expect_grep "faults: QEMU refuses: the cause names QEMU and the control" 'base kernel too' "$T/qemu/students/only-lab1/stages/kit-error"
expect_grep "faults: QEMU refuses: the fix names VM_MEM" 'VM_MEM|preflight' "$T/qemu/students/only-lab1/stages/kit-error"
grade_light "$T/qemu"
same_book "faults: QEMU back: the gradebook is the undisturbed one" "$T/qemu" no-apply only-lab1

# ---- a kernel that stops QEMU every time: the control boots, so it is graded as it is ----
mkdir -p "$T/one"
cp -r "$class/only-lab1" "$T/one/"
PATH=$T/student-qemu:$PATH "$G" --submissions "$T/one" --out "$T/own" --jobs 1 >"$T/own.log" 2>&1
rc=$?
[ "$rc" = 0 ] && [ "$(status_of "$T/own" only-lab1)" = graded ] &&
	[ "$(awk -F'\t' '$1 == "lab1.probe_present" { print $3 }' "$T/own/students/only-lab1/scores.tsv")" = crash ] &&
	pass "faults: a kernel that stops QEMU every time is the student's: graded, its tests crash (the control booted)" ||
	fail "faults: a kernel that stops QEMU every time is the student's: graded, its tests crash (the control booted)" "status $rc: $(cat "$T/own/gradebook.csv" 2>/dev/null)"
expect_grep "faults: ... and the control's result is recorded" $'^control\t' "$T/own/students/only-lab1/meta"

# ---- QEMU, or the kit's watcher of it, killed from outside mid-run ----
# killed_mid WHAT OUT PATTERN CAUSE: the light class graded into OUT while
# the first process matching PATTERN (only-lab1's boot) is killed once;
# then the student is not graded, with CAUSE in its record, and the
# resume gives the undisturbed gradebook.
killed_mid() {
	local what=$1 out=$2 pattern=$3 cause=$4 killer rc
	(
		for _ in $(seq 600); do
			p=$(pgrep -f "$pattern" | head -n 1)
			[ -n "$p" ] && { sleep 1; kill -9 "$p"; exit 0; }
			sleep 0.5
		done
	) &
	killer=$!
	grade_light "$out"
	rc=$?
	wait "$killer"
	expect_not_graded "faults: $what killed from outside: not graded (kit error), exit 75" "$rc" "$out" only-lab1
	expect_grep "faults: $what killed from outside: the cause says so" "$cause" "$out/students/only-lab1/stages/kit-error"
	grade_light "$out"
	same_book "faults: after $what was killed, the resume gives the undisturbed gradebook" "$out" no-apply only-lab1
}
killed_mid QEMU "$T/killed" "^qemu-system-x86_64 .*$T/killed/students/only-lab1.partial/suite" 'QEMU was killed from outside'
# (QEMU dies with its watcher.)
killed_mid "the QEMU watcher" "$T/watch" "^[^ ]*vm-watch .*$T/watch/students/only-lab1.partial/suite" \
	'vm-watch, which watched QEMU, died of signal 9'

# ---- a host tool that crashes ----
PATH=$T/crashing-git:$PATH grade_light "$T/tool" --jobs 1
rc=$?
expect_not_graded "faults: git crashing on a patch is no does-not-apply: not graded (kit error)" "$rc" "$T/tool" no-apply
grade_light "$T/tool"
same_book "faults: git back: the gradebook is the undisturbed one" "$T/tool" no-apply only-lab1

# ---- a grading worker killed mid-build ----
(
	for _ in $(seq 1200); do
		p=$(pgrep -f "^bash [^ ]*grading/pipeline/run --grade --id no-build .*$T/worker/" | head -n 1)
		if [ -n "$p" ] && pgrep -f "kernel-build .*$T/worker/students/no-build.partial" >/dev/null; then
			sleep 2
			kill -9 "$p"
			exit 0
		fi
		sleep 0.5
	done
) &
killer=$!
grade "$T/worker" --jobs 1
rc=$?
wait "$killer"
[ "$rc" = 75 ] && [ ! -f "$T/worker/students/no-build/scores.tsv" ] &&
	pass "faults: a worker killed mid-build: no verdict for its student, exit 75" ||
	fail "faults: a worker killed mid-build: no verdict for its student, exit 75" "status $rc: $(tail -n 3 "$T/worker.log")"
expect_no_survivors "faults: a worker killed mid-build: none of its processes outlives the run" "$T/worker"
grade "$T/worker"
same_book "faults: a worker killed mid-build: the resume gives the undisturbed gradebook" "$T/worker"

# ---- make grade killed (SIGKILL to its process group) at several moments, restarted each time ----
# kill_at WHEN: start a run on OUT=killall in a session of its own, kill its
# whole process group when WHEN (a pgrep pattern, or "now") matches.
kill_at() {
	local when=$1 pid
	setsid "$G" --submissions "$class" --out "$T/killall" --jobs 2 >>"$T/killall.log" 2>&1 &
	pid=$!
	for _ in $(seq 1200); do
		if [ "$when" = now ] || pgrep -f "$when" >/dev/null; then break; fi
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	sleep 1
	kill -9 -- "-$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	expect_no_survivors "faults: make grade killed ($when): no process of the run survives" "$T/killall"
}
kill_at "qemu-system-x86_64.*$T/killall/students"
kill_at "kernel-build .*$T/killall/students/no-build"
kill_at now
"$G" --submissions "$class" --out "$T/killall" --jobs 2 >>"$T/killall.log" 2>&1
rc=$?
[ "$rc" = 0 ] && pass "faults: after three kills, the same command ends the class (exit 0)" ||
	fail "faults: after three kills, the same command ends the class (exit 0)" "status $rc: $(tail -n 5 "$T/killall.log")"
same_book "faults: after three kills, the gradebook is the undisturbed one" "$T/killall"

# ---- two classes at once in one work folder ----
mkdir -p "$T/class-a" "$T/class-b"
cp -r "$class/only-lab1" "$class/no-apply" "$T/class-a/"
cp -r "$class/only-lab1" "$class/no-build" "$T/class-b/"
"$G" --submissions "$T/class-a" --out "$T/two-a" --jobs 2 >"$T/two-a.log" 2>&1 &
a=$!
"$G" --submissions "$T/class-b" --out "$T/two-b" --jobs 2 >"$T/two-b.log" 2>&1 &
b=$!
wait "$a"
ra=$?
wait "$b"
rb=$?
for x in "a:$ra:no-apply" "b:$rb:no-build"; do
	IFS=: read -r c r other <<<"$x"
	[ "$r" = 0 ] || fail "faults: two classes at once in one work folder: class $c grades (exit 0)" "status $r: $(tail -n 3 "$T/two-$c.log")"
	same_book "faults: two classes at once in one work folder: class $c gets the gradebook it gets alone" "$T/two-$c" only-lab1 "$other"
done

# ---- STUDENTS=: one student graded again, the others kept ----
keep=$(stat -c %Y "$T/tool/students/only-lab1/scores.tsv")
redo=$(stat -c %Y "$T/tool/students/no-apply/scores.tsv")
sleep 1
grade_light "$T/tool" --students no-apply
rc=$?
[ "$rc" = 0 ] && [ "$(stat -c %Y "$T/tool/students/only-lab1/scores.tsv")" = "$keep" ] &&
	[ "$(stat -c %Y "$T/tool/students/no-apply/scores.tsv")" != "$redo" ] &&
	pass "grade: STUDENTS=no-apply grades that student again and keeps the other's grade" ||
	fail "grade: STUDENTS=no-apply grades that student again and keeps the other's grade" "status $rc: $(tail -n 3 "$T/tool.log")"
same_book "grade: ... and the gradebook is the same" "$T/tool" no-apply only-lab1
grade_light "$T/tool" --students nobody
rc=$?
[ "$rc" = 2 ] && grep -q "'nobody' is no student" "$T/tool.log" &&
	pass "grade: STUDENTS= naming no student of the class is refused, naming the students" ||
	fail "grade: STUDENTS= naming no student of the class is refused, naming the students" "status $rc: $(tail -n 2 "$T/tool.log")"

# ---- one run per OUT: the second says who holds it ----
exec 9>>"$T/base/.lock"
flock 9
printf 'pid\t4242\nhost\tgrader-pc\nuser\tada\nstarted\t2026-12-01T10:00:00+00:00\ntoken\tnone\n' >"$T/base/.lock.info"
OUT_LOCK_WAIT=1 grade "$T/base"
rc=$?
exec 9>&-
[ "$rc" = 75 ] && grep -q 'pid 4242 on grader-pc, by ada' "$T/base.log" &&
	pass "faults: a second run on one OUT is refused, naming the run that holds it" ||
	fail "faults: a second run on one OUT is refused, naming the run that holds it" "status $rc: $(tail -n 2 "$T/base.log")"
