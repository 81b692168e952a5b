# make grade end to end: the bundled samples score as recorded; a run
# stopped half-way resumes and loses nothing; hostile and broken
# submissions get their verdicts and leak nothing of the host; an
# instructor's extra tests and rubric count; runs from several machines
# merge; make handin's output grades.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/grade
rm -rf "$T"
mkdir -p "$T"
col() { awk -F'\t' -v id="$2" -v c="$3" '$1 == id { print $c }' "$1"; }
total() { cell "$1" "$2" total; }

# ---- bad arguments: a clear error, exit 2, nothing graded ----
# (The grader itself, for its exit status: make says 2 for any failure.)
expect_status "grade: a missing submissions folder is refused" 2 "$KIT/grading/instructor/grade" --submissions "$T/nowhere" --out "$T/bad"
expect_grep "grade: ... and the error names it" "SUBMISSIONS=$T/nowhere is not a folder" <(make -s -C "$KIT" grade SUBMISSIONS="$T/nowhere" OUT="$T/bad" 2>&1)
expect_status "grade: JOBS must be a number" 2 "$KIT/grading/instructor/grade" --jobs many --out "$T/bad"
printf 'lab1.a one\n' >"$T/bad-rubric"
expect_status "grade: a broken rubric is refused before any grading" 2 "$KIT/grading/instructor/grade" --rubric "$T/bad-rubric" --out "$T/bad"
echo 'echo hi' >"$T/not-executable"
expect_status "grade: EXTRA_TESTS must be an executable" 2 "$KIT/grading/instructor/grade" --extra-tests "$T/not-executable" --out "$T/bad"
[ ! -d "$T/bad/students" ] || [ -z "$(ls "$T/bad/students")" ] && pass "grade: bad arguments grade no one" ||
	fail "grade: bad arguments grade no one"

# ---- the samples, against their recorded expectations ----
ts=$(now)
make -s -C "$KIT" grade OUT="$T/samples" >"$T/samples.log" 2>&1
rc=$?
secs=$(awk -v a="$ts" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
echo "# make grade (the samples) took ${secs}s"
[ "$rc" = 0 ] && pass "grade: make grade grades the samples (exit 0)" || { fail "grade: make grade grades the samples (exit 0)"; tail -n 20 "$T/samples.log" | sed 's/^/#   /'; }
while read -r student status points rest; do
	case $student in '' | '#'*) continue ;; esac
	s=$T/samples/students/$student
	got_status=$(col "$s/status" status 2)
	got_points=$(total "$T/samples" "$student")
	if [ "$got_status" = "$status" ] && [ "$got_points" = "$points" ]; then
		pass "samples: $student is $status with $points points"
	else
		fail "samples: $student is $status with $points points" "got ${got_status:-nothing} with ${got_points:-no} points ($s/feedback.md)"
	fi
	for tv in $rest; do
		id=${tv%%=*} want=${tv#*=}
		got=$(col "$s/scores.tsv" "$id" 3)
		[ "$got" = "$want" ] && pass "samples: $student: $id is $want" ||
			fail "samples: $student: $id is $want" "got ${got:-no result}: $(col "$s/scores.tsv" "$id" 7)"
	done
done <"$KIT/grading/samples-expect"
# The kit ships its reference: a lab whose change is the reference's own
# is marked for a person to read (gradebook flags reference:N), and a lab
# the student wrote is not; the points stay the tests'.
# (From the student's status file: the gradebook quotes a field with commas.)
reflabs() { meta_value "$T/samples/students/$1/status" flags | sed -n 's/.*reference:\([0-9,]*\).*/,\1,/p'; }
nlabs=$(basename "$(find "$KIT/solutions" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' | sort | tail -n 1)" | cut -c1-2)
[ "$(reflabs reference)" = ",$(seq -s, 1 "$((10#$nlabs))")," ] &&
	pass "samples: the reference is marked as the kit's reference for every lab" ||
	fail "samples: the reference is marked as the kit's reference for every lab" "flags: $(meta_value "$T/samples/students/reference/status" flags)"
[[ $(reflabs off-by-one) != *,1,* ]] && [[ $(reflabs off-by-one) == *,2,* ]] &&
	[[ $(reflabs oops-lab2) != *,2,* ]] && [[ $(reflabs oops-lab2) == *,1,* ]] &&
	pass "samples: off-by-one's own lab 1 and oops-lab2's own lab 2 are not marked; the labs they took as shipped are" ||
	fail "samples: off-by-one's own lab 1 and oops-lab2's own lab 2 are not marked; the labs they took as shipped are" \
		"off-by-one: $(meta_value "$T/samples/students/off-by-one/status" flags); oops-lab2: $(meta_value "$T/samples/students/oops-lab2/status" flags)"
expect_grep "samples: the summary says which lab matches the reference" 'matches the reference \(lab 2\)' "$T/samples/summary.md"
# The samples are committed copies made from solutions/ (grading/instructor/make-samples):
# what the grader built must be the reference series as solutions/ has it now.
last=$(basename "$(find "$KIT/solutions" -mindepth 1 -maxdepth 1 -type d -name '[0-9][0-9]-*' | sort | tail -n 1)" | cut -c1-2)
for sv in "reference solution/$last" "only-lab1 solution/01"; do
	set -- "${sv% *}" "${sv#* }"
	got=$(git -C "$LINUX" rev-parse -q --verify "$(col "$T/samples/students/$1/meta" commit 2)^{tree}" 2>/dev/null)
	[ -n "$got" ] && [ "$got" = "$(git -C "$LINUX" rev-parse "$2^{tree}")" ] &&
		pass "samples: $1 builds the same tree as $2" ||
		fail "samples: $1 builds the same tree as $2" "the sample is stale: run grading/instructor/make-samples, check, commit"
done
# One pipeline: tests/65-student.t's make check of the lab-1 state (N=2)
# graded the tree of only-lab1; make grade must give each test it ran the
# same verdict and points.
C=$TESTS_OUT/student/lab1-state
if [ ! -s "$C.scores.tsv" ]; then
	echo "# skip: make check and make grade agree (tests/65-student.t left no scores: run it first)"
else
	name="one pipeline: make check N=2 and make grade score the tree of only-lab1 alike, test by test"
	g=$T/samples/students/only-lab1
	want=$(git -C "$LINUX" rev-parse -q --verify "$(col "$g/meta" commit 2)^{tree}")
	mine=$(awk -F'\t' 'NR == FNR { v[$1] = $3 "\t" $4 "\t" $5; next }
		{ print $1 "\t" $3 "\t" $4 "\t" $5 "\t|\t" ($1 in v ? v[$1] : "no grade") }' \
		"$g/scores.tsv" "$C.scores.tsv" | awk -F'\t' '$2 "\t" $3 "\t" $4 != $6 "\t" $7 "\t" $8')
	if [ "$(cat "$C.tree")" != "$want" ]; then
		fail "$name" "make check graded tree $(cat "$C.tree"), make grade $want"
	elif [ "$(wc -l <"$C.scores.tsv")" -lt 20 ] || [ -n "$mine" ]; then
		fail "$name" "$(wc -l <"$C.scores.tsv") tests; ID, check's verdict, points, of | grade's:" "$mine"
	else
		pass "$name ($(wc -l <"$C.scores.tsv") tests)"
	fi
fi
expect_grep "samples: after each student, progress gives the time left" '^ +5 of 6 done; about [0-9]+ min left$' "$T/samples.log"
for f in gradebook.csv results.json junit.xml summary.md; do
	[ -s "$T/samples/$f" ] || fail "samples: the run wrote $f"
done
check "samples: results.json is valid and names the kernel and base of each graded student" \
	jq -e '[.students[] | select(.status == "graded") | (.commit | length) == 40 and (.base | length) == 40 and (.kernel | length) > 0] | all' "$T/samples/results.json"
check "samples: junit.xml is well-formed" xmllint --noout "$T/samples/junit.xml"
expect_grep "samples: the oops is a crash verdict with the oops line" $'\tcrash\t.*BUG: kernel NULL pointer dereference' "$T/samples/students/oops-lab2/scores.tsv"
expect_grep "samples: the oops student's feedback gives the console's reason" 'crash.*BUG' "$T/samples/students/oops-lab2/feedback.md"
expect_grep "samples: a build failure's feedback shows the compiler's error" "error: .BPF_MAX_LOOP. undeclared" "$T/samples/students/no-build/feedback.md"
expect_grep "samples: a patch that does not apply is named with git's reason" 'does not apply on base: error: patch failed' "$T/samples/students/no-apply/status"
expect_grep "samples: time.txt travels into the report" $'^time\thours: 9' "$T/samples/students/off-by-one/meta"
[ -f "$T/samples/students/off-by-one/answers.md" ] && pass "samples: answers.md is carried for the instructor" ||
	fail "samples: answers.md is carried for the instructor"
expect_grep "samples: progress is one line per student and stage" '^    \[[0-9]/[0-9] reference\] building its kernel' "$T/samples.log"
expect_grep "samples: the summary gives the score distribution" '^Mean [0-9.]+%, median' "$T/samples/summary.md"

# ---- a replay: the stages before REPLAY= are reused, the grades identical ----
R=$T/replay
cp -a "$T/samples" "$R"
verdicts() { for f in "$1"/students/*/scores.tsv; do printf '%s ' "$(basename "$(dirname "$f")")"; cut -f1-5 "$f" | paste -sd' ' -; done; }
ts=$(now)
make -s -C "$KIT" grade OUT="$R" REPLAY=score >"$T/replay.log" 2>&1 &&
	pass "replay: make grade REPLAY=score runs (exit 0)" || fail "replay: make grade REPLAY=score runs (exit 0)" "$(tail -n 5 "$T/replay.log")"
echo "# make grade REPLAY=score (6 students) took $(elapsed "$ts")"
[ "$(verdicts "$R")" = "$(verdicts "$T/samples")" ] && [ -n "$(verdicts "$R")" ] &&
	pass "replay: REPLAY=score gives every sample the same verdicts and points" ||
	fail "replay: REPLAY=score gives every sample the same verdicts and points" "diff $T/samples $R (scores.tsv)"
! grep -qE 'applying|building its kernel|booting' "$T/replay.log" && grep -q 'from its stage score' "$T/replay.log" &&
	cmp -s "$T/samples/students/reference/build.log" "$R/students/reference/build.log" &&
	pass "replay: ... without applying, building or booting anything (the earlier stages' files are kept)" ||
	fail "replay: ... without applying, building or booting anything (the earlier stages' files are kept)" "$T/replay.log"
printf 'lab1.program_types 1 5\n' >"$T/replay-rubric"
make -s -C "$KIT" grade OUT="$R" REPLAY=score RUBRIC="$T/replay-rubric" >"$T/replay2.log" 2>&1
[ "$(total "$R" reference)" = "$(awk -v t="$(total "$T/samples" reference)" 'BEGIN { print t + 3 }')" ] &&
	[ "$(col "$R/students/reference/scores.tsv" lab1.program_types 4)" = 5 ] &&
	pass "replay: a new rubric replayed from score: the reference gains its 3 points" ||
	fail "replay: a new rubric replayed from score: the reference gains its 3 points" "total $(total "$R" reference), was $(total "$T/samples" reference)"
# One student's tests again on its kept kernel; the build is the kept one.
s=$R/students/only-lab1
"$KIT/grading/pipeline/run" --grade --id only-lab1 --folder "$KIT/grading/samples/only-lab1" --out "$s" --slot 1 \
	--from tests >"$T/replay3.log" 2>&1
[ "$(cut -f1-5 "$s/scores.tsv")" = "$(cut -f1-5 "$T/samples/students/only-lab1/scores.tsv")" ] &&
	pass "replay: only-lab1 --from tests: every test's verdict and points as graded whole" ||
	fail "replay: only-lab1 --from tests: every test's verdict and points as graded whole" "$s/scores.tsv"
[ "$(grep -v '^tests\|^private\|^score' "$s/stages/ran")" = "$(grep -v '^tests\|^private\|^score' "$T/samples/students/only-lab1/stages/ran")" ] &&
	grep -q 'booting it with the suite' "$T/replay3.log" && ! grep -q 'building its kernel' "$T/replay3.log" &&
	pass "replay: ... its suite booted again, its intake, apply, keep and build those of the whole run (stages/ran)" ||
	fail "replay: ... its suite booted again, its intake, apply, keep and build those of the whole run (stages/ran)" "$s/stages/ran"
# A submission that changed since is graded whole; a stage that is none is refused.
mkdir -p "$T/changed"
cp -r "$KIT/grading/samples/no-apply" "$T/changed/"
echo "one more file" >"$T/changed/no-apply/notes.txt"
"$KIT/grading/pipeline/run" --grade --id no-apply --folder "$T/changed/no-apply" --out "$R/students/no-apply" --slot 1 \
	--from score >"$T/replay4.log" 2>&1
grep -q 'its submission changed since its last run, so every stage runs' "$T/replay4.log" && grep -q 'applying' "$T/replay4.log" &&
	grep -q $'^ignored\tin the folder: notes.txt' "$R/students/no-apply/meta" &&
	pass "replay: a submission changed since its last run is graded whole, and says so" ||
	fail "replay: a submission changed since its last run is graded whole, and says so" "$T/replay4.log"
expect_status "replay: REPLAY= that names no stage is refused" 2 "$KIT/grading/instructor/grade" --out "$R" --from judge
expect_grep "replay: ... and the error lists the stages" 'REPLAY=judge is no stage of the pipeline: say one of intake apply keep build tests private score' \
	<("$KIT/grading/instructor/grade" --out "$R" --from judge 2>&1)

# ---- stopped half-way, then resumed; FORCE=1; the same score twice ----
mkdir -p "$T/subset"
cp -r "$KIT/grading/samples/no-apply" "$KIT/grading/samples/only-lab1" "$T/subset/"
setsid make -s -C "$KIT" grade SUBMISSIONS="$T/subset" OUT="$T/resume" >"$T/resume1.log" 2>&1 &
pid=$!
for _ in $(seq 600); do
	[ -d "$T/resume/students/only-lab1.partial" ] && [ -f "$T/resume/students/no-apply/scores.tsv" ] && break
	sleep 0.5
done
sleep 2
kill -TERM -- "-$pid" 2>/dev/null
wait "$pid"
# Nothing of the stopped run goes on grading (a student's grading runs in
# a process group of its own, which the signal to the run's group misses).
sleep 1
left=$(pgrep -af "grading/pipeline/run --grade .*--out $T/resume/" || true)
[ -z "$left" ] && pass "resume: stopping the run stops the student being graded" ||
	fail "resume: stopping the run stops the student being graded" "still running: $left"
[ -f "$T/resume/students/no-apply/scores.tsv" ] && [ ! -d "$T/resume/students/only-lab1" ] &&
	pass "resume: killed half-way, the finished student is kept and the unfinished one is not published" ||
	fail "resume: killed half-way, the finished student is kept and the unfinished one is not published" "$(ls "$T/resume/students")"
[ "$(total "$T/resume" no-apply)" = 0 ] && ! grep -q '^only-lab1,' "$T/resume/gradebook.csv" &&
	pass "resume: the gradebook written so far is whole" || fail "resume: the gradebook written so far is whole"
before=$(stat -c %Y "$T/resume/students/no-apply/scores.tsv")
make -s -C "$KIT" grade SUBMISSIONS="$T/subset" OUT="$T/resume" >"$T/resume2.log" 2>&1
expect_grep "resume: the second start skips the finished student" '1 already graded, 1 to go' "$T/resume2.log"
[ "$(stat -c %Y "$T/resume/students/no-apply/scores.tsv")" = "$before" ] &&
	pass "resume: the finished student was not graded again" || fail "resume: the finished student was not graded again"
# (Points, not verdicts: on a lab 1 kernel a lab 2 test may fail or crash,
# depending on what memory holds; it scores nothing either way.)
if cmp -s <(cut -f1,2,4,5 "$T/resume/students/only-lab1/scores.tsv") <(cut -f1,2,4,5 "$T/samples/students/only-lab1/scores.tsv"); then
	pass "determinism: the same submission graded twice gets the same points for every test"
else
	fail "determinism: the same submission graded twice gets the same points for every test" \
		"$(diff <(cut -f1,2,4,5 "$T/samples/students/only-lab1/scores.tsv") <(cut -f1,2,4,5 "$T/resume/students/only-lab1/scores.tsv") | head)"
fi
make -s -C "$KIT" grade SUBMISSIONS="$T/subset" OUT="$T/resume" >"$T/resume3.log" 2>&1
expect_grep "resume: a finished run has nothing to do" '2 already graded, 0 to go' "$T/resume3.log"
make -s -C "$KIT" grade SUBMISSIONS="$T/subset" OUT="$T/resume" FORCE=1 >"$T/resume4.log" 2>&1
[ "$(stat -c %Y "$T/resume/students/no-apply/scores.tsv")" != "$before" ] && ! grep -q 'already graded' "$T/resume4.log" &&
	pass "resume: FORCE=1 grades everyone again" || fail "resume: FORCE=1 grades everyone again"

# ---- hostile and broken submissions ----
A=$T/adversarial
mkdir -p "$A"
canary=$HOME/.bpfloop-canary-$$
token="canary-$$-$RANDOM$RANDOM"
echo "$token" >"$canary"
marker=$T/smuggled-$$
sol() { git -C "$LINUX" format-patch -q -o "$1" "base..$2"; }
# A patch on top of solution/01 touching FILE with a unified diff body.
extra_patch() { # DIR NAME FILE SED-SCRIPT
	local wt=$T/wt
	[ -e "$wt/.git" ] || { git -C "$LINUX" worktree prune; git -C "$LINUX" worktree add -q --detach "$wt" solution/01; }
	git -C "$wt" reset -q --hard && git -C "$wt" checkout -q --detach solution/01
	sed -i "$4" "$wt/$3"
	kit_git -C "$wt" commit -q -am "$2"
	kit_git -C "$wt" format-patch -q --start-number 3 -o "$1" HEAD~1..HEAD
}
# 1. #include of a file in the instructor's home, and of /etc/shadow.
sol "$A/include-secret" solution/01
extra_patch "$A/include-secret" "bpf: include notes" kernel/bpf/bpf_iter.c "1i #include \"$canary\"\\n#include \"/etc/shadow\""
# 2. A Makefile change that would run commands and print the canary.
sol "$A/makefile-smuggle" solution/01
extra_patch "$A/makefile-smuggle" "bpf: build notes" kernel/bpf/Makefile "1i \$(shell touch $marker)\\n\$(info \$(shell cat $canary))\\n\$(shell cat $canary >$T/leaked)"
# (The scratch checkout is 1.5 GB: gone once the patches are made.)
git -C "$LINUX" worktree remove --force "$T/wt"
# 3. Broken folders.
mkdir -p "$A/empty" "$A/mixed" "$A/binary" "$A/symlinked" "$A/.hidden" "$A/ada lovelace"
cp "$KIT"/grading/samples/reference/0001-*.patch "$A/mixed/"
cp "$KIT"/grading/samples/off-by-one/lab3.diff "$A/mixed/"
printf 'diff --git a/kernel/bpf/x.o b/kernel/bpf/x.o\nnew file mode 100644\nGIT binary patch\nliteral 3\nKcmZ?d\n\n' >"$A/binary/0001-x.patch"
ln -s "$canary" "$A/symlinked/0001-notes.patch"
cp -r "$KIT"/grading/samples/no-apply/. "$A/.hidden/"
cp -r "$KIT"/grading/samples/no-apply/. "$A/ada lovelace/"
# 4. make handin's output, from a lab branch at solution/02 (a sparse
# clone: handin reads only git).
H=$T/handin-work
git clone -q -s -n "$LINUX" "$H/linux"
git -C "$H/linux" sparse-checkout set --no-cone /README >/dev/null 2>&1
git -C "$H/linux" checkout -q -b lab/02 origin/solution/02
# The solution branches, as make setup makes them in a work tree.
for b in $(git -C "$LINUX" for-each-ref --format='%(refname:short)' 'refs/heads/solution/[0-9][0-9]'); do
	git -C "$H/linux" branch -q -f "$b" "origin/$b"
done
git -C "$H/linux" rev-parse -q --verify base >/dev/null || git -C "$H/linux" tag base "$(git -C "$LINUX" rev-parse base)"
name=handin-test-$$
echo change >>"$H/linux/README"
expect_status "handin: a tree with uncommitted changes is refused" 1 env WORK="$H" "$KIT/grading/student/handin" "$name"
expect_grep "handin: ... with the command that commits them" 'git -C .* commit' <(env WORK="$H" make -s -C "$KIT" handin NAME="$name" 2>&1)
git -C "$H/linux" checkout -q README
check "handin: a clean lab branch is handed in" env WORK="$H" make -s -C "$KIT" handin NAME="$name" TIME=5
env WORK="$H" make -s -C "$KIT" handin NAME="$name" TIME=5 >"$T/handin.out" 2>&1
[ "$(grep -c "(the kit's reference)" "$T/handin.out")" = "$(git -C "$LINUX" rev-list --count base..solution/02)" ] &&
	grep -q 'warning: .* are the kit.s reference series.*FROM=mine' "$T/handin.out" &&
	pass "handin: it says which commits are the kit's reference, and warns, naming FROM=mine" ||
	fail "handin: it says which commits are the kit's reference, and warns, naming FROM=mine" "$(cat "$T/handin.out")"
[ "$(find "$KIT/handin/$name" -name '*.patch' | wc -l)" = "$(git -C "$LINUX" rev-list --count base..solution/02)" ] &&
	grep -q 'hours: 5' "$KIT/handin/$name/time.txt" &&
	pass "handin: one patch per commit since base, and time.txt" || fail "handin: one patch per commit since base, and time.txt"
cp -r "$KIT/handin/$name" "$A/handed-in"
rm -rf "$KIT/handin/$name"
# The instructor's extra test and rubric.
cat >"$T/extra-tests" <<'EOF'
#!/bin/sh
echo "KTAP version 1"
echo "1..1"
echo "# running extra.btf_present"
if [ -s /sys/kernel/btf/vmlinux ]; then echo "ok 1 extra.btf_present"; else echo "not ok 1 extra.btf_present"; fi
EOF
chmod +x "$T/extra-tests"
cp "$KIT/grading/instructor/rubric" "$T/rubric"
echo "extra.btf_present 0 2" >>"$T/rubric"

make -s -C "$KIT" grade SUBMISSIONS="$A" OUT="$T/adv" JOBS=2 RUBRIC="$T/rubric" EXTRA_TESTS="$T/extra-tests" \
	>"$T/adv.log" 2>&1
check "hostile: the run finishes (exit 0)" test $? = 0
status() { col "$T/adv/students/$1/status" status 2; }
[ "$(status include-secret)" = does-not-build ] && pass "hostile: #include of a host file does not build" ||
	fail "hostile: #include of a host file does not build" "status: $(status include-secret)"
expect_grep "hostile: ... because the file is out of sight in the confinement" "$(basename "$canary"): No such file" "$T/adv/students/include-secret/feedback.md"
if grep -rqF "$token" "$T/adv" "$WORK/logs" 2>/dev/null || [ -e "$T/leaked" ]; then
	fail "hostile: not one byte of the canary reaches a report or a log"
else
	pass "hostile: not one byte of the canary reaches a report or a log"
fi
root_hash=$(awk -F: '$1 == "root" && length($2) > 3 { print $2 }' /etc/shadow 2>/dev/null)
if [ -n "$root_hash" ] && grep -rqF "$root_hash" "$T/adv" 2>/dev/null; then
	fail "hostile: /etc/shadow's content reaches no report"
else
	pass "hostile: /etc/shadow's content reaches no report"
fi
[ ! -e "$marker" ] && pass "hostile: a smuggled Makefile runs nothing" || fail "hostile: a smuggled Makefile runs nothing"
[ "$(status makefile-smuggle)" = graded ] && [ "$(awk -F, 'NR > 1 && $1 == "makefile-smuggle" { print $3 }' "$T/adv/gradebook.csv")" = 10 ] &&
	pass "hostile: the smuggler is graded on its allowed part (lab 1: 10 of 10)" ||
	fail "hostile: the smuggler is graded on its allowed part (lab 1: 10 of 10)" "$(grep makefile-smuggle "$T/adv/gradebook.csv")"
expect_grep "hostile: the report says the Makefile was ignored" 'kernel/bpf/Makefile: outside the files' "$T/adv/students/makefile-smuggle/feedback.md"
for v in "empty empty" "mixed several-formats" "binary binary-patch" "symlinked not-a-file"; do
	set -- "${v% *}" "${v#* }"
	[ "$(status "$1")" = invalid ] && grep -q "^reason	$2:" "$T/adv/students/$1/status" &&
		pass "intake: the $1 folder gets verdict $2" || fail "intake: the $1 folder gets verdict $2" "$(status "$1")"
done
[ ! -d "$T/adv/students/.hidden" ] && ! grep -q hidden "$T/adv/gradebook.csv" &&
	pass "intake: a hidden folder is not a student" || fail "intake: a hidden folder is not a student"
[ -d "$T/adv/students/ada_lovelace" ] && pass "intake: 'ada lovelace' is graded as ada_lovelace" ||
	fail "intake: 'ada lovelace' is graded as ada_lovelace"
expect_grep "handin: results.json's time is the hours, not the branch" $'^time\thours: 5$' "$T/adv/students/handed-in/meta"
[ "$(status handed-in)" = graded ] && [ "$(total "$T/adv" handed-in)" = 35 ] &&
	pass "handin: make handin's folder grades: labs 0-2 in full plus the extra test (35)" ||
	fail "handin: make handin's folder grades: labs 0-2 in full plus the extra test (35)" "$(grep handed-in "$T/adv/gradebook.csv")"
[ "$(col "$T/adv/students/makefile-smuggle/scores.tsv" extra.btf_present 3)" = pass ] &&
	[ "$(col "$T/adv/students/makefile-smuggle/scores.tsv" extra.btf_present 4)" = 2 ] &&
	pass "extra tests: the instructor's private test ran in the guest and scored its rubric points" ||
	fail "extra tests: the instructor's private test ran in the guest and scored its rubric points"
grep -q '^extra.btf_present' "$T/adv/students/empty/scores.tsv" &&
	[ "$(col "$T/adv/students/empty/scores.tsv" extra.btf_present 3)" = not-run ] &&
	pass "extra tests: a submission that was not graded has them as not-run" ||
	fail "extra tests: a submission that was not graded has them as not-run"
expect_grep "grade: two workers graded at once" '\[[0-9]+/[0-9]+ [a-z_-]+\] building' "$T/adv.log"

# ---- a disk too full for a build: the submission's fault never ----
# A tree no kept kernel has, on a disk that cannot keep the confined
# build's floor: no verdict, no grade published, the reason and the fix.
mkdir -p "$T/tight"
cp -r "$A/include-secret" "$T/tight/"
# The ref slot as a build leaves it (a checkout), if earlier tests did not.
if [ ! -e "$WORK/slots/ref/linux/.git" ]; then
	git -C "$LINUX" worktree prune
	mkdir -p "$WORK/slots/ref"
	git -C "$LINUX" worktree add -q --detach "$WORK/slots/ref/linux" base
fi
env CONFINE_DISK_FLOOR=$((1 << 50)) make -s -C "$KIT" grade SUBMISSIONS="$T/tight" OUT="$T/tight-out" \
	>"$T/tight.log" 2>&1
check "disk: a build the disk has no room for is the kit's failure (exit 2)" test $? = 2
[ ! -e "$T/tight-out/students/include-secret/scores.tsv" ] &&
	[ "$(meta_value "$T/tight-out/students/include-secret/status" status)" = kit-error ] &&
	grep -qE '^include-secret,(,)*,kit-error,' "$T/tight-out/gradebook.csv" &&
	pass "disk: ... the student is not graded (kit error): no verdict, no points" ||
	fail "disk: ... the student is not graded (kit error): no verdict, no points" "$(ls "$T/tight-out/students" 2>&1; cat "$T/tight-out/gradebook.csv")"
expect_grep "disk: ... the error names the limit and the fix" 'CONFINE_DISK_FLOOR.*make clean-builds' "$T/tight.log"
expect_grep "disk: ... and the run says the student is to be graded again" 'run the same command again: it grades exactly those 1' "$T/tight.log"
expect_grep "disk: with no room above the floor, the default is one worker, and the run says why" \
	'no room for a worker.*CONFINE_DISK_FLOOR.*grading with 1 worker' "$T/tight.log"
expect_grep "disk: ... and grades with it" 'with 1 worker' "$T/tight.log"
expect_grep "disk: ... after the idle scratch slots gave their room back, saying how much" \
	'the idle scratch slot ref gave back [0-9]+ MB' "$T/tight.log"
[ ! -e "$WORK/slots/ref/linux/.git" ] && [ ! -e "$WORK/slots/mutant/build/linux" ] &&
	[ -e "$WORK/slots/trusted/linux/.git" ] && ! git -C "$LINUX" worktree list | grep -q "slots/ref/" &&
	pass "disk: ... the ref and mutant slots are gone, the trusted one kept" ||
	fail "disk: ... the ref and mutant slots are gone, the trusted one kept" "$(ls "$WORK/slots")"
rm -f "$canary"

# ---- several machines: merge ----
make -s -C "$KIT" grade-merge RUNS="$T/samples $T/adv" OUT="$T/merged" >"$T/merge.log" 2>&1
check "merge: two runs make one gradebook" test $? = 0
rows=$(($(wc -l <"$T/samples/gradebook.csv") + $(wc -l <"$T/adv/gradebook.csv") - 2))
[ "$(($(wc -l <"$T/merged/gradebook.csv") - 1))" = "$rows" ] &&
	[ "$(grep '^reference,' "$T/merged/gradebook.csv")" = "$(grep '^reference,' "$T/samples/gradebook.csv")" ] &&
	pass "merge: every student of both runs, with the scores each run gave" ||
	fail "merge: every student of both runs, with the scores each run gave"
cp -r "$T/samples" "$T/samples-other"
sed -i '1s/\tpass\t[0-9.]*\t/\tfail\t0\t/' "$T/samples-other/students/reference/scores.tsv"
expect_status "merge: the same student graded differently on two machines is a conflict" 1 \
	"$KIT/grading/instructor/merge-runs" --out "$T/merged2" "$T/samples" "$T/samples-other"

# ---- several work folders at once: make grade-fan-out ----
# The samples dealt to this work folder and to a second one set up as a
# student's machine is (work_like; the kept kernels copied: the builds are
# not what this tests), graded at once by GNU parallel and merged: the
# gradebook of one machine, student by student.
W2=$T/work2
if work_like "$W2" && cp -a "$WORK/kernels" "$W2/"; then
	ts=$(now)
	make -s -C "$KIT" grade-fan-out WORKS="$WORK $W2" OUT="$T/fan" >"$T/fan.log" 2>&1
	check "fan-out: two work folders grade the samples at once (exit 0)" test $? = 0
	echo "# the samples over two work folders at once took $(elapsed "$ts")"
	[ "$(find "$T/fan/runs/1/students" "$T/fan/runs/2/students" -mindepth 1 -maxdepth 1 -type d | wc -l)" = \
		"$(find "$KIT/grading/samples" -mindepth 1 -maxdepth 1 -type d | wc -l)" ] &&
		[ -n "$(ls "$T/fan/runs/1/students")" ] && [ -n "$(ls "$T/fan/runs/2/students")" ] && [ -d "$W2/trees" ] &&
		pass "fan-out: each work folder graded its own share of the class" ||
		fail "fan-out: each work folder graded its own share of the class" "$(ls "$T/fan/runs/"*/students)"
	if cmp -s <(sort "$T/samples/gradebook.csv") <(sort "$T/fan/gradebook.csv"); then
		pass "fan-out: the merged gradebook is the one machine's"
	else
		fail "fan-out: the merged gradebook is the one machine's" "$(diff <(sort "$T/samples/gradebook.csv") <(sort "$T/fan/gradebook.csv"))"
	fi
	# ---- over ssh: make grade-fan-out HOSTS= ----
	# Two machines, each an sshd on 127.0.0.1 with its own home and its own
	# work folder (this one and the second), the kit at the same path on
	# both. Two students, one share each: parallel copies each share there
	# and its results back, and the merged gradebook is the one machine's.
	mkdir -p "$T/ssh-class" && cp -a "$KIT/grading/samples/reference" "$KIT/grading/samples/off-by-one" "$T/ssh-class/"
	if ssh_hosts "$T/ssh" "pc-a=$WORK" "pc-b=$W2" 2>"$T/ssh.err"; then
		logins() { grep -c 'Accepted publickey' "$T/ssh/sshd-$1.log"; }
		before_a=$(logins pc-a) before_b=$(logins pc-b)
		ts=$(now)
		make -s -C "$KIT" grade-fan-out HOSTS="pc-a pc-b" SSH="ssh -F $T/ssh/ssh_config" SUBMISSIONS="$T/ssh-class" \
			OUT="$T/fan-ssh" >"$T/fan-ssh.log" 2>&1
		check "fan-out over ssh: two machines grade a class at once (exit 0)" test $? = 0
		echo "# two students over two ssh machines took $(elapsed "$ts")"
		[ "$(logins pc-a)" -gt "$before_a" ] && [ "$(logins pc-b)" -gt "$before_b" ] &&
			[ "$(find "$T/fan-ssh/runs/1/students" "$T/fan-ssh/runs/2/students" -mindepth 1 -maxdepth 1 -type d | wc -l)" = 2 ] &&
			pass "fan-out over ssh: each machine graded one share, logged in over ssh" ||
			fail "fan-out over ssh: each machine graded one share, logged in over ssh" "$(grep -c Accepted "$T"/ssh/sshd-*.log; ls -d "$T/fan-ssh/runs/"*/students/* 2>&1)"
		want=$(grep -E '^(reference|off-by-one),' "$T/samples/gradebook.csv" | sort)
		got=$(tail -n +2 "$T/fan-ssh/gradebook.csv" | sort)
		[ -n "$want" ] && [ "$want" = "$got" ] && pass "fan-out over ssh: the merged gradebook is the one machine's" ||
			fail "fan-out over ssh: the merged gradebook is the one machine's" "$(diff <(echo "$want") <(echo "$got"))"
		# A machine whose kit is not this one (here: a copy with one edit)
		# grades nothing, and the failed share says why.
		mkdir -p "$T/kit-copy"
		(cd "$KIT" && git ls-files -z | while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
			tar --null -T - -cf -) | tar -xf - -C "$T/kit-copy"
		git -C "$T/kit-copy" init -q && kit_git -C "$T/kit-copy" add -A && echo '# edited' >>"$T/kit-copy/Makefile"
		! make -s -C "$KIT" grade-fan-out HOSTS="pc-a" SSH="ssh -F $T/ssh/ssh_config" SUBMISSIONS="$T/ssh-class" \
			REMOTE_KIT="$T/kit-copy" OUT="$T/fan-ssh-bad" >"$T/fan-ssh-bad.log" 2>&1 &&
			grep -q "share 1 .*did not finish: error: the kit on .* is not the instructor's" "$T/fan-ssh-bad.log" &&
			[ ! -f "$T/fan-ssh-bad/gradebook.csv" ] &&
			pass "fan-out over ssh: a machine with another kit grades nothing, and the share says why" ||
			fail "fan-out over ssh: a machine with another kit grades nothing, and the share says why" "$(cat "$T/fan-ssh-bad.log")"
	else
		fail "fan-out over ssh: two sshd machines on 127.0.0.1" "$(cat "$T/ssh.err")"
	fi
	ssh_hosts_stop "$T/ssh"

	# ---- the shared compiler cache changes no grade ----
	# A student graded again in the second work folder with an empty
	# compiler cache and their kept kernel gone, so that every object
	# their edits touch is compiled cold: the same gradebook row as the
	# one machine's, graded with the kit's shared cache (and the same
	# grader's secret, as a share of a class split over machines has).
	kernel=$(col "$T/samples/students/off-by-one/meta" kernel 2)
	mkdir -p "$T/cold-class" "$T/cold-ccache" && cp -a "$KIT/grading/samples/off-by-one" "$T/cold-class/"
	[ -n "$kernel" ] && rm -rf "${W2:?}/kernels/$kernel"
	ts=$(now)
	GRADE_SECRET=$(kit_secret) CCACHE_DIR=$T/cold-ccache make -s -C "$KIT" grade WORK="$W2" SUBMISSIONS="$T/cold-class" OUT="$T/cold" JOBS=1 \
		>"$T/cold.log" 2>&1
	check "shared cache: a student graded with an empty compiler cache (exit 0)" test $? = 0
	echo "# off-by-one with an empty compiler cache took $(elapsed "$ts")"
	cc=$(grep -o 'compiler cache: [0-9]* hits, [0-9]* misses' "$T/cold/students/off-by-one/build.log" | tail -n 1)
	hits=$(echo "$cc" | awk '{ print $3 }') misses=$(echo "$cc" | awk '{ print $5 }')
	[ -n "$kernel" ] && [ "${misses:-0}" -gt 0 ] && [ "${hits:-1}" -lt "$misses" ] &&
		pass "shared cache: ... and its kernel was compiled cold ($cc)" ||
		fail "shared cache: ... and its kernel was compiled cold" "kernel ${kernel:-unknown}; ${cc:-no count in the build log}"
	want=$(grep '^off-by-one,' "$T/samples/gradebook.csv")
	got=$(grep '^off-by-one,' "$T/cold/gradebook.csv" 2>/dev/null)
	[ -n "$want" ] && [ "$want" = "$got" ] && pass "shared cache: ... and its gradebook row is the one graded with the shared cache" ||
		fail "shared cache: ... and its gradebook row is the one graded with the shared cache" "$(diff <(echo "$want") <(echo "$got"))"
	cmp -s <(cut -f1-5 "$T/samples/students/off-by-one/scores.tsv") <(cut -f1-5 "$T/cold/students/off-by-one/scores.tsv") &&
		pass "shared cache: ... test by test" ||
		fail "shared cache: ... test by test" "$(diff <(cut -f1-5 "$T/samples/students/off-by-one/scores.tsv") <(cut -f1-5 "$T/cold/students/off-by-one/scores.tsv"))"
else
	fail "fan-out: a second work folder like a student's"
fi
rm -rf "$W2"
expect_status "fan-out: the same work folder twice is refused" 2 \
	"$KIT/grading/instructor/fan-out" --works "$WORK $WORK/." --out "$T/fan-bad"
