# The reference solutions: each solution/NN passes labs 0..NN; upstream
# (the kernel as shipped) passes every test of labs 1 and 2 too; at base
# every lab 1 and 2 test fails cleanly (no crash, no hang).
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/solutions
rm -rf "$T"
mkdir -p "$T"

# All verdicts of a results.tsv that are not VERDICT, as "id verdict" lines.
others() { awk -F'\t' -v want="$2" '$2 != want { print $1 " " $2 ": " $4 }' "$1"; }

for d in "$KIT"/solutions/[0-9][0-9]-*/; do
	n=$(basename "$d" | cut -c1-2)
	lab=$((10#$n))
	# Lab 3 and later are checked by their own tests.
	[ "$lab" -le 2 ] || continue
	if ! image=$(kernel_at "solution/$n" 2>"$T/build-$n.err"); then
		fail "solution/$n builds" "$(tail -n 15 "$T/build-$n.err")"
		continue
	fi
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$T/solution-$n" --lab "$lab" || true
	bad=$(others "$T/solution-$n/results.tsv" pass)
	count=$(wc -l <"$T/solution-$n/results.tsv")
	if [ -z "$bad" ] && [ "$count" -gt 0 ]; then
		pass "solution/$n passes all $count tests of labs 0..$lab"
	else
		fail "solution/$n passes all tests of labs 0..$lab" "$bad"
	fi
done

# The host's judge on the reference's report (grading/suite/judge.c): a
# report is only believed when it is this run's and says what its own
# observations say. Each case changes one thing of a real report.
R=$T/solution-02
if [ -s "$R/boot-1/output" ] && [ -s "$R/seed" ]; then
	seed=$(cat "$R/seed") plan=$(cat "$R/plan")
	J=$T/judge
	judge() { # CASE: judge $J/CASE/output with the run's seed; prints the verdicts
		"$BIN/suite-judge" --seed "${2:-$seed}" --plan "$plan" --state "$J/$1/state" "$J/$1" 2>/dev/null |
			cut -f2 | sort | uniq -c | awk '{ printf "%s %s;", $1, $2 }'
	}
	case_of() { mkdir -p "$J/$1"; }
	case_of same && cp "$R/boot-1/output" "$J/same/output"
	n=$(wc -l <"$R/results.tsv")
	[ "$(judge same)" = "$n pass;" ] && pass "judge: the reference's own report, judged again, passes all $n tests" ||
		fail "judge: the reference's own report, judged again, passes all $n tests" "$(judge same)"
	case_of replay && cp "$R/boot-1/output" "$J/replay/output"
	[ "$(judge replay $((seed + 1)))" = "$n tampered;" ] &&
		grep -q "not this run's\|another seed" "$J/replay/state" &&
		pass "judge: the same report under another run's seed (a replay) is tampered, every test" ||
		fail "judge: the same report under another run's seed (a replay) is tampered, every test" "$(judge replay $((seed + 1)))"
	case_of flipped
	awk '/^    not ok / { print; next } /^    ok [0-9]+ lab2\.early_stop$/ { sub(/ok/, "not ok") } { print }' \
		"$R/boot-1/output" >"$J/flipped/output"
	[ "$(judge flipped)" = "$n tampered;" ] && pass "judge: a guest verdict its observations do not support is tampering" ||
		fail "judge: a guest verdict its observations do not support is tampering" "$(judge flipped)"
	case_of forged
	sed -E 's/^(    # obs inline\.result=).*/\1999/' "$R/boot-1/output" >"$J/forged/output"
	[ "$(judge forged)" = "$n tampered;" ] && pass "judge: an observation changed under an 'ok' is tampering" ||
		fail "judge: an observation changed under an 'ok' is tampering" "$(judge forged)"
	case_of skipped
	sed -E '0,/^    ok ([0-9]+) (lab1\.[a-z_]+)$/s//    ok \1 \2 # SKIP no reason/' "$R/boot-1/output" >"$J/skipped/output"
	[ "$(judge skipped)" = "$n tampered;" ] && pass "judge: a skipped test (the suite never skips) is tampering" ||
		fail "judge: a skipped test (the suite never skips) is tampering" "$(judge skipped)"
	case_of twice
	{ cat "$R/boot-1/output"; grep -A1000 -m1 '# running lab2.nested' "$R/boot-1/output"; } >"$J/twice/output"
	[ "$(judge twice)" = "$n tampered;" ] && pass "judge: a test reported twice is tampering" ||
		fail "judge: a test reported twice is tampering" "$(judge twice)"
	case_of cut
	sed -n '1,/# running lab2.nested/p' "$R/boot-1/output" >"$J/cut/output"
	echo "crashed BUG: kernel NULL pointer dereference" >"$J/cut/end"
	verdicts=$(judge cut)
	if grep -q $'^state\tresume$' "$J/cut/state" && grep -q $'^after\tlab2.nested$' "$J/cut/state" &&
		[[ $verdicts == *"1 crash;"* ]]; then
		pass "judge: a report cut short by a crash: that test crashed, the next boot resumes after it"
	else
		fail "judge: a report cut short by a crash: that test crashed, the next boot resumes after it" "$verdicts $(cat "$J/cut/state")"
	fi
else
	fail "judge: the reference's report is there to judge again" "$R"
fi

upstream=$(kernel_at upstream 2>/dev/null) || { fail "upstream builds"; exit 0; }
"$KIT/grading/pipeline/run-suite" --quiet --kernel "$upstream" --out "$T/upstream" --lab 2 || true
# One known difference: upstream's 6.0 inlining loads -E2BIG into R0 with a
# 32-bit move, so on the path it inlines bpf_loop returns 0xfffffff9 where
# the helper returns -7 as a 64-bit long. Everything else must agree.
bad=$(others "$T/upstream/results.tsv" pass | grep -v '^lab2.limits_still_hold ' || true)
if [ -z "$bad" ]; then pass "upstream passes every other lab 0..2 test (the tests agree with upstream)"; else fail "upstream passes every other lab 0..2 test" "$bad"; fi
if awk -F'\t' '$1 == "lab2.limits_still_hold" && $2 == "fail" && $4 ~ /_inline/ && $4 ~ /got 4294967289/' \
	"$T/upstream/results.tsv" | grep -q .; then
	pass "upstream's inlined bpf_loop returns -E2BIG zero-extended from 32 bits (0xfffffff9)"
else
	fail "upstream's inlined bpf_loop returns -E2BIG zero-extended from 32 bits" \
		"$(grep '^lab2.limits_still_hold' "$T/upstream/results.tsv")"
fi

base=$(kernel_at base 2>/dev/null) || { fail "base builds"; exit 0; }
"$KIT/grading/pipeline/run-suite" --quiet --kernel "$base" --out "$T/base" --lab 2 || true
bad=$(awk -F'\t' '$1 ~ /^lab[12]\./ && $2 != "fail" { print $1 " " $2 ": " $4 }' "$T/base/results.tsv")
nfail=$(awk -F'\t' '$1 ~ /^lab[12]\./ && $2 == "fail"' "$T/base/results.tsv" | wc -l)
want=$("$BIN/plan" list --lab 2 | awk '$1 ~ /^lab[12]\./' | wc -l)
if [ -z "$bad" ] && [ "$nfail" = "$want" ] && [ "$want" -gt 0 ]; then
	pass "base: all $want lab 1 and 2 tests fail, none crashes or hangs"
else
	fail "base: all lab 1 and 2 tests fail, none crashes or hangs" "$nfail of $want failed" "$bad"
fi
noreason=$(awk -F'\t' '$1 ~ /^lab[12]\./ && $4 == "" { print $1 }' "$T/base/results.tsv")
if [ -z "$noreason" ]; then pass "base: every failure says why"; else fail "base: every failure says why" "$noreason"; fi
