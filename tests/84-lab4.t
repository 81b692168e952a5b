# Lab 4: the reference programs pass every lab 4 test on solution/03; a
# tree without the bpf_loop versions (base's) fails with the missing file
# named; known-wrong conversions (tests/fixtures/lab4-wrong: one never calls
# bpf_loop, one calls it but still unrolls) are caught by _calls_loop and
# _scale. The first run measures the unrolled programs in a guest (the
# whole file took 3 min 24 s here under TCG); later runs take their figures
# from work/cache/lab4 (1 min 19 s).
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab4
rm -rf "$T"
mkdir -p "$T"
PROGS=tools/testing/selftests/bpf/progs

"$KIT/grading/lab4/run-lab4" --quiet --ref solution/04 --out "$T/reference" >/dev/null 2>"$T/reference.err"
for id in builds pyperf600_loads pyperf600_calls_loop pyperf600_scale \
	strobemeta_loads strobemeta_calls_loop strobemeta_scale; do
	expect_verdict "lab4: the reference passes lab4.$id" "$T/reference/results.tsv" "lab4.$id" pass
done
# The figures behind the verdicts: the records the guest wrote.
awk '/^verif name=pyperf600_bpf_loop / { for (i = 1; i <= NF; i++) if ($i ~ /^loop_calls=/) print substr($i, 12) }' \
	"$T/reference/records" >"$T/loop_calls"
if [ "$(cat "$T/loop_calls")" = 5 ]; then
	pass "lab4: the reference pyperf600_bpf_loop calls helper 181 once per inlined __on_event (5)"
else
	fail "lab4: the reference pyperf600_bpf_loop calls helper 181 5 times" "got '$(cat "$T/loop_calls")' ($T/reference/records)"
fi

"$KIT/grading/lab4/run-lab4" --quiet --ref base --out "$T/base" >/dev/null 2>&1
expect_verdict "lab4: base's programs (no bpf_loop version) do not build" "$T/base/results.tsv" lab4.builds fail
expect_grep "lab4: ... and the reason names the missing file" \
	$'^lab4.builds\tfail\t.*pyperf600_bpf_loop.c is missing' "$T/base/results.tsv"
expect_verdict "lab4: base has no pyperf600_bpf_loop to load" "$T/base/results.tsv" lab4.pyperf600_loads fail
expect_verdict "lab4: base has no strobemeta_bpf_loop to scale" "$T/base/results.tsv" lab4.strobemeta_scale fail

wrong=$T/wrong-tree
mkdir -p "$wrong/$PROGS"
for f in pyperf.h strobemeta.h pyperf600.c strobemeta.c; do
	git -C "$LINUX" show "solution/04:$PROGS/$f" >"$wrong/$PROGS/$f"
done
cp "$KIT"/tests/fixtures/lab4-wrong/*.c "$wrong/$PROGS/"
"$KIT/grading/lab4/run-lab4" --quiet --tree "$wrong" --out "$T/wrong" >/dev/null 2>&1
expect_verdict "lab4: the known-wrong programs build" "$T/wrong/results.tsv" lab4.builds pass
expect_verdict "lab4: a conversion that still unrolls loads" "$T/wrong/results.tsv" lab4.pyperf600_loads pass
expect_verdict "lab4: ... and calls bpf_loop" "$T/wrong/results.tsv" lab4.pyperf600_calls_loop pass
expect_verdict "lab4: ... but is caught by the scale test" "$T/wrong/results.tsv" lab4.pyperf600_scale fail
expect_grep "lab4: ... and the reason gives both instruction counts" \
	$'^lab4.pyperf600_scale\tfail\t.*insns for pyperf600_bpf_loop, [0-9.]+% of the unrolled version' "$T/wrong/results.tsv"
expect_verdict "lab4: a shorter unrolled strobemeta loads" "$T/wrong/results.tsv" lab4.strobemeta_loads pass
expect_verdict "lab4: ... but is caught: no call to helper 181" "$T/wrong/results.tsv" lab4.strobemeta_calls_loop fail
expect_grep "lab4: ... and the reason says so" \
	$'^lab4.strobemeta_calls_loop\tfail\t.*no call to helper 181' "$T/wrong/results.tsv"
