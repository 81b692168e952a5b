# Lab 7, a sound verifier for bpf_loop callbacks: the reference
# (solution/07) passes every suite test of labs 0..2, 6 and 7; the stage
# before it (solution/06, 6.1's verifier) fails every unsound test, by
# accepting the unsound program, and passes every other test. The lab 7
# family kernel (grading/mutants/lab7.patch on solution/07 + switch.patch)
# is built once: with no switch it passes every test, the guest does not
# see the switch, and booted with bpfloop_mutant=NN, mutant NN is caught by
# the tests grading/mutants/lab7.expect names for it.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015,SC2016
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab7
rm -rf "$T"
mkdir -p "$T"

ref=solution/07
expect_reference lab7 "$ref" 7 "$T" || exit 0
# Lab 6's demonstrations of the flaw (the handbook's walk_prog among them)
# are refused too.
"$KIT/grading/pipeline/run-suite" --quiet --kernel "$IMAGE" --out "$T/demos" --lab 6 \
	--only lab6.unsound_callback_accepted,lab6.handbook_walk_prog >/dev/null 2>&1
got=$(awk -F'\t' '$2 == "fail" && $4 ~ / was refused / { print $1 }' "$T/demos/results.tsv" | sort | paste -sd' ' -)
if [ "$got" = "lab6.handbook_walk_prog lab6.unsound_callback_accepted" ]; then
	pass "lab7: $ref refuses lab 6's two demonstrations of the flaw (reach_next, the handbook's walk_prog)"
else
	fail "lab7: $ref refuses lab 6's two demonstrations of the flaw" "refused: ${got:-none} ($T/demos/results.tsv)"
fi

if ! image=$(kernel_at solution/06 2>"$T/prev.build.err"); then
	fail "lab7: solution/06 builds" "$(tail -n 12 "$T/prev.build.err")"
else
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$T/prev" --lab 7 >/dev/null 2>&1
	tsv=$T/prev/results.tsv
	wrong=$(awk -F'\t' '$1 ~ /^lab7\.unsound_/ && ($2 != "fail" || $4 !~ /_bad was accepted: .* Run, it reached/) { print $1 "(" $2 ")" }' "$tsv" | tr '\n' ' ')
	n=$(grep -c '^lab7\.unsound_' "$tsv")
	if [ -z "$wrong" ] && [ "$n" -gt 0 ]; then
		pass "lab7: solution/06 accepts each unsound program, and each run reaches past its value ($n tests)"
	else
		fail "lab7: solution/06 accepts each unsound program, and each run reaches past its value" \
			"wrong verdicts: $wrong ($tsv)"
	fi
	bad=$(awk -F'\t' '$1 !~ /^lab7\.unsound_/ && $2 != "pass" { print $1 "(" $2 ")" }' "$tsv" | tr '\n' ' ')
	if [ -z "$bad" ] && grep -q '^lab7\.keeps_' "$tsv"; then
		pass "lab7: solution/06 passes every other test (the twins, the precision tests, labs 0..2 and 6)"
	else
		fail "lab7: solution/06 passes every other test" "not passed: ${bad:-none} ($tsv)"
	fi
fi

# A kernel whose verifier never follows the callback (lab 1 alone) must
# not pass an unsound test either: it refuses some unsound programs for
# the wrong reason (it believes no call ran), so each twin makes a call.
if image=$(kernel_at solution/01 2>"$T/lab1.build.err"); then
	ids=$(grep -oE '^lab7\.unsound_[a-z_]+' "$KIT/grading/tests.list" | paste -sd, -)
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$T/lab1" --lab 7 --only "$ids" >/dev/null 2>&1
	passed=$(awk -F'\t' '$2 == "pass" { print $1 }' "$T/lab1/results.tsv" | paste -sd' ' -)
	n=$(grep -c . "$T/lab1/results.tsv")
	if [ -z "$passed" ] && [ "$n" -gt 0 ]; then
		pass "lab7: solution/01 (no callback state) passes no unsound test ($n)"
	else
		fail "lab7: solution/01 (no callback state) passes no unsound test" "passed: ${passed:-none}, $n results ($T/lab1/results.tsv)"
	fi
else
	fail "lab7: solution/01 builds" "$(tail -n 12 "$T/lab1.build.err")"
fi

# make verif-cost: lab 4's bpf_loop programs on the kernels before and
# after the fix. The verifier's counts are the same on every run of a
# program on a kernel, so the lab text's and the handbook's figures must be
# what it measures.
if "$KIT/grading/lab7/verif-cost" >"$T/cost.out" 2>&1; then
	cost=$WORK/verif-cost/cost.md
	expect_grep "lab7: verif-cost: pyperf600_bpf_loop loads before and after the fix" \
		'^\| `pyperf600_bpf_loop` \| [0-9,]+ insns, [0-9,]+ states, .*\| [0-9,]+ insns, [0-9,]+ states, .*\| [+-][0-9.]+% \|$' "$cost"
	expect_grep "lab7: verif-cost: lab 4's strobemeta (a pointer moved in its ctx) loads before the fix, not after" \
		'^\| `strobemeta_bpf_loop_ptr` \| [0-9,]+ insns, .*\| refused: bpf_loop callback .*\| refused after the fix \|$' "$cost"
	for text in labs/07-sound-callbacks/README.md handbook.md; do
		missing=$(grep -oE '[0-9,]+ insns, [0-9,]+ states' "$cost" | while read -r f; do
			grep -qF "$f" "$KIT/$text" || echo "$f"
		done | paste -sd';' -)
		grep -qE '[0-9,]+ insns, [0-9,]+ states' "$cost" && [ -z "$missing" ] &&
			pass "lab7: $text has verif-cost's verifier counts" ||
			fail "lab7: $text has verif-cost's verifier counts" "not in $text: $missing (measured: $cost)"
	done
	# lab7.keeps_lab4 loads the same two programs in the suite, another
	# loader: on the reference its counts are verif-cost's after the fix.
	for p in pyperf600 strobemeta; do
		want=$(awk -F'|' -v p="\`${p}_bpf_loop\`" '$2 ~ p { print $4 }' "$cost" | grep -oE '^ *[0-9,]+ insns' | tr -dc 0-9)
		got=$(cat "$T"/reference/boot-*/output 2>/dev/null | grep -oE "obs $p\.processed=[0-9]+" | head -n 1 | cut -d= -f2)
		[ -n "$want" ] && [ "$got" = "$want" ] &&
			pass "lab7: lab7.keeps_lab4 counts ${p}_bpf_loop's instructions as verif-cost does ($got)" ||
			fail "lab7: lab7.keeps_lab4 counts ${p}_bpf_loop's instructions as verif-cost does" \
				"suite: ${got:-none}, verif-cost: ${want:-none} ($cost, $T/reference/)"
	done
else
	fail "lab7: make verif-cost runs" "$(tail -n 12 "$T/cost.out")"
fi

expect_family lab7 lab7 7 mutant "$T" 3 || exit 0
