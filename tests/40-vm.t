# The QEMU runner on the base kernel: output, status, and every way a
# guest can go wrong, each a verdict, with nothing left running.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/vm
rm -rf "$T"
mkdir -p "$T"
image=$(kernel_at base 2>/dev/null) || { fail "vm: a base kernel to boot" "make kernel REF=base fails"; exit 0; }
run() { "$KIT/vm/qemu-run" --quiet --kernel "$image" "$@"; }

ts=$(now)
out=$(run --out "$T/echo" --cmd 'echo hello from the guest; exit 7' 2>"$T/echo.err")
st=$?
if [ "$st" = 7 ] && [ "$out" = "hello from the guest" ]; then
	pass "vm: a command's output and exit status come back ($(elapsed "$ts") wall, boot included)"
else
	fail "vm: a command's output and exit status come back" "status $st, output '$out'" "$(cat "$T/echo.err")"
fi
out=$(run --out "$T/nonl" --cmd 'printf "no newline"' 2>/dev/null)
st=$?
if [ "$st" = 0 ] && [ "$out" = "no newline" ] && grep -q '^done 0' "$T/nonl/verdict"; then
	pass "vm: output without a final newline still ends its frame"
else
	fail "vm: output without a final newline still ends its frame" "status $st, '$out', $(cat "$T/nonl/verdict")"
fi
expect_grep "vm: the accelerator is decided and remembered" '^(kvm|tcg)$' "$WORK/accel"
boot=$(sed -n 's/.*(user space at \([0-9.]*\) s).*/\1/p' "$T/echo/verdict")
if [ -n "$boot" ]; then
	pass "vm: the guest reaches /init (${boot} s wall from QEMU's start)"
else
	fail "vm: the guest reaches /init" "$(cat "$T/echo/verdict")"
fi
if grep -q 'bpfloop-lab: init reached' "$T/echo/console.log" && ! grep -q 'hello from the guest' "$T/echo/console.log"; then
	pass "vm: the console and the result channel are separate"
else
	fail "vm: the console and the result channel are separate"
fi
if grep -q "@@$(cat "$T/echo/id") begin" "$T/echo/channel.raw"; then
	pass "vm: the result channel is framed by the run's id"
else
	fail "vm: the result channel is framed by the run's id"
fi
# Network devices backed by hardware (the kernel's own virtual ones, lo or
# sit0, have no device link).
out=$(run --out "$T/guest" --cmd 'ls -d /sys/class/net/*/device 2>/dev/null | wc -l; ls /sys/class/net | tr "\n" " "' 2>/dev/null)
if [ "$(head -n 1 <<<"$out")" = 0 ]; then
	pass "vm: the guest has no network"
else
	fail "vm: the guest has no network" "$out"
fi

expect_status "vm: ACCEL=bogus is refused with the fix" 1 env ACCEL=bogus "$KIT/vm/qemu-run" --kernel "$image" --cmd true

# A hang: the run timeout stops it.
ts=$(now)
expect_status "vm: a command that hangs is stopped by the run timeout" 255 \
	run --out "$T/hang" --timeout 8 --cmd 'sleep 1000'
expect_grep "vm: ... with verdict timeout" '^timeout ' "$T/hang/verdict"
# A test that hangs after others answered: the idle limit stops it long
# before the run timeout.
expect_status "vm: a silent result channel is stopped by --idle" 255 \
	run --out "$T/idle" --timeout 120 --idle 4 --cmd 'echo first; sleep 1000'
expect_grep "vm: ... with verdict timeout, naming the silence" '^timeout no result for 4 s' "$T/idle/verdict"
expect_grep "vm: ... and what came before it is kept" '^first$' "$T/idle/output"
if ! pgrep -f "$T/hang" >/dev/null; then pass "vm: ... and no QEMU left running ($(elapsed "$ts"))"; else fail "vm: ... and no QEMU left running"; fi

# A crash mid-command: panic, QEMU ends, the verdict says so with the console.
run --out "$T/panic" --cmd 'echo c >/proc/sysrq-trigger; sleep 5' >/dev/null 2>"$T/panic.err"
expect_grep "vm: a kernel crash mid-command is verdict crashed" '^crashed ' "$T/panic/verdict"
expect_grep "vm: ... and the excerpt shows the panic" 'Kernel panic|sysrq' "$T/panic.err"

# A console flood is cut off.
expect_status "vm: a console flood stops the guest" 255 \
	run --out "$T/flood" --console-cap 200000 --cmd 'while :; do echo flooding the console >/dev/console; done'
expect_grep "vm: ... with verdict flood" '^flood ' "$T/flood/verdict"
size=$(stat -c %s "$T/flood/console.log")
if [ "$size" -le 200000 ]; then pass "vm: ... and the console file stays within the cap"; else fail "vm: ... and the console file stays within the cap" "$size bytes"; fi

# Boot failures: a kernel that panics at boot, one that hangs before /init.
run --out "$T/noinit" --append 'rdinit=/nonexistent root=/dev/nonexistent' --cmd true >/dev/null 2>"$T/noinit.err"
expect_grep "vm: a kernel that panics at boot is verdict no-output" '^no-output ' "$T/noinit/verdict"
expect_grep "vm: ... with the panic in the excerpt" 'Kernel panic' "$T/noinit.err"
expect_status "vm: a boot that never reaches /init is stopped by the boot timeout" 255 \
	run --out "$T/boothang" --boot-timeout 5 --append 'rdinit=/bin/cat' --cmd true
expect_grep "vm: ... with verdict boot-timeout" '^boot-timeout ' "$T/boothang/verdict"

# Nothing of the host is writable: no disk, no shared folder.
out=$(run --out "$T/disks" --cmd 'cat /proc/partitions | tail -n +3 | wc -l; grep -c -E "9p|virtiofs|nfs" /proc/mounts' 2>/dev/null | tr '\n' ' ')
if [ "$out" = "0 0 " ]; then pass "vm: the guest sees no disk and no host folder"; else fail "vm: the guest sees no disk and no host folder" "$out"; fi

# make boot's shell: a real terminal (tmux), a command typed at the prompt,
# and 'exit' powers the guest off, which ends QEMU.
session=kit-boot-$$
tmux new-session -d -s "$session" -x 120 -y 40 \
	"'$KIT/vm/qemu-run' --kernel '$image' --out '$T/shell' --shell; echo SHELL-ENDED \$?; sleep 30"
for _ in $(seq 1 60); do tmux capture-pane -p -t "$session" | grep -q 'guest#' && break; sleep 0.5; done
# shellcheck disable=SC2016 # the guest's shell expands it, not this one
tmux send-keys -t "$session" 'echo typed-$((6 * 7))' Enter
sleep 1
tmux send-keys -t "$session" 'exit' Enter
for _ in $(seq 1 40); do tmux capture-pane -p -t "$session" | grep -q 'SHELL-ENDED' && break; sleep 0.5; done
screen=$(tmux capture-pane -p -t "$session")
tmux kill-session -t "$session" 2>/dev/null
if grep -q '^typed-42' <<<"$screen" && grep -q 'SHELL-ENDED 0' <<<"$screen"; then
	pass "vm: the interactive shell answers, and exit powers the guest off"
else
	fail "vm: the interactive shell answers, and exit powers the guest off" "$(tail -n 8 <<<"$screen")"
fi
