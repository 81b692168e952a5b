# Lab 4, judged against the kit's own unrolled programs (built from base)
# and on the kit's inputs (fake Python stacks and strobe variables, from a
# fresh seed each run):
# - the reference passes every lab 4 test on solution/03, and the kit's
#   unrolled programs agree with the judge's model of what they leave;
# - the judge, on the host alone: the unrolled programs' own runs pass as a
#   student's; a changed figure, another seed or a tampered record fail;
# - a tree without the bpf_loop versions (base's) fails with the missing
#   file named;
# - known-wrong conversions (tests/fixtures/lab4-wrong: one never calls
#   bpf_loop, one calls it but still unrolls) are caught, and a tree that
#   bloats its own unrolled programs (lab4-bloat) does not move the
#   baseline: they are never built;
# - a callback that does nothing (lab4-empty) fails the behaviour tests;
# - upstream's own files load, call bpf_loop and scale, but fail the
#   behaviour tests: pyperf's callback never moves to the next frame, and
#   strobemeta's read_strobe_meta() returns the payload before it;
# - a program that does not compute what the unrolled one does scores
#   none of loads, calls_loop and scale (each rests on the behaviour).
# The unrolled programs are measured once per reference kernel and kit, by
# the first run here; the others take their figures and runs from
# work/cache/lab4. Under TCG on a loaded host the file took 3 min 46 s with
# nothing cached and 1 min 43 s to 2 min 3 s with the cache.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab4
rm -rf "$T"
mkdir -p "$T"
PROGS=tools/testing/selftests/bpf/progs

# tree DIR REF:FILE... FIXTURE...: a tree with files from commits of the
# work tree and from the kit's fixtures.
tree() {
	local dir=$1 f
	shift
	mkdir -p "$dir/$PROGS"
	for f in "$@"; do
		case $f in
		*:*) git -C "$LINUX" show "${f%%:*}:$PROGS/${f#*:}" >"$dir/$PROGS/${f#*:}" ;;
		*) cp "$KIT/tests/fixtures/$f" "$dir/$PROGS/" ;;
		esac
	done
}
reason() { awk -F'\t' -v id="$2" '$1 == id { print $4 }' "$1/results.tsv"; }

"$KIT/grading/lab4/run-lab4" --quiet --ref solution/04 --out "$T/reference" >/dev/null 2>"$T/reference.err"
for id in $("$BIN/plan" list --where lab4 | cut -f1); do
	expect_verdict "lab4: the reference passes $id" "$T/reference/results.tsv" "$id" pass
done
# The figures behind the verdicts: what the guest wrote.
awk '/^verif name=pyperf600_bpf_loop / { for (i = 1; i <= NF; i++) if ($i ~ /^loop_calls=/) print substr($i, 12) }' \
	"$T/reference/verif/output" >"$T/loop_calls"
if [ "$(cat "$T/loop_calls")" = 5 ]; then
	pass "lab4: the reference pyperf600_bpf_loop calls helper 181 once per inlined __on_event (5)"
else
	fail "lab4: the reference pyperf600_bpf_loop calls helper 181 5 times" "got '$(cat "$T/loop_calls")' ($T/reference/verif/output)"
fi
pristine=$(sed -n 's/.*the unrolled programs.* runs: \(.*\)$/\1/p' "$T/reference/lab4.ktap")
case $pristine in
"$WORK"/cache/lab4/pristine-*.rec) pass "lab4: the unrolled programs' figures and runs come from the kit's cache" ;;
*) fail "lab4: the unrolled programs' figures and runs come from the kit's cache" "got '$pristine'" ;;
esac
seed=$(cat "$T/reference/seed")
expect_grep "lab4: the reference ran on the inputs of its seed" "^exercise name=pyperf600_bpf_loop kind=pyperf seed=$seed cases=4\$" \
	"$T/reference/verif/output"
expect_status "lab4: the kit's unrolled programs agree with the judge's model (lab4-judge --self-check)" 0 \
	"$BIN/lab4-judge" --self-check "$pristine"
# The judge's tests are the registry's: its ids, their number, their order.
expect_status "lab4: the judge lists the tests grading/tests.list gives lab 4" 0 \
	diff <("$BIN/lab4-judge" --list) <("$BIN/plan" list --where lab4 | cut -f1)
grep -v '^lab4\.strobemeta_scale ' "$KIT/grading/tests.list" >"$T/tests-less.list"
(cat "$KIT/grading/tests.list" && echo 'lab4.pyperf600_fast 4 1 lab4 a test no check judges') >"$T/tests-more.list"
for t in less more; do
	"$BIN/lab4-judge" --tests "$T/tests-$t.list" --seed "$seed" --pristine "$pristine" \
		--student "$T/reference/verif/output" >"$T/judge-$t.ktap" 2>"$T/judge-$t.err" && st=0 || st=$?
	[ "$st" = 2 ] && grep -q 'lab4-judge: .*\(strobemeta_scale has no line\|pyperf600_fast, which no check\)' "$T/judge-$t.err" &&
		pass "lab4: a table with one test $t than the judge's checks stops the judge, naming the test" ||
		fail "lab4: a table with one test $t than the judge's checks stops the judge, naming the test" \
			"status $st: $(cat "$T/judge-$t.err")"
done

# The judge on the host alone, on the unrolled programs' own runs.
useed=$(sed -n 's/^exercise name=pyperf600 kind=pyperf seed=\([0-9a-f]*\) .*/\1/p' "$pristine")
sed -E 's/^(verif|exercise|obs[a-z-]*) name=(pyperf600|strobemeta) /\1 name=\2_bpf_loop /' "$pristine" >"$T/as-student"
judge() { # judge OUT STUDENT-FILE [SEED]
	"$BIN/lab4-judge" --seed "${3:-$useed}" --pristine "$pristine" --student "$2" >"$1.ktap" 2>"$1.err"
	"$BIN/ktap" "$1.ktap" >"$1.tsv"
}
judge "$T/judge-same" "$T/as-student"
expect_verdict "lab4-judge: the unrolled pyperf600's own runs pass as a student's" "$T/judge-same.tsv" lab4.pyperf600_walks_stack pass
expect_verdict "lab4-judge: the unrolled strobemeta's own runs pass as a student's" "$T/judge-same.tsv" lab4.strobemeta_reads_values pass
expect_verdict "lab4-judge: ... but not the scale test (100% of the baseline)" "$T/judge-same.tsv" lab4.pyperf600_scale fail
sed '0,/^obs-stats name=pyperf600_bpf_loop case=2 success=5$/s//obs-stats name=pyperf600_bpf_loop case=2 success=4/' \
	"$T/as-student" >"$T/tampered"
judge "$T/judge-tampered" "$T/tampered"
expect_verdict "lab4-judge: one changed counter fails walks_stack" "$T/judge-tampered.tsv" lab4.pyperf600_walks_stack fail
expect_grep "lab4-judge: ... and the reason names the input and the counter" \
	$'^lab4.pyperf600_walks_stack\tfail\t.*input 3 \\(.*statsmap counts 4 walks, the unrolled pyperf600 5' "$T/judge-tampered.tsv"
expect_grep "lab4-judge: ... and with it the loads point, which rests on the program computing right" \
	$'^lab4.pyperf600_loads\tfail\t.*loads, but does not compute what the kit.s unrolled pyperf600 does \(lab4.pyperf600_walks_stack\): input 3' \
	"$T/judge-tampered.tsv"
for id in pyperf600_calls_loop pyperf600_scale; do
	expect_verdict "lab4-judge: ... and $id" "$T/judge-tampered.tsv" "lab4.$id" fail
done
# (The unrolled strobemeta makes no bpf_loop call: its calls_loop and
# scale fail whatever is tampered.)
for id in strobemeta_loads strobemeta_reads_values; do
	expect_verdict "lab4-judge: ... and nothing of the other program: $id" "$T/judge-tampered.tsv" "lab4.$id" pass
done
# One input's sample reported for another.
awk '/^obs-sample name=strobemeta_bpf_loop case=0 / { first = $0; sub(/case=0/, "case=1", first) }
	/^obs-sample name=strobemeta_bpf_loop case=1 / { print first; next } { print }' "$T/as-student" >"$T/swapped"
judge "$T/judge-swapped" "$T/swapped"
expect_verdict "lab4-judge: a sample of another input fails reads_values" "$T/judge-swapped.tsv" lab4.strobemeta_reads_values fail
judge "$T/judge-seed" "$T/as-student" 0123456789abcdef
expect_grep "lab4-judge: runs on another seed fail" \
	$'^lab4.pyperf600_walks_stack\tfail\t.*on seed [0-9a-f]{16}, not 0123456789abcdef' "$T/judge-seed.tsv"
sed 's/^obs-stats name=pyperf600 case=2 success=5$/obs-stats name=pyperf600 case=2 success=4/' "$pristine" >"$T/pristine-tampered"
expect_status "lab4-judge: a model the unrolled programs disagree with stops the judge (exit 3)" 3 \
	"$BIN/lab4-judge" --self-check "$T/pristine-tampered"

"$KIT/grading/lab4/run-lab4" --quiet --ref base --out "$T/base" >/dev/null 2>&1
expect_verdict "lab4: base's programs (no bpf_loop version) do not build" "$T/base/results.tsv" lab4.builds fail
expect_grep "lab4: ... and the reason names the missing file" \
	$'^lab4.builds\tfail\t.*pyperf600_bpf_loop.c is missing' "$T/base/results.tsv"
expect_verdict "lab4: base has no pyperf600_bpf_loop to load" "$T/base/results.tsv" lab4.pyperf600_loads fail
expect_verdict "lab4: base has no strobemeta_bpf_loop to scale" "$T/base/results.tsv" lab4.strobemeta_scale fail
expect_verdict "lab4: base has no strobemeta_bpf_loop to run" "$T/base/results.tsv" lab4.strobemeta_reads_values fail

# Known-wrong conversions, beside a student's own bloated unrolled programs.
tree "$T/wrong-tree" solution/04:pyperf.h solution/04:strobemeta.h lab4-wrong/pyperf600_bpf_loop.c \
	lab4-wrong/strobemeta_bpf_loop.c lab4-bloat/pyperf600.c lab4-bloat/strobemeta.c
"$KIT/grading/lab4/run-lab4" --quiet --tree "$T/wrong-tree" --out "$T/wrong" >/dev/null 2>&1
expect_verdict "lab4: the known-wrong programs build" "$T/wrong/results.tsv" lab4.builds pass
expect_grep "lab4: a conversion that still unrolls loads, but scores no loads point: it does not compute what the unrolled one does" \
	$'^lab4.pyperf600_loads\tfail\t.*pyperf600_bpf_loop loads, but does not compute' "$T/wrong/results.tsv"
expect_grep "lab4: ... and calls bpf_loop, but scores no calls_loop point" \
	$'^lab4.pyperf600_calls_loop\tfail\t.*calls helper 181, but does not compute' "$T/wrong/results.tsv"
expect_verdict "lab4: ... but is caught by the scale test" "$T/wrong/results.tsv" lab4.pyperf600_scale fail
baseline=$(awk '/^verif name=pyperf600 / { for (i = 1; i <= NF; i++) if ($i ~ /^processed=/) print substr($i, 11) }' "$pristine")
grouped=$(echo "$baseline" | sed ':a; s/\B[0-9]\{3\}\>/,&/; ta')
case $(reason "$T/wrong" lab4.pyperf600_scale) in
*"insns for pyperf600_bpf_loop, "*"% of the kit's unrolled pyperf600's $grouped "*)
	pass "lab4: ... against the kit's baseline ($grouped insns), not the tree's bloated pyperf600.c" ;;
*) fail "lab4: ... against the kit's baseline ($grouped insns), not the tree's bloated pyperf600.c" \
	"reason: $(reason "$T/wrong" lab4.pyperf600_scale)" ;;
esac
if [ -d "$T/wrong/build" ] && [ -z "$(find "$T/wrong/build" -name pyperf600.c -o -name pyperf600.bpf.o)" ]; then
	pass "lab4: the tree's own unrolled programs are not even copied"
else
	fail "lab4: the tree's own unrolled programs are not even copied" "see $T/wrong/build"
fi
expect_verdict "lab4: ... and its 100-frame Event is not pyperf600's" "$T/wrong/results.tsv" lab4.pyperf600_walks_stack fail
expect_grep "lab4: ... which the reason says" \
	$'^lab4.pyperf600_walks_stack\tfail\t.*map eventmap is not the unrolled program' "$T/wrong/results.tsv"
expect_grep "lab4: a shorter unrolled strobemeta loads, but scores no loads point" \
	$'^lab4.strobemeta_loads\tfail\t.*strobemeta_bpf_loop loads, but does not compute' "$T/wrong/results.tsv"
expect_verdict "lab4: ... but is caught: no call to helper 181" "$T/wrong/results.tsv" lab4.strobemeta_calls_loop fail
expect_grep "lab4: ... and the reason says so" \
	$'^lab4.strobemeta_calls_loop\tfail\t.*no call to helper 181' "$T/wrong/results.tsv"

# Callbacks that do nothing, and upstream's own conversions: two trees, each
# program once of each kind.
tree "$T/empty-tree" solution/04:pyperf.h lab4-empty/pyperf600_bpf_loop.c \
	upstream:strobemeta.h upstream:strobemeta_bpf_loop.c
"$KIT/grading/lab4/run-lab4" --quiet --tree "$T/empty-tree" --out "$T/empty" >/dev/null 2>&1
tree "$T/upstream-tree" upstream:pyperf.h upstream:pyperf600_bpf_loop.c \
	solution/04:strobemeta.h lab4-empty/strobemeta_bpf_loop.c
"$KIT/grading/lab4/run-lab4" --quiet --tree "$T/upstream-tree" --out "$T/upstream" >/dev/null 2>&1
# Each program loads, calls bpf_loop and scales, but computes the wrong
# thing: none of those three points is worth anything then.
for run in empty upstream; do
	expect_verdict "lab4 ($run tree): lab4.builds passes" "$T/$run/results.tsv" lab4.builds pass
	for id in pyperf600_loads pyperf600_calls_loop pyperf600_scale strobemeta_loads \
		strobemeta_calls_loop strobemeta_scale; do
		expect_grep "lab4 ($run tree): lab4.$id fails, for the behaviour alone" \
			"^lab4.$id"$'\tfail\t.*(loads, but|calls helper 181, but|insns for [a-z0-9_]+, but a program that) does not compute' \
			"$T/$run/results.tsv"
	done
done
expect_verdict "lab4: a pyperf600_bpf_loop whose callback does nothing fails walks_stack" \
	"$T/empty/results.tsv" lab4.pyperf600_walks_stack fail
expect_grep "lab4: ... the stack it leaves is not the unrolled program's" \
	$'^lab4.pyperf600_walks_stack\tfail\t[0-9.]+\tinput 1 \\(.*\\): event\\.stack_len was not written' "$T/empty/results.tsv"
expect_verdict "lab4: a strobemeta_bpf_loop whose callback does nothing fails reads_values" \
	"$T/upstream/results.tsv" lab4.strobemeta_reads_values fail
expect_grep "lab4: ... it leaves the sample as it was" \
	$'^lab4.strobemeta_reads_values\tfail\t[0-9.]+\tinput 1 \\(.*\\): [a-z_.]+(\\[[0-9]+\\])? was not written' "$T/upstream/results.tsv"
expect_verdict "lab4: upstream's pyperf600_bpf_loop fails walks_stack (its callback rereads the first frame)" \
	"$T/upstream/results.tsv" lab4.pyperf600_walks_stack fail
expect_grep "lab4: ... the reason shows a stack or map the unrolled program does not leave" \
	$'^lab4.pyperf600_walks_stack\tfail\t[0-9.]+\tinput [0-9] \\(.*\\): (event\\.stack|symbolmap)' "$T/upstream/results.tsv"
expect_verdict "lab4: upstream's strobemeta_bpf_loop fails reads_values (it returns the payload before it)" \
	"$T/empty/results.tsv" lab4.strobemeta_reads_values fail
expect_grep "lab4: ... the sample it sends stops before the payload" \
	$'^lab4.strobemeta_reads_values\tfail\t[0-9.]+\tinput 1 \\(.*\\): perf record 1 holds [0-9]+ bytes, the unrolled strobemeta.s [0-9]+: the sample up to the end of its payload' \
	"$T/empty/results.tsv"
