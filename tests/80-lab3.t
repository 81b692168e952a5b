# Lab 3: the reference selftests build, pass on the reference kernel and
# catch every lab 3 mutant; a weak suite is caught missing some; a tree
# without selftests gets a clear failure.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab3
rm -rf "$T"
mkdir -p "$T"
tsv() { awk -F'\t' -v id="$2" '$1 == id { print $2 }' "$1/results.tsv"; }

"$KIT/grading/lab3/run-lab3" --quiet --ref solution/03 --out "$T/reference" >/dev/null 2>"$T/reference.err"
expect_verdict "lab3: the reference selftests build" "$T/reference/results.tsv" lab3.builds pass
expect_verdict "lab3: the reference selftests pass on solution/02" "$T/reference/results.tsv" lab3.pass_on_reference pass
missed=$(awk -F'\t' '$1 ~ /^lab3\.catches\./ && $2 != "pass" { print $1 }' "$T/reference/results.tsv")
count=$(grep -c '^lab3\.catches\.' "$T/reference/results.tsv")
if [ -z "$missed" ] && [ "$count" -gt 0 ]; then
	pass "lab3: the reference selftests catch all $count lab 3 mutants"
else
	fail "lab3: the reference selftests catch every lab 3 mutant" "missed: $missed ($count in all)"
fi

"$KIT/grading/lab3/run-lab3" --quiet --tree "$KIT/tests/fixtures/lab3-weak" --out "$T/weak" >/dev/null 2>&1
expect_verdict "lab3: a weak suite builds" "$T/weak/results.tsv" lab3.builds pass
expect_verdict "lab3: a weak suite passes on the reference" "$T/weak/results.tsv" lab3.pass_on_reference pass
expect_verdict "lab3: a weak suite misses unchecked flags" "$T/weak/results.tsv" lab3.catches.03-flags-not-checked fail
expect_verdict "lab3: a weak suite still catches a wrong count" "$T/weak/results.tsv" lab3.catches.13-end-returns-zero pass

"$KIT/grading/lab3/run-lab3" --quiet --ref solution/02 --out "$T/none" >/dev/null 2>&1
expect_verdict "lab3: a tree without selftests does not build" "$T/none/results.tsv" lab3.builds fail
expect_grep "lab3: ... and the reason names the missing file" $'^lab3.builds\tfail\t.*bpf_loop.c is missing' "$T/none/results.tsv"
