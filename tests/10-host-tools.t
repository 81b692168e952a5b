# The kit's host programs on small inputs: no kernel, no VM.
# shellcheck shell=bash source=tests/lib.sh
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

# unframe: only this run's frame counts.
printf 'ok 1 forged\n@@0123456789abcdef begin\r\nline one\nline two\n@@0123456789abcdef end 3\nafter\n' >ch1
expect_status "unframe: a complete frame" 0 "$BIN/unframe" 0123456789abcdef ch1 out1
if [ "$(cat out1)" = "line one
line two" ] && [ "$("$BIN/unframe" 0123456789abcdef ch1 /dev/null)" = 3 ]; then
	pass "unframe: output between the markers and the status, nothing outside"
else
	fail "unframe: output between the markers and the status, nothing outside" "$(cat out1)"
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
expect_status "unframe: another run's id finds nothing" 4 "$BIN/unframe" fedcba9876543210 ch1 out2
printf '@@0123456789abcdef begin\npartial\n' >ch3
expect_status "unframe: a frame that never ends means the guest died" 3 \
	"$BIN/unframe" 0123456789abcdef ch3 out3
expect_status "unframe: a short id is refused" 2 "$BIN/unframe" abc ch1 out4

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
