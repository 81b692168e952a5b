# Lab 5: the reference benchmark passes every lab 5 test on solution/03,
# and so do upstream's own files; a benchmark whose program never calls
# bpf_loop, one that counts calls instead of loops, one that prints
# another summary, and a tree without a benchmark are caught. The C that reads the guest's output, draws the
# plot and writes the report is checked on fixtures, without a guest.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab5
F=$KIT/tests/fixtures/lab5
rm -rf "$T"
mkdir -p "$T"
need_tools

# --- bench-read, on fixture outputs ---
B=$BIN/bench-read
good=$F/output-good.txt bad=$F/output-bad.txt
got=$("$B" --summary --run "nr_loops=1000 producers=2" "$good")
if [ "$got" = $'30.750\t0.778\t15.375\t65.041' ]; then
	pass "lab5: bench-read parses upstream's summary line into its four numbers"
else
	fail "lab5: bench-read parses upstream's summary line into its four numbers" "got '$got'"
fi
expect_status "lab5: bench-read accepts the facts of a run that counts loops" 0 \
	"$B" --facts --run "nr_loops=1000 producers=2" "$good"
for r in hits-drops inconsistent no-summary; do
	expect_status "lab5: bench-read --summary refuses a run with '$r'" 1 "$B" --summary --run "$r" "$bad"
done
for r in not-run per-call hidden crashed; do
	expect_status "lab5: bench-read --facts refuses a run that is '$r'" 1 "$B" --facts --run "$r" "$bad"
done
"$B" --facts --run per-call "$bad" >"$T/per-call.why" || true
expect_grep "lab5: ... and says why hits counted per call are wrong" 'not a whole multiple of nr_loops = 1000' "$T/per-call.why"
"$B" --csv k "$good" >"$T/good.csv"
if [ "$(sed -n 1p "$T/good.csv")" = "kernel,nr_loops,producers,throughput_mops,stddev_mops,latency_ns,status" ] &&
	[ "$(sed -n 3p "$T/good.csv")" = "k,1000,2,30.750,0.778,65.041,0" ] && [ "$(sed -n 4p "$T/good.csv")" = "k,10,1,,,,1" ]; then
	pass "lab5: bench-read --csv gives one row per run, a failed run without numbers"
else
	fail "lab5: bench-read --csv gives one row per run, a failed run without numbers" "$(cat "$T/good.csv")"
fi
expect_status "lab5: bench-read --compare 1.5 2 is true" 0 "$B" --compare 1.5 2
expect_status "lab5: bench-read --compare 2 1.5 is false" 1 "$B" --compare 2 1.5

# --- bench-plot, on fixture CSVs ---
P=$BIN/bench-plot
"$P" --svg "$F/loop.csv" >"$T/plot.svg"
check "lab5: the plot is well-formed XML" python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/plot.svg"
lines=$(grep -c '<polyline' "$T/plot.svg")
points=$(grep -c '<circle' "$T/plot.svg")
if [ "$lines" = 3 ] && [ "$points" = 8 ]; then
	pass "lab5: the plot has one line per kernel and thread count, one point per successful run (3, 8)"
else
	fail "lab5: the plot has one line per kernel and thread count, one point per successful run" "$lines lines, $points points"
fi
"$P" --table "$F/loop.csv" >"$T/table.txt"
expect_grep "lab5: the table has a row per nr_loops, '-' where a run is missing" '^ +1000000 +40\.000 +- +8\.000$' "$T/table.txt"
"$P" --report "$F/loop.csv" "$F/verif.csv" tcg bench-loop.svg >"$T/report.md"
expect_grep "lab5: the report gives the insns ratio from verif-scale's CSV" '^\| pyperf600: processed insns.*\| 59\.6x \(626,838 / 10,518\) \| \*\*60\.0x\*\* \(600,000 / 10,000\) \|$' "$T/report.md"
expect_grep "lab5: ... and the time ratio" '^\| strobemeta: verification time.*\*\*200\.0x\*\*' "$T/report.md"
expect_grep "lab5: ... and the inlining ratio between two kernels" '\*\*5\.0x\*\* \(helper 40\.000 ns / inlined 8\.000 ns' "$T/report.md"
expect_grep "lab5: ... says which accelerator ran" 'Measured under \*\*tcg\*\*' "$T/report.md"
expect_grep "lab5: ... and links the plot" '\[bench-loop\.svg\]\(bench-loop\.svg\)' "$T/report.md"
"$P" --report "$F/loop.csv" "$T/no-such.csv" tcg bench-loop.svg >"$T/report-noverif.md"
expect_grep "lab5: without verif-scale's CSV the report says to run it" 'not measured, run .make verif-scale.' "$T/report-noverif.md"
expect_grep "lab5: without make bench-grade's CSV the report says to run it" 'Not measured: run .make bench-grade.' "$T/report.md"
printf 'date,submissions,headers,jobs,seconds,per_hour,accel,cores\n2026-01-01T00:00:00Z,6,same,2,720,30.0,tcg,2\n' >"$T/grade.csv"
"$P" --report "$F/loop.csv" "$F/verif.csv" tcg bench-loop.svg "$T/grade.csv" >"$T/report-grade.md"
expect_grep "lab5: with make bench-grade's CSV the report lists its runs" '^\| 2026-01-01T00:00:00Z \| 6 \| same \| 2 \| 2 \| tcg \| 720 \| \*\*30\.0\*\* \|$' "$T/report-grade.md"
printf 'date,submissions\n2026-01-01,6\n' >"$T/grade-bad.csv"
expect_status "lab5: bench-plot refuses a grade CSV without make bench-grade's columns" 1 "$P" --report "$F/loop.csv" "$F/verif.csv" tcg bench-loop.svg "$T/grade-bad.csv"
expect_status "lab5: bench-plot refuses a CSV that is not bench-loop's" 1 "$P" --svg "$F/verif.csv"

# --- run-lab5, in guests ---
tsv() { echo "$T/$1/results.tsv"; }
patch=$(ls "$KIT"/solutions/05-bench/*.patch)
# It changes only the benchmark's two files, so it applies on solution/03
# whatever lab 4 adds.
if commit_with_patch solution/03 "$patch" >/dev/null; then
	pass "lab5: the reference series applies on solution/03"
else
	fail "lab5: the reference series applies on solution/03" "$patch"
fi
"$KIT/grading/lab5/run-lab5" --quiet --ref solution/05 --out "$T/reference" >/dev/null 2>"$T/reference.err"
for id in lab5.builds lab5.runs lab5.report_format lab5.latency_falls; do
	expect_verdict "lab5: the reference passes $id" "$(tsv reference)" $id pass
done
mkdir -p "$T/upstream/tree"
for f in progs/bpf_loop_bench.c benchs/bench_bpf_loop.c; do
	mkdir -p "$(dirname "$T/upstream/tree/tools/testing/selftests/bpf/$f")"
	git -C "$LINUX" show "upstream:tools/testing/selftests/bpf/$f" >"$T/upstream/tree/tools/testing/selftests/bpf/$f"
done
"$KIT/grading/lab5/run-lab5" --quiet --tree "$T/upstream/tree" --out "$T/upstream/run" >/dev/null 2>&1
for id in lab5.builds lab5.runs lab5.report_format lab5.latency_falls; do
	expect_verdict "lab5: upstream's own benchmark, unchanged, passes $id" "$T/upstream/run/results.tsv" $id pass
done
"$KIT/grading/lab5/run-lab5" --quiet --tree "$KIT/tests/fixtures/lab5-no-loop" --out "$T/no-loop" >/dev/null 2>&1
expect_verdict "lab5: a program that never calls bpf_loop builds" "$(tsv no-loop)" lab5.builds pass
expect_verdict "lab5: ... and fails lab5.runs" "$(tsv no-loop)" lab5.runs fail
expect_grep "lab5: ... which says the program makes no bpf_loop call" $'^lab5.runs\tfail\t.*no bpf_loop call' "$(tsv no-loop)"
"$KIT/grading/lab5/run-lab5" --quiet --tree "$KIT/tests/fixtures/lab5-wrong-unit" --out "$T/wrong-unit" >/dev/null 2>&1
expect_verdict "lab5: hits counted per bpf_loop call fail lab5.runs" "$(tsv wrong-unit)" lab5.runs fail
expect_verdict "lab5: ... and lab5.latency_falls" "$(tsv wrong-unit)" lab5.latency_falls fail
"$KIT/grading/lab5/run-lab5" --quiet --tree "$KIT/tests/fixtures/lab5-wrong-report" --out "$T/wrong-report" >/dev/null 2>&1
expect_verdict "lab5: a benchmark reporting with hits_drops_report_final still runs" "$(tsv wrong-report)" lab5.runs pass
expect_verdict "lab5: ... but fails lab5.report_format" "$(tsv wrong-report)" lab5.report_format fail
expect_grep "lab5: ... which says the summary is not upstream's ops format" $'^lab5.report_format\tfail\t.*not in upstream.s format' "$(tsv wrong-report)"
"$KIT/grading/lab5/run-lab5" --quiet --ref solution/03 --out "$T/none" >/dev/null 2>&1
expect_verdict "lab5: a tree without a benchmark does not build" "$(tsv none)" lab5.builds fail
expect_grep "lab5: ... and the reason names the missing file" $'^lab5.builds\tfail\t.*bpf_loop_bench.c is missing' "$(tsv none)"
