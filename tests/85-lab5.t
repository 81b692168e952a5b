# Lab 5: the reference benchmark passes every lab 5 test on solution/03,
# and so do upstream's own files; a benchmark whose program never calls
# bpf_loop, one that counts calls instead of loops, one that prints another
# summary, one that forges its figures and a tree without a benchmark are
# caught, and one that tries to reach the kit's accountant cannot. The C
# that judges the accountant's figures, reads the sweep's output, draws the
# plot and writes the report is checked on fixtures, without a guest.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab5
F=$KIT/tests/fixtures/lab5
rm -rf "$T"
mkdir -p "$T"
need_tools
make -s -C "$KIT" lab5-tools >/dev/null

# --- bench-judge, on the accountant's output of real runs ---
J=$BIN/bench-judge
good=$F/account-good.txt
args=(--warmup 1 --duration 2 --small 5 --large 1978)
"$J" "${args[@]}" "$good" >"$T/good.tsv" || true
for id in lab5.runs lab5.report_format lab5.report_agrees lab5.latency_falls; do
	expect_grep "lab5: bench-judge passes $id on the reference's figures" "^$id"$'\tpass\t' "$T/good.tsv"
done
expect_grep "lab5: ... and gives the kernel's figures as the reason" \
	$'^lab5.latency_falls\tpass\t100.1 ns per loop at nr_loops=5, 12.4 at 1978' "$T/good.tsv"
# Its KTAP's tests are the registry's: lab 5's of tests.list, in its order.
printf 'verdict\tok\n' >"$T/built.status"
"$J" --ktap --build-status "$T/built.status" "${args[@]}" "$good" >"$T/good.ktap" || true
expect_status "lab5: bench-judge's KTAP has the tests tests.list gives lab 5, in its order" 0 \
	diff <(sed -n 's/^    \(not \)\{0,1\}ok [0-9]* //p' "$T/good.ktap") <("$BIN/plan" list --where lab5 | cut -f1)
(cat "$KIT/grading/tests.list" && echo 'lab5.runs_fast 5 1 lab5 a test no check judges') >"$T/tests-more.list"
"$J" --ktap --tests "$T/tests-more.list" --build-status "$T/built.status" "${args[@]}" "$good" >/dev/null 2>"$T/more.err" && st=0 || st=$?
[ "$st" = 2 ] && grep -q 'lab5.runs_fast, which no check' "$T/more.err" &&
	pass "lab5: a table with a test no check judges stops bench-judge, naming it" ||
	fail "lab5: a table with a test no check judges stops bench-judge, naming it" "status $st: $(cat "$T/more.err")"
# judge_variant NAME ID REASON SED: the reference's figures changed by SED
# fail check ID, for REASON.
judge_variant() {
	sed "$4" "$good" >"$T/variant.txt"
	"$J" "${args[@]}" "$T/variant.txt" >"$T/variant.tsv" || true
	expect_grep "lab5: bench-judge fails $2 when $1" "^$2"$'\tfail\t.*'"$3" "$T/variant.tsv"
}
judge_variant "the benchmark exits 1" lab5.runs 'exited with status 1' 's/^lab5-exit small 0/lab5-exit small 1/'
judge_variant "no program calls bpf_loop" lab5.runs 'no bpf_loop call' \
	's/^\(lab5-prog [0-9]* [0-9]* [0-9]* [0-9]*\) 2 /\1 0 /'
judge_variant "the program that calls it never ran" lab5.runs 'never ran' \
	's/^\(lab5-prog [0-9]* [0-9]*\) [0-9]* /\1 0 /'
judge_variant "the kernel hides helper addresses" lab5.runs 'hides its addresses' \
	's/^\(lab5-prog [0-9]* [0-9]* [0-9]* [0-9]*\) [0-9]* /\1 -1 /'
judge_variant "bpf_loop stopped early" lab5.runs 'fewer than 5 times' \
	'/^lab5-run small/,/^lab5-exit small/ s/^\(lab5-sample [0-9]* [0-9]* [0-9]* [0-9]*\) 0 /\1 7 /'
judge_variant "the guest stopped in the second run" lab5.runs 'did not end' '/^lab5-exit large/d'
# shellcheck disable=SC2016 # a sed program
judge_variant "the guest never got to the second run" lab5.runs 'did not get to this run' '/^lab5-run large/,$d'
judge_variant "the kit could not measure" lab5.runs 'the kit could not measure' \
	's/^lab5-first 116007/lab5-error cannot attach/'
judge_variant "only the benchmark's output holds the kit's lines" lab5.runs 'did not end' \
	's/^lab5-exit large 0/lab5-out lab5-exit large 0/'
judge_variant "the benchmark loaded more programs than the kit follows" lab5.runs 'more BPF programs than the kit' \
	's/^lab5-kit untracked 0/lab5-kit untracked 3/'
judge_variant "the kit's reading was held up" lab5.report_agrees 'took 300 ms' \
	'/^lab5-run large/,/^lab5-exit large/ s/^\(lab5-sample [0-9]*\) [0-9]* /\1 300000 /'
judge_variant "the summary claims 30 % more loops than the kernel counted" lab5.report_agrees \
	'not the 93.861 M loops/s' 's/throughput   94.202/throughput  122.463/; s/( 94.202M ops/(122.463M ops/; s/latency   10.615/latency    8.166/'
"$J" --warmup 1 --duration 2 --small 1978 --large 5 \
	<(sed 's/ small / x /; s/ large / small /; s/ x / large /' "$good") >"$T/swapped.tsv" || true
expect_grep "lab5: bench-judge fails lab5.latency_falls when ns per loop rise" $'^lab5.latency_falls\tfail\t.*is not below' "$T/swapped.tsv"
"$J" --warmup 1 --duration 2 --small 4 --large 1978 "$good" >"$T/other-n.tsv" || true
expect_grep "lab5: bench-judge fails lab5.runs when the kit counted another nr_loops than the host chose" \
	$'^lab5.runs\tfail\t.*not 4' "$T/other-n.tsv"
"$J" --warmup 1 --duration 30 --small 5 --large 1978 "$good" >"$T/short-run.tsv" || true
expect_grep "lab5: bench-judge fails lab5.report_agrees when the run ended before its measured seconds" \
	$'^lab5.report_agrees\tfail\t.*before its 1 \+ 30 s' "$T/short-run.tsv"
"$J" --warmup 1 --duration 2 --small 3 --large 3296 "$F/account-forged.txt" >"$T/forged.tsv" || true
expect_grep "lab5: a benchmark that forges its summary and the kit's lines still runs" $'^lab5.runs\tpass\t' "$T/forged.tsv"
expect_grep "lab5: ... but fails lab5.report_agrees: the kernel counted a third of its loops" \
	$'^lab5.report_agrees\tfail\t.*\+20[0-9] %' "$T/forged.tsv"
expect_status "lab5: bench-judge --pick is a function of the seed" 0 \
	test "$("$J" --pick abc)" = "$("$J" --pick abc)"
picks=$(for s in 1 2 3 4 5 6 7 8 9 10 11 12; do "$J" --pick "$s"; done | sort -u)
if [ "$(wc -l <<<"$picks")" -ge 6 ] && awk '$1 < 1 || $1 > 8 || $2 < 1000 || $2 > 4000 { bad = 1 } END { exit bad }' <<<"$picks"; then
	pass "lab5: bench-judge --pick draws nr_loops from 1..8 and 1000..4000, differing by seed"
else
	fail "lab5: bench-judge --pick draws nr_loops from 1..8 and 1000..4000, differing by seed" "$picks"
fi

# --- bench-read, on the sweep's fixture outputs ---
B=$BIN/bench-read
good=$F/output-good.txt bad=$F/output-bad.txt
got=$("$B" --summary --run "nr_loops=1000 producers=2" "$good")
if [ "$got" = $'30.750\t0.778\t15.375\t65.041' ]; then
	pass "lab5: bench-read parses upstream's summary line into its four numbers"
else
	fail "lab5: bench-read parses upstream's summary line into its four numbers" "got '$got'"
fi
for r in hits-drops inconsistent no-summary; do
	expect_status "lab5: bench-read --summary refuses a run with '$r'" 1 "$B" --summary --run "$r" "$bad"
done
"$B" --csv k "$good" >"$T/good.csv"
if [ "$(sed -n 1p "$T/good.csv")" = "kernel,nr_loops,producers,throughput_mops,stddev_mops,latency_ns,status" ] &&
	[ "$(sed -n 3p "$T/good.csv")" = "k,1000,2,30.750,0.778,65.041,0" ] && [ "$(sed -n 4p "$T/good.csv")" = "k,10,1,,,,1" ]; then
	pass "lab5: bench-read --csv gives one row per run, a failed run without numbers"
else
	fail "lab5: bench-read --csv gives one row per run, a failed run without numbers" "$(cat "$T/good.csv")"
fi

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
for id in lab5.builds lab5.runs lab5.report_format lab5.report_agrees lab5.latency_falls; do
	expect_verdict "lab5: the reference passes $id" "$(tsv reference)" $id pass
done
mkdir -p "$T/upstream/tree"
for f in progs/bpf_loop_bench.c benchs/bench_bpf_loop.c; do
	mkdir -p "$(dirname "$T/upstream/tree/tools/testing/selftests/bpf/$f")"
	git -C "$LINUX" show "upstream:tools/testing/selftests/bpf/$f" >"$T/upstream/tree/tools/testing/selftests/bpf/$f"
done
"$KIT/grading/lab5/run-lab5" --quiet --tree "$T/upstream/tree" --out "$T/upstream/run" >/dev/null 2>&1
for id in lab5.builds lab5.runs lab5.report_format lab5.report_agrees lab5.latency_falls; do
	expect_verdict "lab5: upstream's own benchmark, unchanged, passes $id" "$T/upstream/run/results.tsv" $id pass
done
fixture() { "$KIT/grading/lab5/run-lab5" --quiet --tree "$KIT/tests/fixtures/lab5-$1" --out "$T/$1" >/dev/null 2>&1; }
fixture no-loop
expect_verdict "lab5: a program that never calls bpf_loop builds" "$(tsv no-loop)" lab5.builds pass
expect_verdict "lab5: ... and fails lab5.runs" "$(tsv no-loop)" lab5.runs fail
expect_grep "lab5: ... which says the program makes no bpf_loop call" $'^lab5.runs\tfail\t.*no bpf_loop call' "$(tsv no-loop)"
expect_verdict "lab5: ... and lab5.report_agrees: the kernel counted no loops" "$(tsv no-loop)" lab5.report_agrees fail
fixture wrong-unit
expect_verdict "lab5: hits counted per bpf_loop call still run bpf_loop" "$(tsv wrong-unit)" lab5.runs pass
expect_verdict "lab5: ... but fail lab5.report_agrees" "$(tsv wrong-unit)" lab5.report_agrees fail
expect_grep "lab5: ... which names the kernel's count of loops" $'^lab5.report_agrees\tfail\t.*the kernel counted' "$(tsv wrong-unit)"
fixture wrong-report
expect_verdict "lab5: a benchmark reporting with hits_drops_report_final still runs" "$(tsv wrong-report)" lab5.runs pass
expect_verdict "lab5: ... but fails lab5.report_format" "$(tsv wrong-report)" lab5.report_format fail
expect_grep "lab5: ... which says the summary is not upstream's ops format" $'^lab5.report_format\tfail\t.*not in upstream.s format' "$(tsv wrong-report)"
fixture forged
expect_verdict "lab5: a benchmark that forges its figures and the kit's lines still runs" "$(tsv forged)" lab5.runs pass
expect_verdict "lab5: ... and its summary agrees with itself" "$(tsv forged)" lab5.report_format pass
expect_verdict "lab5: ... but fails lab5.report_agrees" "$(tsv forged)" lab5.report_agrees fail
if [ "$(grep -c '^lab5-run ' "$T/forged/run/output")" = 2 ] && [ "$(grep -c '^lab5-exit ' "$T/forged/run/output")" = 2 ] &&
	[ "$(grep -c '^lab5-out lab5-sample ' "$T/forged/run/output")" = 12 ]; then
	pass "lab5: ... its copies of the kit's lines reach the host escaped, as its output"
else
	fail "lab5: ... its copies of the kit's lines reach the host escaped, as its output" "$T/forged/run/output"
fi
fixture reach
for id in lab5.runs lab5.report_format lab5.report_agrees lab5.latency_falls; do
	expect_verdict "lab5: a benchmark that tries to reach the kit's accountant is still measured: $id" "$(tsv reach)" $id pass
done
refused=$(grep -c '^lab5-out reach: .*: refused (' "$T/reach/run/output" || true)
done_=$(grep -c '^lab5-out reach: .*: DONE' "$T/reach/run/output" || true)
if [ "$refused" = 20 ] && [ "$done_" = 0 ]; then
	pass "lab5: ... and every try, in both runs, is refused (signal, ptrace, memory, BPF ids, statistics, run id, result channel, bpffs, root)"
else
	fail "lab5: ... and every try, in both runs, is refused" "$refused refused, $done_ done: $T/reach/run/output"
fi
"$KIT/grading/lab5/run-lab5" --quiet --ref solution/03 --out "$T/none" >/dev/null 2>&1
expect_verdict "lab5: a tree without a benchmark does not build" "$(tsv none)" lab5.builds fail
expect_grep "lab5: ... and the reason names the missing file" $'^lab5.builds\tfail\t.*bpf_loop_bench.c is missing' "$(tsv none)"
