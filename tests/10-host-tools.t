# The kit's host programs on small inputs: no kernel, no VM.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/host-tools
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1

# vm-watch: each way a guest can go wrong ends in its own verdict, and
# nothing is left running.
expect_status "vm-watch: a command that ends reports exited" 0 \
	"$BIN/vm-watch" --verdict v1 -- sh -c 'exit 7'
expect_grep "vm-watch: the verdict file carries the command's status" '^exited 7 ' v1
expect_status "vm-watch: no boot marker in time is boot-timeout" 3 \
	"$BIN/vm-watch" --console c2 --marker READY --boot-timeout 1 --verdict v2 -- sleep 30
expect_status "vm-watch: the marker seen, then too long, is timeout" 4 \
	"$BIN/vm-watch" --console c3 --marker READY --boot-timeout 10 --timeout 3 --verdict v3 \
	-- sh -c 'echo xxREADYxx >c3; sleep 30'
expect_status "vm-watch: a console past the cap is flood" 5 \
	"$BIN/vm-watch" --console c4 --cap 10000 --verdict v4 -- sh -c 'yes flood >c4'
size=$(stat -c %s c4)
if [ "$size" -le 10000 ]; then pass "vm-watch: a flooded console is cut to the cap"; else fail "vm-watch: a flooded console is cut to the cap" "size $size"; fi
"$BIN/vm-watch" --verdict v5 -- sh -c 'sleep 60 & sleep 60 & echo $$ >pids; wait' &
watcher=$!
sleep 1
kill -TERM "$watcher"
wait "$watcher"
st=$?
group=$(cat pids 2>/dev/null)
# Live members of the group (zombies wait for their new parent to reap them).
alive() { ps -o stat= -g "$group" 2>/dev/null | awk '!/^Z/' | wc -l; }
for _ in 1 2 3 4 5 6 7 8 9 10; do [ "$(alive)" = 0 ] && break; sleep 0.2; done
if [ "$st" = 6 ] && [ "$(alive)" = 0 ]; then
	pass "vm-watch: SIGTERM stops the whole process group and says interrupted"
else
	fail "vm-watch: SIGTERM stops the whole process group and says interrupted" "status $st, group $group: $(ps -o pid=,stat=,cmd= -g "$group" | tr '\n' ' ')"
fi
expect_status "vm-watch: a command that cannot start is an error" 2 \
	"$BIN/vm-watch" --verdict v6 -- /nonexistent/qemu

# unframe: exactly this run's one frame counts; anything else on the
# channel is tampering.
printf '\0\r\n@@0123456789abcdef begin\r\nline one\nline two\n@@0123456789abcdef end 3\n\n' >ch1
expect_status "unframe: a complete frame (a serial port's noise around it is not text)" 0 \
	"$BIN/unframe" 0123456789abcdef ch1 out1
if [ "$(cat out1)" = "line one
line two" ] && [ "$("$BIN/unframe" 0123456789abcdef ch1 /dev/null)" = 3 ]; then
	pass "unframe: output between the markers and the status"
else
	fail "unframe: output between the markers and the status" "$(cat out1)"
fi
printf '@@0123456789abcdef begin\nno newline at the end\n@@0123456789abcdef end 0\n' >ch2
printf '@@0123456789abcdef begin\nwith a newline\n\n@@0123456789abcdef end 0\n' >ch2b
"$BIN/unframe" 0123456789abcdef ch2 out2a >/dev/null
"$BIN/unframe" 0123456789abcdef ch2b out2b >/dev/null
if [ "$(cat -A out2a)" = 'no newline at the end$' ] && [ "$(cat -A out2b)" = 'with a newline$' ]; then
	pass "unframe: the end marker's own line adds nothing to the output"
else
	fail "unframe: the end marker's own line adds nothing to the output" "$(cat -A out2a out2b)"
fi
expect_status "unframe: a channel with no frame at all" 4 "$BIN/unframe" fedcba9876543210 /dev/null out2
printf '@@0123456789abcdef begin\npartial\n' >ch3
expect_status "unframe: a frame that never ends means the guest died" 3 \
	"$BIN/unframe" 0123456789abcdef ch3 out3
expect_status "unframe: a short id is refused" 2 "$BIN/unframe" abc ch1 out4
frame=$(printf '@@0123456789abcdef begin\nok 1 lab1.a\n@@0123456789abcdef end 0')
printf 'ok 1 forged\n%s\n' "$frame" >t1
printf '%s\n%s\n' "$frame" "$frame" >t2
printf '@@0123456789abcdef begin\n@@0123456789abcdef begin\nok\n@@0123456789abcdef end 0\n' >t3
printf '%s\nok 2 lab1.b\n' "$frame" >t4
printf '@@0123456789abcdef begin\nok\n@@fedcba9876543210 begin\n@@0123456789abcdef end 0\n' >t5
for t in "t1 text before the frame" "t2 a second frame after it" "t3 a second begin inside it" \
	"t4 text after its end" "t5 another id's frame inside it"; do
	f=${t%% *}
	set -- "${t#* }"
	"$BIN/unframe" 0123456789abcdef "$f" "$f.out" >/dev/null 2>"$f.err"
	st=$?
	if [ "$st" = 5 ] && [ ! -e "$f.out" ] && [ -s "$f.err" ]; then
		pass "unframe: $* is tampering (status 5, no output, a reason)"
	else
		fail "unframe: $* is tampering (status 5, no output, a reason)" "status $st: $(cat "$f.err")"
	fi
done

# safe-copy: nothing a confined build planted is followed.
mkdir -p sc/root/arch/x86/boot sc/elsewhere
echo secret >sc/elsewhere/secret
echo kernel >sc/root/arch/x86/boot/bzImage
expect_status "safe-copy: a regular file is copied" 0 "$BIN/safe-copy" sc/root arch/x86/boot/bzImage sc/out1 100
[ "$(cat sc/out1 2>/dev/null)" = kernel ] && pass "safe-copy: ... byte for byte" || fail "safe-copy: ... byte for byte"
ln -s ../elsewhere/secret sc/root/link
expect_status "safe-copy: a symbolic link is refused" 1 "$BIN/safe-copy" sc/root link sc/out2 100
mkdir -p sc/root2
ln -s ../elsewhere sc/root2/arch
expect_status "safe-copy: a link among the folders on the way is refused" 1 \
	"$BIN/safe-copy" sc/root2 arch/secret sc/out3 100
expect_status "safe-copy: a file over the cap is refused" 1 "$BIN/safe-copy" sc/root arch/x86/boot/bzImage sc/out4 3
mkfifo sc/root/fifo
expect_status "safe-copy: a fifo is not a file" 1 timeout 5 "$BIN/safe-copy" sc/root fifo sc/out5 100
ln -s ../elsewhere/planted sc/dest-link
"$BIN/safe-copy" sc/root arch/x86/boot/bzImage sc/dest-link 100 >/dev/null 2>&1
[ ! -e sc/elsewhere/planted ] && pass "safe-copy: never writes through a link at the destination" ||
	fail "safe-copy: never writes through a link at the destination"
[ ! -e sc/out2 ] && [ ! -e sc/out3 ] && [ ! -e sc/out4 ] && [ ! -e sc/out5 ] &&
	pass "safe-copy: a refusal writes nothing" || fail "safe-copy: a refusal writes nothing"

# plan: the test table, one declaration for every list.
printf 'lab0.a 0 1 suite a\nlab0.own 0 0 suite-own own\nlab1.b 1 2 suite b\nlab3.c 3 1 lab3 c\nlab3.d 3 1 lab3 d\n' >tt
[ "$("$BIN/plan" --tests tt list --lab 1 | cut -f1 | paste -sd' ')" = "lab0.a lab1.b" ] &&
	pass "plan: --lab N is labs 0..N, without another lab's own-lab test" ||
	fail "plan: --lab N is labs 0..N, without another lab's own-lab test" "$("$BIN/plan" --tests tt list --lab 1)"
[ "$("$BIN/plan" --tests tt list --lab 0 | cut -f1 | paste -sd' ')" = "lab0.a lab0.own" ] &&
	pass "plan: an own-lab test runs at its own lab" || fail "plan: an own-lab test runs at its own lab"
[ "$("$BIN/plan" --tests tt where --lab 3 | paste -sd' ')" = "suite lab3" ] &&
	pass "plan: where lists what a run must start, once each" || fail "plan: where lists what a run must start, once each"
[ "$("$BIN/plan" --tests tt list --only lab3 | cut -f1 | paste -sd' ')" = "lab3.c lab3.d" ] &&
	pass "plan: --only labN is that lab's tests" || fail "plan: --only labN is that lab's tests"
expect_status "plan: --only with an unknown id is refused" 1 "$BIN/plan" --tests tt list --only lab1.nope
[ "$("$BIN/plan" --tests tt rubric | head -n 1)" = "lab0.a 0 1" ] && pass "plan: the default rubric" ||
	fail "plan: the default rubric"
printf 'lab0.a 0 1 suite a\nlab0.a 0 2 suite again\n' >tt2
expect_status "plan: a test declared twice is refused" 1 "$BIN/plan" --tests tt2 list
printf 'lab1.a 2 1 suite wrong lab\n' >tt3
expect_status "plan: an id whose lab is not its LAB is refused" 1 "$BIN/plan" --tests tt3 list
printf 'lab1.a 1 1 nowhere what\n' >tt4
expect_status "plan: an unknown WHERE is refused" 1 "$BIN/plan" --tests tt4 list
"$BIN/plan" header >tests.h
[ "$(grep -c '^SUITE_TEST' tests.h)" = "$(grep -cE '^lab[0-9.a-z_-]+ [0-9]+ [0-9.]+ suite(-own)? ' "$KIT/grading/tests.list")" ] &&
	pass "plan: the suite's table has every suite test of grading/tests.list" ||
	fail "plan: the suite's table has every suite test of grading/tests.list"

# intake flags: what no bpf_loop solution needs is marked, with its line.
cat >flagged.diff <<'END'
diff --git a/kernel/bpf/helpers.c b/kernel/bpf/helpers.c
--- a/kernel/bpf/helpers.c
+++ b/kernel/bpf/helpers.c
@@ -10,2 +10,7 @@
 int a;
+static int __init forge(void)
+	pr_info("ok 1 lab1.probe_present\n");
+	outb(0xf4, 0x501);
+	/* inb() in a comment is not a use */
+late_initcall(forge);
 int b;
diff --git a/tools/testing/selftests/bpf/prog_tests/bpf_loop.c b/tools/testing/selftests/bpf/prog_tests/bpf_loop.c
--- a/tools/testing/selftests/bpf/prog_tests/bpf_loop.c
+++ b/tools/testing/selftests/bpf/prog_tests/bpf_loop.c
@@ -1 +1,2 @@
 #include "x.h"
+	f = fopen("/proc/cmdline", "r");
END
"$BIN/intake" flags <flagged.diff >flags.out
if grep -q '^initcall kernel/bpf/helpers.c:11: static int __init forge' flags.out &&
	grep -q '^console kernel/bpf/helpers.c:12:' flags.out && grep -q '^port-io kernel/bpf/helpers.c:13:' flags.out &&
	grep -q '^initcall kernel/bpf/helpers.c:15:' flags.out &&
	grep -q '^fingerprint tools/testing/selftests/bpf/prog_tests/bpf_loop.c:2:' flags.out &&
	[ "$(wc -l <flags.out)" = 5 ]; then
	pass "intake flags: initcalls, console writes, port I/O and a test reading /proc/cmdline, with file and line"
else
	fail "intake flags: initcalls, console writes, port I/O and a test reading /proc/cmdline, with file and line" "$(cat flags.out)"
fi
if [ -d "$LINUX/.git" ] && git -C "$LINUX" rev-parse -q --verify solution/06 >/dev/null; then
	n=$(git -C "$LINUX" diff base solution/06 | "$BIN/intake" flags | wc -l)
	[ "$n" = 0 ] && pass "intake flags: the reference series is not flagged" ||
		fail "intake flags: the reference series is not flagged" "$(git -C "$LINUX" diff base solution/06 | "$BIN/intake" flags | head -n 5)"
fi

# intake reference: a lab whose change is the reference's own, line for
# line (white space aside; lines a later lab changes do not count).
printf '+++ b/k.c\n+int bpf_loop_helper_body(void)\n+\treturn callback_result_value;\n+  int   spaced_out_line = 1;\n+short\n+// a comment line of no weight\n' >ref1.diff
printf '+++ b/k.c\n+int second_lab_line_one(void);\n+int second_lab_line_two(void);\n' >ref2.diff
cat ref1.diff ref2.diff >series.diff
printf '+++ b/k.c\n+int bpf_loop_helper_body(void)\n+ return callback_result_value;\n+int spaced_out_line=1;\n+int second_lab_line_one(void);\n+int my_own_second_line(void);\n' >student.diff
"$BIN/intake" reference student.diff series.diff 1=ref1.diff 2=ref2.diff >reference.out
# (REF_MIN_LINE is 8: the test's labs are smaller, so no match word; the counts say it.)
if [ "$(cat reference.out)" = "1 3 3
2 1 2" ]; then
	pass "intake reference: counts a lab's reference lines the submission adds, white space and short or comment lines aside"
else
	fail "intake reference: counts a lab's reference lines the submission adds, white space and short or comment lines aside" "$(cat reference.out)"
fi
if [ -d "$LINUX/.git" ] && git -C "$LINUX" rev-parse -q --verify solution/02 >/dev/null; then
	git -C "$LINUX" diff base solution/02 >series.diff
	git -C "$LINUX" diff base solution/01 >ref1.diff
	git -C "$LINUX" diff solution/01 solution/02 >ref2.diff
	git -C "$LINUX" diff base solution/01 >student.diff
	[ "$("$BIN/intake" reference student.diff series.diff 1=ref1.diff 2=ref2.diff | awk '{ print $1 ":" $4 }' | paste -sd' ')" = "1:match 2:" ] &&
		pass "intake reference: solution/01 matches the reference of lab 1, not of lab 2" ||
		fail "intake reference: solution/01 matches the reference of lab 1, not of lab 2" "$("$BIN/intake" reference student.diff series.diff 1=ref1.diff 2=ref2.diff)"
fi

# excerpt: the oops, not the boot chatter.
{ for i in $(seq 1 100); do echo "[ 0.$i] boot line $i"; done
  echo "[ 1.0] BUG: kernel NULL pointer dereference, address: 000000000000000c"
  echo "[ 1.0] RIP: 0010:0xc"
  for i in $(seq 1 100); do echo "[ 2.$i] after $i"; done; } >console1
"$BIN/excerpt" console1 5 >ex1
if head -n 1 ex1 | grep -q 'BUG: kernel NULL pointer' && [ "$(wc -l <ex1)" = 5 ]; then
	pass "excerpt: starts at the fault and keeps the asked number of lines"
else
	fail "excerpt: starts at the fault and keeps the asked number of lines" "$(head -n 2 ex1)"
fi
seq 1 50 >console2
expect_status "excerpt: without a fault, the tail and status 1" 1 "$BIN/excerpt" console2 3
if [ "$("$BIN/excerpt" console2 3 | tr '\n' ' ')" = "48 49 50 " ]; then
	pass "excerpt: the tail is the last lines"
else
	fail "excerpt: the tail is the last lines"
fi

# ktap: verdicts from the suite's output, across boots.
cat >run1.ktap <<'END'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: lab1
    1..4
    # running lab1.a: passes
    # duration lab1.a 0.010 s
    ok 1 lab1.a
    # running lab1.b: fails
    # b: expected 1, got 2 (lab1.c:3)
    not ok 2 lab1.b
    # running lab1.c: skips
    ok 3 lab1.c # SKIP no JIT here
    # running lab1.d: crashes
[ 1.0] BUG: kernel NULL pointer dereference
# boot-end crashed: BUG: kernel NULL pointer dereference
END
cat >run2.ktap <<'END'
    # running lab1.e: hangs
# boot-end timeout: the guest ran past 120 s
END
"$BIN/ktap" run1.ktap run2.ktap >ktap.tsv
st=$?
want=$(printf '%s\n' "lab1.a pass" "lab1.b fail" "lab1.c skip" "lab1.d crash" "lab1.e timeout")
got=$(awk -F'\t' '{ print $1, $2 }' ktap.tsv)
if [ "$got" = "$want" ] && [ "$st" = 1 ]; then
	pass "ktap: pass, fail, skip, crash and timeout across two boots"
else
	fail "ktap: pass, fail, skip, crash and timeout across two boots" "got: $got" "status $st"
fi
expect_grep "ktap: a failure's reason is its first diagnostic" $'^lab1.b\tfail\t[0-9.]+\tb: expected 1, got 2' ktap.tsv
expect_grep "ktap: a crash's reason is the boot's end" $'^lab1.d\tcrash\t.*BUG: kernel NULL' ktap.tsv
# A judge's whole reason is kept (lab 4's run to some 600 bytes), not its
# first 240.
long="the verifier refused pyperf600_bpf_loop: $(printf 'R2 unbounded memory access %.0s' $(seq 1 19))the end"
printf 'KTAP version 1\n1..1\n    # running lab4.x: long\n    # %s\n    not ok 1 lab4.x\n' "$long" >long.ktap
"$BIN/ktap" long.ktap >long.tsv
[ "${#long}" -gt 560 ] && [ "$(cut -f4 long.tsv)" = "$long" ] &&
	pass "ktap: a reason of ${#long} bytes is kept whole" ||
	fail "ktap: a reason of ${#long} bytes is kept whole" "got $(cut -f4 long.tsv | wc -c) bytes"
printf 'junk\n' >empty.ktap
expect_status "ktap: no results at all is status 3" 3 "$BIN/ktap" empty.ktap

# config-check: a dropped option is named.
printf 'CONFIG_A=y\nCONFIG_B=y\n# CONFIG_C is not set\n' >frag
printf 'CONFIG_A=y\nCONFIG_C=y\n' >dotconfig
"$BIN/config-check" frag dotconfig 2>cc.err
st=$?
if [ "$st" = 1 ] && grep -q 'CONFIG_B=y was asked for' cc.err && grep -q 'CONFIG_C=n was asked for' cc.err; then
	pass "config-check: names options that did not take"
else
	fail "config-check: names options that did not take" "status $st: $(cat cc.err)"
fi
printf 'CONFIG_A=y\nCONFIG_B=y\n' >dotconfig2
expect_status "config-check: all options present" 0 "$BIN/config-check" frag dotconfig2

# first-error: the compiler's error, with context.
{ for i in $(seq 1 50); do echo "  CC      file$i.o"; done
  echo "kernel/bpf/verifier.c:123:5: error: 'foo' undeclared (first use in this function)"
  echo "make[3]: *** [scripts/Makefile.build:250: kernel/bpf/verifier.o] Error 1"; } >build.log
"$BIN/first-error" build.log 2 >fe.out
if grep -q "^> .*error: 'foo' undeclared" fe.out && [ "$(wc -l <fe.out)" = 4 ]; then
	pass "first-error: marks the first error and shows its context"
else
	fail "first-error: marks the first error and shows its context" "$(cat fe.out)"
fi

# helper-ids: an ID that moves is caught.
printf '#define __BPF_FUNC_MAPPER(FN)\t\\\n\tFN(unspec),\t\\\n\tFN(a),\t\\\n\tFN(b),\t\\\n\tFN(c),\n' >h1.h
printf '#define __BPF_FUNC_MAPPER(FN)\t\\\n\tFN(unspec),\t\\\n\tFN(a),\t\\\n\tFN(c),\n' >h2.h
printf '#define __BPF_FUNC_MAPPER(FN)\t\\\n\tFN(unspec),\t\\\n\tFN(a),\t\\\n\tFN(x),\t\\\n\tFN(c),\n' >h3.h
expect_status "helper-ids: removing an entry renumbers, and is caught" 1 "$BIN/helper-ids" h1.h h2.h
expect_status "helper-ids: a renamed slot is caught unless declared" 1 "$BIN/helper-ids" h1.h h3.h
expect_status "helper-ids: a declared slot rename passes" 0 "$BIN/helper-ids" h1.h h3.h 2:x

# bench-first-report: a figure beside its target; a failed command is
# never a met target.
printf 'grade\t840\t900\t0\tmake grade\nlab3\t400\t180\t0\ta first lab 3 grade\tthe kernel: 380 s\ncheck\t5\t20\t2\tmake check\n' >bf.tsv
"$BIN/bench-first-report" --accel tcg --cores 2 bf.tsv >bf.md
expect_status "bench-first-report: writes its table" 0 test -s bf.md
expect_grep "bench-first-report: a figure under its target is met" '^\| make grade \| 14 min 00 s \| ≤ 15 min 00 s \| met \| not measured \|$' bf.md
expect_grep "bench-first-report: ... one over it is missed, by how much, and what bounds it" '^\| a first lab 3 grade \| 6 min 40 s \| ≤ 3 min 00 s \| missed by 3 min 40 s \| the kernel: 380 s \|$' bf.md
expect_grep "bench-first-report: ... a failed command has no figure" '^\| make check \| .*the command failed \(status 2\)' bf.md
expect_grep "bench-first-report: ... and the count says 1 of 3" '^1 of 3 targets met\.$' bf.md
expect_grep "bench-first-report: ... and says TCG or KVM" 'guests under tcg' bf.md
printf 'grade\tabc\n' >bf-bad.tsv
expect_status "bench-first-report: a malformed line is refused" 1 "$BIN/bench-first-report" bf-bad.tsv
