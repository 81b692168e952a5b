# Lab 6, the inlining of bpf_loop: the reference (solution/06) passes every
# test of labs 0..2 and 6; the stage before it (no inlining) fails each lab 6
# test with a reason and without crashing, but for the demonstrations of the
# 6.1 callback flaw, which it shares; upstream differs from the helper
# exactly where the lab text says. The lab 6 family kernel
# (grading/mutants/lab6.patch on solution/06 + switch.patch) is built once:
# with no switch it passes every test, the guest does not see the switch,
# and booted with bpfloop_mutant=NN, mutant NN is caught by the tests
# grading/mutants/lab6.expect names for it.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab6
rm -rf "$T"
mkdir -p "$T"
DEMOS=" lab6.unsound_callback_accepted lab6.handbook_walk_prog "

ref=solution/06
# The stage lab 6 starts from: the solution branch before solution/06.
prev=$(git -C "$LINUX" for-each-ref --format='%(refname:short)' 'refs/heads/solution/*' |
	sort | awk -v ref="$ref" '$0 == ref { print last } { last = $0 }')

expect_reference lab6 "$ref" 6 "$T" || exit 0

if [ -z "$prev" ] || ! image=$(kernel_at "$prev" 2>"$T/prev.build.err"); then
	fail "lab6: the stage before $ref (${prev:-none}) builds" "$(tail -n 12 "$T/prev.build.err" 2>/dev/null)"
else
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$T/prev" --lab 6 >/dev/null 2>&1
	tsv=$T/prev/results.tsv
	wrong=$(awk -F'\t' -v demos="$DEMOS" '$1 ~ /^lab6\./ {
		demo = index(demos, " " $1 " ") > 0
		if (demo ? $2 != "pass" : ($2 != "fail" || $4 == "")) print $1 "(" $2 ")" }' "$tsv" | tr '\n' ' ')
	n=$(grep -c '^lab6\.' "$tsv")
	if [ -z "$wrong" ] && [ "$n" -gt 0 ]; then
		pass "lab6: $prev (no inlining) fails each lab 6 test with a reason, no crash ($n tests, the demonstrations pass)"
	else
		fail "lab6: $prev (no inlining) fails each lab 6 test with a reason, no crash" "wrong verdicts: $wrong ($tsv)"
	fi
	expect_grep "lab6: ... and the reason says the call was not inlined" \
		$'^lab6\\.count_500\tfail\t.*count_inline: the bpf_loop call was not inlined' "$tsv"
	bad=$(awk -F'\t' '$1 !~ /^lab6\./ && $2 != "pass" { print $1 }' "$tsv" | tr '\n' ' ')
	if [ -z "$bad" ]; then pass "lab6: $prev passes labs 0..2"; else fail "lab6: $prev passes labs 0..2" "$bad"; fi
fi

# Upstream 6.1 inlines too, but differs from the helper in two ways the lab
# text names: -E2BIG through a 32-bit move, and a 64-bit compare of nr_loops.
if image=$(kernel_at upstream 2>"$T/upstream.build.err"); then
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$T/upstream" --lab 6 >/dev/null 2>&1
	got=$(awk -F'\t' '$1 ~ /^lab6\./ && $2 != "pass" { print $1 "(" $2 ")" }' "$T/upstream/results.tsv" | tr '\n' ' ')
	want="lab6.too_many(fail) lab6.wide_nr_loops(fail) "
	if [ "$got" = "$want" ]; then
		pass "lab6: upstream fails exactly lab6.too_many and lab6.wide_nr_loops"
	else
		fail "lab6: upstream fails exactly lab6.too_many and lab6.wide_nr_loops" "got: ${got:-none}"
	fi
else
	fail "lab6: upstream builds" "$(tail -n 12 "$T/upstream.build.err")"
fi

expect_family lab6 lab6 6 mutant "$T" 2 || exit 0
