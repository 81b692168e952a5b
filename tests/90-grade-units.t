# The grader's parts on their own, without kernels: intake's checks of a
# folder and of the changed paths, the confinement, scoring and reports.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015,SC2016
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/grade-units
rm -rf "$T"
mkdir -p "$T"
intake=$BIN/intake
report=$BIN/grade-report

# ---- intake name ----
expect_status "intake: a hidden folder is not a student" 1 "$intake" name .git
[ "$("$intake" name 'ada lovelace;rm -rf')" = "ada_lovelace_rm_-rf" ] &&
	pass "intake: unusual characters in a folder name become _" ||
	fail "intake: unusual characters in a folder name become _" "got $("$intake" name 'ada lovelace;rm -rf')"
[ "$("$intake" name -x)" = "_x" ] && pass "intake: a name never starts with -" || fail "intake: a name never starts with -"
long=$(printf 'a%.0s' $(seq 100))
[ "$("$intake" name "$long" | tr -d '\n' | wc -c)" = 64 ] && pass "intake: names are cut at 64 characters" ||
	fail "intake: names are cut at 64 characters"

# ---- intake scan ----
mk() { rm -rf "$T/s/$1"; mkdir -p "$T/s/$1"; echo "$T/s/$1"; }
scan_verdict() { # NAME DIR WORD
	local out
	out=$("$intake" scan "$2")
	if [ $? = 1 ] && grep -q "^verdict $3: " <<<"$out"; then pass "$1"; else fail "$1" "got: $out"; fi
}
d=$(mk empty)
scan_verdict "intake: an empty folder is refused as empty" "$d" empty
d=$(mk only-notes)
echo 6 >"$d/time.txt"
echo hi >"$d/notes.txt"
scan_verdict "intake: a folder with notes but no patch is empty" "$d" empty
d=$(mk mixed)
cp "$KIT"/solutions/01-*/0001-*.patch "$d/"
echo "diff" >"$d/all.diff"
scan_verdict "intake: patches and a diff together are several formats" "$d" several-formats
d=$(mk two-diffs)
echo a >"$d/a.diff"
echo b >"$d/b.diff"
scan_verdict "intake: two diffs are several formats" "$d" several-formats
d=$(mk binary)
printf 'diff --git a/x b/x\nGIT binary patch\nliteral 3\nKcmZ?d\n' >"$d/0001-x.patch"
scan_verdict "intake: a git binary patch is refused" "$d" binary-patch
d=$(mk nul)
printf 'diff --git a/x b/x\n\0\0\0' >"$d/0001-x.patch"
scan_verdict "intake: a patch with NUL bytes is refused" "$d" binary-patch
d=$(mk symlink)
ln -s /etc/shadow "$d/0001-x.patch"
scan_verdict "intake: a symbolic link is never followed" "$d" not-a-file
d=$(mk big)
head -c $((3 << 20)) /dev/zero | tr '\0' 'a' >"$d/0001-x.patch"
scan_verdict "intake: a file over the size cap is refused" "$d" too-large
d=$(mk good)
cp "$KIT"/solutions/01-*/*.patch "$d/"
echo 6 >"$d/time.txt"
echo "# answers" >"$d/answers.md"
echo x >"$d/.hidden"
echo x >"$d/notes.txt"
if out=$("$intake" scan "$d") && grep -qx 'format patch' <<<"$out" && [ "$(grep -c '^use ' <<<"$out")" = 2 ] &&
	grep -qx 'carry answers.md' <<<"$out" && grep -qx 'carry time.txt' <<<"$out" &&
	grep -q '^ignore .hidden: hidden' <<<"$out" && grep -q '^ignore notes.txt: ' <<<"$out" &&
	[ "$(grep '^use ' <<<"$out" | head -n 1)" = "use $(basename "$(ls "$d"/0001-*)")" ]; then
	pass "intake: a good series: patches in name order, notes carried, other files ignored"
else
	fail "intake: a good series: patches in name order, notes carried, other files ignored" "$out"
fi

# ---- intake paths ----
z() { printf ':%s %s 0 0 %s\0%s\0' "$@"; }
out=$({
	z 100644 100644 M kernel/bpf/helpers.c
	z 100644 100644 M kernel/bpf/Makefile
	z 000000 100644 A kernel/bpf/sub/x.c
	z 100644 100644 M include/linux/bpf_verifier.h
	z 100644 100644 M include/uapi/linux/bpf.h
	z 100644 100644 M include/uapi/linux/if.h
	z 000000 100644 A tools/testing/selftests/bpf/progs/pyperf600_bpf_loop.c
	z 100644 100644 M tools/testing/selftests/bpf/Makefile
	z 000000 120000 A kernel/bpf/leak.c
	z 100644 000000 D kernel/bpf/gone.c
	z 100644 100644 M 'kernel/bpf/we ird.c'
	z 100644 100644 M scripts/link-vmlinux.sh
} | "$intake" paths)
want="allow kernel/bpf/helpers.c
ignore kernel/bpf/Makefile: outside the files a submission may change
ignore kernel/bpf/sub/x.c: outside the files a submission may change
allow include/linux/bpf_verifier.h
allow include/uapi/linux/bpf.h
ignore include/uapi/linux/if.h: outside the files a submission may change
allow tools/testing/selftests/bpf/progs/pyperf600_bpf_loop.c
ignore tools/testing/selftests/bpf/Makefile: outside the files a submission may change
ignore kernel/bpf/leak.c: not a regular file (mode 120000)
allow kernel/bpf/gone.c
ignore kernel/bpf/we?ird.c: the name has unusual characters
ignore scripts/link-vmlinux.sh: outside the files a submission may change"
if [ "$out" = "$want" ]; then
	pass "intake: only C sources and headers of the allowed set pass; Makefiles, symlinks and odd names do not"
else
	fail "intake: only C sources and headers of the allowed set pass; Makefiles, symlinks and odd names do not" \
		"$(diff <(echo "$want") <(echo "$out") | head -n 20)"
fi

# ---- applying without a checkout (lib/kit.sh kit_am, grading/pipeline/apply) ----
# A small repository stands in for the kernel's: kit_am must make the
# commits `git am` makes, touch no work tree, and tell a patch that does
# not apply (1) from the kit failing (2).
R=$T/am-repo
git init -q "$R"
g() { kit_git -C "$R" "$@"; }
printf 'one\ntwo\n' >"$R/a.txt"
printf 'dos\r\nline\r\n' >"$R/crlf.txt"
printf 'gone\n' >"$R/old.txt"
g add -A && g commit -q -m "start" && g tag base
printf 'one\n2\n' >"$R/a.txt"
printf 'dos\r\nline 2\r\n' >"$R/crlf.txt"
GIT_AUTHOR_NAME='Zoë Ünïcode' GIT_AUTHOR_EMAIL=zoe@example.org GIT_AUTHOR_DATE='2023-05-06T07:08:09+02:00' \
	git -C "$R" -c user.name=x -c user.email=x@x commit -q -am "first: a and crlf" -m "A body.

  indented line, then trailing blanks


Signed-off-by: Zoë <zoe@example.org>"
head -c 300 /dev/urandom >"$R/blob.bin"
g rm -q old.txt
printf 'new\n' >"$R/new.txt"
g add -A && GIT_AUTHOR_NAME=Bo GIT_AUTHOR_EMAIL=bo@example.org git -C "$R" -c user.name=x -c user.email=x@x \
	commit -q -m "second: no body, a binary file, a new and a gone one"
g format-patch -q --binary -o "$T/am-series" base >/dev/null
g format-patch -q --binary --stdout base >"$T/am-one.mbox"
rhead=$(git -C "$R" rev-parse HEAD)
wt=$T/am-wt
g worktree add -q --detach "$wt" base
g -C "$wt" am -q --keep-cr "$T"/am-series/*.patch
want=$(git -C "$wt" rev-parse HEAD)
h=$(git -C "$R" rev-parse base)
for p in "$T"/am-series/*.patch; do h=$(kit_am "$R" "$h" "$T/am-scratch" "$T/am.log" "$p") || break; done
[ "$h" = "$want" ] && pass "kit_am: a series gives the commits git am gives (author, date, message, binary, CRLF)" ||
	fail "kit_am: a series gives the commits git am gives (author, date, message, binary, CRLF)" \
		"got $h, git am $want" "$(git -C "$R" cat-file -p "$h" 2>&1 | head -n 8)"
h=$(kit_am "$R" "$(git -C "$R" rev-parse base)" "$T/am-scratch" "$T/am.log" "$T/am-one.mbox")
[ "$h" = "$want" ] && pass "kit_am: one mailbox of two patches gives the same" ||
	fail "kit_am: one mailbox of two patches gives the same" "got $h, git am $want"
[ "$(git -C "$R" status --porcelain)" = "" ] && [ "$(git -C "$R" rev-parse HEAD)" = "$rhead" ] && pass "kit_am: the repository's work tree, index and HEAD are untouched" ||
	fail "kit_am: the repository's work tree, index and HEAD are untouched" "$(git -C "$R" status --short | head -n 3)"
am_refused() { # NAME FILE WORD: kit_am says 1, and its log's error line has WORD
	local rc=0
	: >"$T/am.log"
	kit_am "$R" "$(git -C "$R" rev-parse base)" "$T/am-scratch" "$T/am.log" "$2" >/dev/null || rc=$?
	[ "$rc" = 1 ] && grep -m1 '^error' "$T/am.log" | grep -q "$3" && pass "$1" ||
		fail "$1" "status $rc, log: $(head -c 300 "$T/am.log")"
}
sed 's/^-two$/-deux/' "$T"/am-series/0001-*.patch >"$T/am-stale.patch"
am_refused "kit_am: a patch whose context is not there does not apply (1, git's error)" "$T/am-stale.patch" "patch failed"
sed '/^---$/,$d' "$T"/am-series/0002-*.patch >"$T/am-empty.patch"
am_refused "kit_am: a mail without a diff is an empty patch (1)" "$T/am-empty.patch" "empty"
sed 's/^From: .*/From: nobody/' "$T"/am-series/0002-*.patch >"$T/am-noaddr.patch"
am_refused "kit_am: a mail without an author's address is refused (1)" "$T/am-noaddr.patch" "e-mail"
rc=0
kit_am "$R" "$(git -C "$R" rev-parse base)" /proc/self/no-such "$T/am.log" "$T"/am-series/0001-*.patch >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && pass "kit_am: a scratch folder it cannot make is the kit's failure (2), not the patch's" ||
	fail "kit_am: a scratch folder it cannot make is the kit's failure (2), not the patch's" "status $rc"
mkdir -p "$T/am-sub" "$T/am-work"
cp "$T"/am-series/*.patch "$T/am-sub/"
ln -s "$R" "$T/am-work/linux" # apply's kernel work tree is $WORK/linux
mapfile -t am_files < <(cd "$T/am-sub" && ls)
rc=0
out=$(WORK=$T/am-work "$KIT/grading/pipeline/apply" --format patch --folder "$T/am-sub" --scratch "$T/am-apply" \
	--log "$T/am-apply.log" --status "$T/am-apply.status" "${am_files[@]}" 2>"$T/am-apply.err") || rc=$?
[ "$rc" = 0 ] && [ "$out" = "$want" ] && grep -q $'^verdict\tok' "$T/am-apply.status" &&
	pass "apply: a patch series is applied on base with no checkout (its commit on stdout)" ||
	fail "apply: a patch series is applied on base with no checkout (its commit on stdout)" "status $rc, out $out" \
		"$(cat "$T/am-apply.err" "$T/am-apply.status" 2>/dev/null | head -n 4)"
[ ! -e "$T/am-apply/.git" ] && [ "$(du -sk "$T/am-apply" | cut -f1)" -lt 1000 ] &&
	pass "apply: its scratch folder holds no checkout" || fail "apply: its scratch folder holds no checkout"
rc=0
WORK=$T/am-work "$KIT/grading/pipeline/apply" --format patch --folder "$T/am-sub" --scratch /proc/self/no-such \
	--log "$T/am-apply.log" --status "$T/am-apply2.status" "${am_files[@]}" >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] && [ ! -e "$T/am-apply2.status" ] &&
	pass "apply: a scratch folder it cannot make is the kit's failure (2, no verdict for the student)" ||
	fail "apply: a scratch folder it cannot make is the kit's failure (2, no verdict for the student)" "status $rc"
g worktree add -q --detach "$T/am-old" base
rc=0
WORK=$T/am-work "$KIT/grading/pipeline/apply" --format patch --folder "$T/am-sub" --scratch "$T/am-old" \
	--log "$T/am-apply.log" --status "$T/am-apply3.status" "${am_files[@]}" >/dev/null 2>&1 || rc=$?
[ "$rc" = 0 ] && [ ! -e "$T/am-old/.git" ] && ! git -C "$R" worktree list | grep -q "am-old" &&
	pass "apply: an older kit's scratch checkout in its place is removed" ||
	fail "apply: an older kit's scratch checkout in its place is removed" "status $rc"

# ---- the confinement ----
mkdir -p "$T/confined"
secret=$HOME/.bpfloop-test-secret-$$
echo "token-$$-$RANDOM$RANDOM" >"$secret"
token=$(cat "$secret")
"$KIT/lib/confine" --rw "$T/confined" -- sh -c "cat '$secret' /etc/shadow; echo out >'$T/confined/ok'; \
	echo no >'$HOME/.bpfloop-test-write-$$'; ls /work /root" >"$T/confined.out" 2>&1
if ! grep -q "$token" "$T/confined.out" && [ -f "$T/confined/ok" ] && [ ! -e "$HOME/.bpfloop-test-write-$$" ]; then
	pass "confine: the home and /etc/shadow are out of sight; only the --rw folder is written"
else
	fail "confine: the home and /etc/shadow are out of sight; only the --rw folder is written" "$(cat "$T/confined.out")"
fi
rm -f "$secret" "$HOME/.bpfloop-test-write-$$"
expect_status "confine: no network inside (only a loopback)" 0 \
	"$KIT/lib/confine" -- sh -c '[ "$(ls /sys/class/net 2>/dev/null | grep -cv "^lo$")" = 0 ]'
expect_status "confine: a missing folder is refused (125)" 125 "$KIT/lib/confine" --ro /nonexistent -- true
# A fork bomb whose processes outlive their parent (they keep a build's
# make waiting for ever) is stopped once it sits at the process limit.
ts=$(now)
CONFINE_PROCS=40 "$KIT/lib/confine" --watch -- bash -c 'for i in $(seq 100); do sleep 300 & done 2>/dev/null; wait' \
	>"$T/bomb.out" 2>&1
st=$?
if [ "$st" = 124 ] && grep -q 'ran at its limit of 40 processes' "$T/bomb.out" && ! pgrep -f 'sleep 300' >/dev/null; then
	pass "confine: processes held at the limit stop the command in seconds (124), none left ($(elapsed "$ts"))"
else
	fail "confine: processes held at the limit stop the command in seconds (124), none left" \
		"status $st after $(elapsed "$ts"): $(tail -n 3 "$T/bomb.out")" "$(pgrep -af 'sleep 300' | head -n 3)"
fi

# ---- scoring one student ----
cat >"$T/tests.list" <<'EOF2'
# test table
lab1.a 1 2 suite a
lab1.b 1 3 suite b
lab2.c 2 5 suite c
lab2.d 2 1.5 lab3 d
EOF2
R=(--tests "$T/tests.list")
s=$T/class/students/ann
mkdir -p "$s/stages"
printf 'student\tann\nignored\tkernel/bpf/Makefile: outside\n' >"$s/meta"
printf 'verdict\tok\nreason\t\nlog\tbuild.log\n' >"$s/stages/build"
printf 'lab1.a\tpass\t0.1\t\nlab1.b\tfail\t0.2\tgot 3, want 4 (see %s/suite/boot-1/console.log)\nlab2.c\tcrash\t0\tcrashed: BUG: oops\nlab9.extra\tpass\t0\t\n' "$s" >"$s/results.tsv"
score=$("$report" student "${R[@]}" --dir "$s")
[ "$score" = "2 of 11.5 points (graded)" ] && pass "grade-report: a pass scores its points, fail and crash none (2 of 11.5)" ||
	fail "grade-report: a pass scores its points, fail and crash none (2 of 11.5)" "got '$score'"
expect_grep "grade-report: a test with no result is 'missing'" $'^lab2.d\t2\tmissing\t0\t1.5' "$s/scores.tsv"
expect_grep "grade-report: a test the rubric does not know is kept, worth nothing" $'^lab9.extra\t-1\tpass\t0\t0' "$s/scores.tsv"
expect_grep "grade-report: feedback names the failed test and its reason" 'lab1.b.*got 3, want 4' "$s/feedback.md"
expect_grep "grade-report: feedback gives the command that reproduces it" 'make check N=1 ONLY=lab1.b' "$s/feedback.md"
expect_grep "grade-report: feedback lists the ignored files" 'kernel/bpf/Makefile' "$s/feedback.md"
if grep -qF "$T" "$s/feedback.md"; then
	fail "grade-report: feedback names no path of the grader's" "$(grep -F "$T" "$s/feedback.md")"
else
	pass "grade-report: feedback names no path of the grader's"
fi
expect_grep "grade-report: the status file says graded" $'^status\tgraded$' "$s/status"
s=$T/class/students/bob
mkdir -p "$s/stages"
printf 'student\tbob\n' >"$s/meta"
printf 'verdict\tfailed\nreason\tthe kernel does not build: x.c:1: error: y\nlog\tbuild.log\n' >"$s/stages/build"
: >"$s/results.tsv"
score=$("$report" student "${R[@]}" --dir "$s")
[ "$score" = "0 of 11.5 points (does-not-build)" ] && pass "grade-report: a failed build stage is does-not-build, and scores 0" ||
	fail "grade-report: a failed build stage is does-not-build, and scores 0" "got '$score'"
expect_grep "grade-report: its tests are not-run, with the reason" $'^lab1.a\t1\tnot-run\t0\t2\t0.00\tthe kernel does not build' "$s/scores.tsv"
s=$T/class/students/cyd
mkdir -p "$s/stages" "$s/private"
printf 'student\tcyd\nflag\tport-io kernel/bpf/helpers.c:3: outb(1, 2);\n' >"$s/meta"
printf 'verdict\tok\n' >"$s/stages/build"
printf 'lab1.a\ttampered\t0\tthe report for lab1.a is not this run'"'"'s\n' >"$s/results.tsv"
printf 'priv.x\tfail\t0\tsecret detail of a private test\nlab1.b\tpass\t0\t\n' >"$s/private/results.tsv"
printf 'priv.x 0 1\npriv.unused 0 1\n' >"$T/rubric"
score=$("$report" student "${R[@]}" --rubric "$T/rubric" --dir "$s")
[ "$score" = "0 of 13.5 points (graded, tampered flagged)" ] &&
	pass "grade-report: a tampered result and flagged lines mark the student, and score 0" ||
	fail "grade-report: a tampered result and flagged lines mark the student, and score 0" "got '$score'"
expect_grep "grade-report: a private run cannot speak for one of the kit's tests" $'^lab1.b\t1\tmissing' "$s/scores.tsv"
if grep -q 'secret detail' "$s/feedback.md"; then
	fail "grade-report: a private test's reason stays out of feedback"
else
	pass "grade-report: a private test's reason stays out of feedback"
fi
expect_grep "grade-report: ... but its verdict is there" 'priv.x.*one of your instructor' "$s/feedback.md"
# make check's summary: an unscored test that failed is a warning, apart
# from the tests that cost points.
s=$T/check/students/dee
mkdir -p "$s/stages"
printf 'student\tdee\n' >"$s/meta"
printf 'verdict\tok\n' >"$s/stages/build"
printf 'lab1.a\tpass\t0\t\nlab1.b\tfail\t0\tgot 1\nlab1.k\tfail\t0\tkept refused\n' >"$s/results.tsv"
printf 'lab1.a 1 2 suite a\nlab1.b 1 3 suite b\nlab1.k 1 0 suite k\n' >"$T/check.list"
"$report" student --tests "$T/check.list" --dir "$s" --lab 1 --print >"$T/check.out"
if grep -q '^Not passed:' "$T/check.out" && grep -q '^  lab1.b (fail): got 1' "$T/check.out" &&
	grep -q '^Warnings: unscored tests that failed' "$T/check.out" && grep -q '^  warning: lab1.k (fail): kept refused' "$T/check.out" &&
	! grep -q '^  lab1.k' "$T/check.out"; then
	pass "grade-report --print: a failed unscored test is a warning, apart from the failures that cost points"
else
	fail "grade-report --print: a failed unscored test is a warning, apart from the failures that cost points" "$(cat "$T/check.out")"
fi
mkdir -p "$T/class/students/carl.partial"
"$report" class "${R[@]}" --rubric "$T/rubric" --out "$T/class" 2>"$T/class.err"
expect_grep "grade-report: warns about a rubric line that names no test" 'rubric line priv.unused names no test' "$T/class.err"
expect_grep "grade-report: warns about results of an unscored test" 'lab9.extra reported results' "$T/class.err"
if [ "$(cat "$T/class/gradebook.csv")" = "student,lab0,lab1,lab2,total,max,status,flags
ann,0,2,0,2,11.5,graded,
bob,0,0,0,0,11.5,does-not-build,
cyd,0,0,0,0,13.5,graded,tampered flagged" ]; then
	pass "grade-report: the gradebook has one row per finished student (not the .partial one), with flags"
else
	fail "grade-report: the gradebook has one row per finished student (not the .partial one), with flags" "$(cat "$T/class/gradebook.csv")"
fi
check "grade-report: results.json is valid JSON" jq -e . "$T/class/results.json"
[ "$(jq -r '.students[] | select(.student == "ann") | .tests[] | select(.id == "lab1.b") | .reason' "$T/class/results.json")" = "got 3, want 4 (see $T/class/students/ann/suite/boot-1/console.log)" ] &&
	pass "grade-report: results.json has each test's verdict and reason" ||
	fail "grade-report: results.json has each test's verdict and reason"
# A student the machine kept from a grade (grading/pipeline/run's kit
# error): in every class output, with no points, not a zero; the others'
# rows are unchanged.
s=$T/class/students/eve
mkdir -p "$s/stages"
printf 'student\teve\n' >"$s/meta"
printf 'status\tkit-error\nreason\tnot graded (kit error): QEMU was killed from outside the kit\nfix\tfree memory\n' >"$s/status"
cp "$T/class/gradebook.csv" "$T/class/gradebook.before"
"$report" class "${R[@]}" --rubric "$T/rubric" --out "$T/class" 2>/dev/null
[ "$(head -n 4 "$T/class/gradebook.csv")" = "$(cat "$T/class/gradebook.before")" ] &&
	[ "$(sed -n 5p "$T/class/gradebook.csv")" = "eve,,,,,,kit-error," ] &&
	pass "grade-report: a student not graded (kit error) has a row with no points, the others' rows unchanged" ||
	fail "grade-report: a student not graded (kit error) has a row with no points, the others' rows unchanged" "$(cat "$T/class/gradebook.csv")"
[ "$(jq -r '.not_graded[] | select(.student == "eve") | [.status, (.total | tostring), .fix] | join("|")' "$T/class/results.json")" = "kit-error|null|free memory" ] &&
	[ "$(jq -r '[.students[].student] | join(" ")' "$T/class/results.json")" = "ann bob cyd" ] &&
	pass "grade-report: results.json lists it under not_graded, with the fix and no total" ||
	fail "grade-report: results.json lists it under not_graded, with the fix and no total" "$(jq -c .not_graded "$T/class/results.json")"
expect_grep "grade-report: summary.md says who is not graded, and why" '^- eve: not graded .*kit error.*QEMU was killed' "$T/class/summary.md"
expect_grep "grade-report: junit.xml gives it one error of the machine" 'name="not graded"><error type="kit-error"' "$T/class/junit.xml"
grep -q 'eve' <(grep -A3 '^| Score' "$T/class/summary.md") &&
	fail "grade-report: a student not graded counts in no statistic" ||
	pass "grade-report: a student not graded counts in no statistic"
expect_grep "grade-report: ... and the class still counts three graded" '^3 students graded' "$T/class/summary.md"
rm -rf "$s"
# The commonest reasons take numbers as N, but not the digits of an
# error's name.
s=$T/class/students/fay
mkdir -p "$s/stages"
printf 'student\tfay\n' >"$s/meta"
printf 'verdict\tok\n' >"$s/stages/build"
printf 'lab1.a\tfail\t0\treturned -EINVAL for 8388609 loops, want -E2BIG\n' >"$s/results.tsv"
"$report" student "${R[@]}" --rubric "$T/rubric" --dir "$s" >/dev/null
"$report" class "${R[@]}" --rubric "$T/rubric" --out "$T/class" 2>/dev/null
expect_grep "grade-report: a reason's class keeps E2BIG's digit, and makes the count N" 'returned -EINVAL for N loops, want -E2BIG' "$T/class/summary.md"
rm -rf "$s"
"$report" class "${R[@]}" --rubric "$T/rubric" --out "$T/class" 2>/dev/null
check "grade-report: junit.xml is well-formed XML" xmllint --noout "$T/class/junit.xml"
[ "$(xmllint --xpath 'count(//testsuite[@name="ann"]/testcase/error)' "$T/class/junit.xml")" = 1 ] &&
	[ "$(xmllint --xpath 'count(//testsuite[@name="ann"]/testcase/failure)' "$T/class/junit.xml")" = 2 ] &&
	pass "grade-report: junit.xml: a crash is an error, fail and missing are failures" ||
	fail "grade-report: junit.xml: a crash is an error, fail and missing are failures"
expect_grep "grade-report: summary.md lists the tests most failed" '`lab1.b`: 2 of 3 students' "$T/class/summary.md"
expect_grep "grade-report: summary.md lists the flagged students with their lines" 'outb\(1, 2\)' "$T/class/summary.md"
# Text from a student is text in every output: a name that is a formula,
# a reason with markup, a code span's closer, a raw attribute, a terminal
# escape and bytes that are not UTF-8.
s=$T/inert/students/eve
mkdir -p "$s/stages"
evil=$'<script>alert(1)</script> `` `x`{=html} [y](javascript:alert(2)) \e[31mred\e[0m \xff\xfe end'
printf 'student\t=HYPERLINK("http://example.com")\nignored\t%s: outside\n' "$evil" >"$s/meta"
printf 'verdict\tok\n' >"$s/stages/build"
printf 'lab1.a\tfail\t0\t%s\n' "$evil" >"$s/results.tsv"
"$report" student "${R[@]}" --dir "$s" >"$T/inert.check"
"$report" class "${R[@]}" --out "$T/inert" 2>/dev/null
expect_grep "grade-report: a cell that begins as a formula is quoted and starts with ' in gradebook.csv" \
	'^"'"'"'=HYPERLINK\(""http://example.com""\)",' "$T/inert/gradebook.csv"
if grep -q $'\e' "$T/inert.check" "$s/feedback.md" "$T/inert/results.json" "$T/inert/junit.xml" "$T/inert/summary.md" ||
	grep -q $'\xff' "$T/inert.check" "$s/feedback.md" "$T/inert/results.json" "$T/inert/junit.xml" "$T/inert/summary.md"; then
	fail "grade-report: no output carries a student's control characters or bytes that are not UTF-8"
else
	pass "grade-report: no output carries a student's control characters or bytes that are not UTF-8"
fi
check "grade-report: results.json is valid JSON with that text in it" jq -e . "$T/inert/results.json"
if grep -q '[<>]' "$T/inert/results.json"; then
	fail "grade-report: results.json writes < and > as \\u escapes" "$(grep '[<>]' "$T/inert/results.json" | head -n 2)"
else
	pass "grade-report: results.json writes < and > as \\u escapes"
fi
[ "$(jq -r '.students[0].tests[] | select(.id == "lab1.a") | .reason' "$T/inert/results.json")" = \
	'<script>alert(1)</script> `` `x`{=html} [y](javascript:alert(2))  [31mred [0m ?? end' ] &&
	pass "grade-report: ... and reads back as the student's text, made plain" ||
	fail "grade-report: ... and reads back as the student's text, made plain" \
		"$(jq -r '.students[0].tests[0].reason' "$T/inert/results.json")"
check "grade-report: junit.xml stays well-formed" xmllint --noout "$T/inert/junit.xml"
expect_grep "grade-report: feedback.md quotes the reason in a code span that its own backticks cannot close" \
	'^- `lab1.a` \(fail, 0 of 2 points\): ```<script>alert\(1\)</script> `` `x`\{=html\} .* end```$' "$s/feedback.md"
expect_grep "grade-report: ... and so the ignored file's name" '^- ```<script>.* end: outside```$' "$s/feedback.md"
printf 'lab1.a 1 2\nlab1.a 1 3\n' >"$T/bad-rubric"
expect_status "grade-report: a rubric with a test twice is refused" 1 "$report" class "${R[@]}" --rubric "$T/bad-rubric" --out "$T/class"
printf 'lab1.a one 2\n' >"$T/bad-rubric"
expect_status "grade-report: a rubric line that is not 'ID LAB POINTS' is refused" 1 "$report" class "${R[@]}" --rubric "$T/bad-rubric" --out "$T/class"
printf 'lab1.a 2 2\n' >"$T/bad-rubric"
expect_status "grade-report: a rubric line that puts a kit test in another lab is refused" 1 "$report" class "${R[@]}" --rubric "$T/bad-rubric" --out "$T/class"

# Adding an output is one new file in grading/pipeline/report/: a copy of
# the kit gains a writer of its own (a roll of names and totals); its make
# builds it into grade-report, which writes it beside the others, and the
# others are what the kit's own grade-report writes.
K=$T/kit-out
rm -rf "$K" "$T/out-work" "$T/class-out" "$T/class-kit"
mkdir -p "$K"
(cd "$KIT" && git ls-files -z | while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | tar -xf - -C "$K"
git -C "$K" init -q && kit_git -C "$K" add -A && kit_git -C "$K" commit -q -m kit
cat >"$K/grading/pipeline/report/roll.c" <<'EOC'
// SPDX-License-Identifier: GPL-2.0
/* grade-report: roll.txt, a student and their total a line. */
#include <stdio.h>

#include "report.h"

static void write_roll(const char *out, const char **warnings, int nr_warnings)
{
	char tmp[4200];
	FILE *f = open_tmp(out, "roll.txt", tmp, sizeof(tmp));
	int i;

	(void)warnings;
	(void)nr_warnings;
	for (i = 0; i < nr_students; i++) {
		write_text(f, students[i]->name, plain_ascii);
		fprintf(f, " %g\n", students[i]->total);
	}
	commit_tmp(f, tmp, out, "roll.txt");
}
REPORT_WRITER("roll.txt", write_roll)
EOC
[ "$(git -C "$K" status --porcelain)" = "?? grading/pipeline/report/roll.c" ] &&
	pass "add an output: the change is one new file" ||
	fail "add an output: the change is one new file" "$(git -C "$K" status --porcelain)"
check "add an output: the copy's make builds it into grade-report" \
	make -s -C "$K" WORK="$T/out-work" "$T/out-work/bin/grade-report"
cp -a "$T/class" "$T/class-out"
cp -a "$T/class" "$T/class-kit"
check "add an output: the class is written with it" "$T/out-work/bin/grade-report" class "${R[@]}" --out "$T/class-out"
want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "total") t = i; next } { print $1, $t }' \
	"$T/class-out/gradebook.csv" | sort)
[ -s "$T/class-out/roll.txt" ] && [ "$(sort "$T/class-out/roll.txt")" = "$want" ] &&
	pass "add an output: roll.txt holds each student's name and total" ||
	fail "add an output: roll.txt holds each student's name and total" "$(cat "$T/class-out/roll.txt" 2>&1) / want: $want"
"$report" class "${R[@]}" --out "$T/class-kit" >/dev/null 2>&1
same=1
for o in gradebook.csv results.json junit.xml summary.md index.md scores.svg; do
	cmp -s "$T/class-kit/$o" "$T/class-out/$o" || same=0
done
[ "$same" = 1 ] && pass "add an output: the other outputs are the kit's own grade-report's" ||
	fail "add an output: the other outputs are the kit's own grade-report's"
