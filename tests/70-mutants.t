# Known-wrong kernels: each mutant in tests/mutants/ is one realistic mistake
# over solution/02, and the suite tests that tests/mutants/expect names for it
# must not pass on it.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/mutants
rm -rf "$T"
mkdir -p "$T"
M=$KIT/tests/mutants
[ -f "$M/expect" ] || { fail "tests/mutants/expect exists"; exit 0; }

grep -v '^#' "$M/expect" | grep -v '^$' | while read -r name tests; do
	patch=$M/$name.patch
	if ! commit=$(commit_with_patch solution/02 "$patch"); then
		fail "mutant $name applies on solution/02" "$patch"
		continue
	fi
	if ! image=$(kernel_at "$commit" mutant 2>"$T/$name.build.err"); then
		fail "mutant $name builds" "$(tail -n 12 "$T/$name.build.err")"
		continue
	fi
	lab=2
	"$KIT/grading/run-suite" --quiet --kernel "$image" --out "$T/$name" --lab "$lab" || true
	expect_caught "mutant $name is caught by: $tests" "$T/$name/results.tsv" "$tests"
done
