# A student's day, in a work folder of its own: make lab, make check on a
# kernel in the lab-1 state (crashes are verdicts, the run goes on), the
# lab-2 fix, and the edit-to-result loop after touching verifier.c.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/student
rm -rf "$T"
mkdir -p "$T/work"
S=$T/work
mk() { make -s -C "$KIT" WORK="$S" "$@"; }

work_like "$S" || { fail "student: a work folder like a student's" "the clone failed"; exit 0; }

mk lab N=2 >"$T/lab.out" 2>&1
if [ "$(git -C "$S/linux" symbolic-ref --short HEAD)" = lab/02 ] &&
	[ "$(git -C "$S/linux" rev-parse HEAD)" = "$(git -C "$S/linux" rev-parse solution/01)" ]; then
	pass "student: make lab N=2 starts lab/02 at solution/01"
else
	fail "student: make lab N=2 starts lab/02 at solution/01" "$(cat "$T/lab.out")"
fi
expect_grep "student: ... and names the lab's text" 'labs/02-verifier/README.md' "$T/lab.out"

# Lab 2 not done yet: the kernel is in the lab-1 state, whose callbacks oops.
ts=$(now)
mk check >"$T/check1.out" 2>&1
st=$?
tsv=$S/check/lab-02/results.tsv
expect_status "student: make check fails while lab 2 is not done" 1 test "$st" = 1
expect_verdict "student: a callback that oopses is reported as crashed" "$tsv" lab2.count_500 crash
expect_verdict "student: ... and the run goes on after it" "$tsv" lab2.reject_deep_nesting fail
expect_verdict "student: ... lab 1's tests still pass" "$tsv" lab1.bad_flags pass
expect_grep "student: a crash's reason is the oops" $'^lab2.count_500\tcrash\t.*(BUG|Oops|general protection)' "$tsv"
expect_grep "student: each failure has the command that reruns it" 'make check N=2 ONLY=lab2.count_500' "$T/check1.out"
note "first make check (the lab-1 state built from the trusted base, crashes, reboots): $(elapsed "$ts")"
# What make check scored, and the tree it graded, for tests/91-grade.t:
# make grade of the sample only-lab1 (the same tree) must score the same.
c=$S/check/lab-02
cp "$c/scores.tsv" "$T/lab1-state.scores.tsv" 2>/dev/null || true
git -C "$S/linux" rev-parse "$(awk -F'\t' '$1 == "commit" { print $2 }' "$c/meta")^{tree}" \
	>"$T/lab1-state.tree" 2>/dev/null || true

# The student writes the verifier part (here: the reference patch).
git -C "$S/linux" -c user.name=student -c user.email=s@example.invalid \
	am -q "$KIT"/solutions/02-verifier/*.patch
ts=$(now)
mk check >"$T/check2.out" 2>&1
st=$?
if [ "$st" = 0 ]; then
	pass "student: with lab 2 done, make check passes ($(elapsed "$ts"))"
else
	fail "student: with lab 2 done, make check passes" "$(tail -n 15 "$T/check2.out")"
fi

# The edit-to-result loop: one file of the verifier changes, everything reruns.
touch "$S/linux/kernel/bpf/verifier.c"
ts=$(now)
mk check >"$T/check3.out" 2>&1
st=$?
loop=$(elapsed "$ts")
if [ "$st" = 0 ]; then
	pass "student: after touching verifier.c, build + boot + every lab 0..2 test: $loop"
else
	fail "student: after touching verifier.c, make check passes" "$(tail -n 15 "$T/check3.out")"
fi

# Lab 0's tests on the lab-2 tree: its unscored test (helper 181 absent)
# fails, as it must once lab 1 is done. make check says so as a warning,
# passes, and its last line does not claim that all passed.
mk check N=0 >"$T/check0.out" 2>&1
st=$?
expect_status "student: make check N=0 on a tree with the helper passes (its failing test has no points)" 0 test "$st" = 0
expect_grep "student: ... the unscored failure is a warning, with its reason" \
	'^  warning: lab0\.helper_181_absent \(fail\): ' "$T/check0.out"
expect_grep "student: ... and the last line says an unscored test failed" \
	'but 1 unscored test\(s\) failed: see the warnings above' <(tail -n 1 "$T/check0.out")

# Dirty trees are never switched away from.
echo "/* wip */" >>"$S/linux/kernel/bpf/bpf_iter.c"
mk lab N=1 >"$T/dirty.out" 2>&1
st=$?
if [ "$st" != 0 ] && [ "$(git -C "$S/linux" symbolic-ref --short HEAD)" = lab/02 ] &&
	grep -q 'wip' "$S/linux/kernel/bpf/bpf_iter.c" && grep -q 'git -C .* stash -u' "$T/dirty.out"; then
	pass "student: make lab refuses to leave uncommitted work, and says how to keep it"
else
	fail "student: make lab refuses to leave uncommitted work" "$(cat "$T/dirty.out")"
fi
rm -rf "$S"
