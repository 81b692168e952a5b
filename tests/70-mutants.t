# Known-wrong kernels of labs 1 and 2: the lab 2 family kernel
# (grading/mutants/lab2.patch on solution/02 + switch.patch) is built once.
# With no switch it passes every test of labs 0..2 (it is the reference);
# the guest's /proc/cmdline does not show the switch; and booted with
# bpfloop_mutant=NN, the suite tests that grading/mutants/lab2.expect names
# for mutant NN do not pass.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/mutants
rm -rf "$T"
mkdir -p "$T"
M=$KIT/grading/mutants
[ -f "$M/lab2.expect" ] || { fail "grading/mutants/lab2.expect exists"; exit 0; }

if ! commit=$(kit_mutant_commit lab2 2>"$T/commit.err"); then
	fail "the lab 2 family applies on solution/02" "$(cat "$T/commit.err")"
	exit 0
fi
if ! image=$(kernel_at "$commit" mutant 2>"$T/build.err"); then
	fail "the lab 2 family kernel builds" "$(tail -n 12 "$T/build.err")"
	exit 0
fi

"$KIT/grading/run-suite" --quiet --kernel "$image" --out "$T/none" --lab 2 >/dev/null 2>&1
tsv=$T/none/results.tsv
bad=$(awk -F'\t' '$2 != "pass" { print $1 "(" $2 ")" }' "$tsv" | tr '\n' ' ')
if [ -z "$bad" ] && grep -q '^lab1\.' "$tsv" && grep -q '^lab2\.' "$tsv"; then
	pass "mutants: the lab 2 family with no switch passes every lab 0..2 test ($(wc -l <"$tsv"))"
else
	fail "mutants: the lab 2 family with no switch passes every lab 0..2 test" "not passed: ${bad:-none} ($tsv)"
fi

expect_hidden_switch "mutants: the guest (/proc/cmdline, dmesg, /sys/module) does not show bpfloop_mutant=3" "$image" 3 "$T/cmdline"

grep -v '^#' "$M/lab2.expect" | grep -v '^$' | while read -r name tests; do
	nr=$((10#${name%%-*}))
	"$KIT/grading/run-suite" --quiet --kernel "$image" --out "$T/$name" --lab 2 \
		--append "bpfloop_mutant=$nr" >/dev/null 2>&1 || true
	expect_caught "mutant $name is caught by: $tests" "$T/$name/results.tsv" "$tests"
done
