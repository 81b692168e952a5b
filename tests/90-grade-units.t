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

# ---- scoring one student ----
cat >"$T/rubric" <<'EOF'
# test rubric
lab1.a 1 2
lab1.b 1 3
lab2.c 2 5
lab2.d 2 1.5
EOF
s=$T/class/students/ann
mkdir -p "$s"
printf 'student\tann\nstatus\tgraded\nreason\t\nignored\tkernel/bpf/Makefile: outside\n' >"$s/meta"
printf 'lab1.a\tpass\t0.1\t\nlab1.b\tfail\t0.2\tgot 3, want 4\nlab2.c\tcrash\t0\tcrashed: BUG: oops\nlab9.extra\tpass\t0\t\n' >"$s/results.tsv"
score=$("$report" student --rubric "$T/rubric" --dir "$s")
[ "$score" = "2 11.5" ] && pass "grade-report: a pass scores its points, fail and crash none (2 of 11.5)" ||
	fail "grade-report: a pass scores its points, fail and crash none (2 of 11.5)" "got '$score'"
expect_grep "grade-report: a test with no result is 'missing'" $'^lab2.d\t2\tmissing\t0\t1.5' "$s/scores.tsv"
expect_grep "grade-report: a test the rubric does not know is kept, worth nothing" $'^lab9.extra\t-1\tpass\t0\t0' "$s/scores.tsv"
expect_grep "grade-report: feedback names the failed test and its reason" 'lab1.b.*got 3, want 4' "$s/feedback.md"
expect_grep "grade-report: feedback gives the command that reproduces it" 'make check N=1 ONLY=lab1.b' "$s/feedback.md"
expect_grep "grade-report: feedback lists the ignored files" 'kernel/bpf/Makefile' "$s/feedback.md"
s=$T/class/students/bob
mkdir -p "$s"
printf 'student\tbob\nstatus\tdoes-not-build\nreason\tthe kernel does not build: x.c:1: error: y\n' >"$s/meta"
: >"$s/results.tsv"
score=$("$report" student --rubric "$T/rubric" --dir "$s")
[ "$score" = "0 11.5" ] && pass "grade-report: a submission that was not graded scores 0" ||
	fail "grade-report: a submission that was not graded scores 0" "got '$score'"
expect_grep "grade-report: its tests are not-run, with the reason" $'^lab1.a\t1\tnot-run\t0\t2\t0.00\tthe kernel does not build' "$s/scores.tsv"
mkdir -p "$T/class/students/carl.partial"
printf 'lab1.a\nlab1.b\nlab2.c\nlab3.new\n' >"$T/known"
"$report" class --rubric "$T/rubric" --out "$T/class" --known "$T/known" 2>"$T/class.err"
expect_grep "grade-report: warns about a test with no rubric line" 'lab3.new has no rubric line' "$T/class.err"
expect_grep "grade-report: warns about a rubric line with no test" 'rubric line lab2.d names no test' "$T/class.err"
expect_grep "grade-report: warns about results of an unscored test" 'lab9.extra reported results' "$T/class.err"
if [ "$(cat "$T/class/gradebook.csv")" = "student,lab1,lab2,total,max,status
ann,2,0,2,11.5,graded
bob,0,0,0,11.5,does-not-build" ]; then
	pass "grade-report: the gradebook has one row per finished student (not the .partial one)"
else
	fail "grade-report: the gradebook has one row per finished student (not the .partial one)" "$(cat "$T/class/gradebook.csv")"
fi
check "grade-report: results.json is valid JSON" jq -e . "$T/class/results.json"
[ "$(jq -r '.students[] | select(.student == "ann") | .tests[] | select(.id == "lab1.b") | .reason' "$T/class/results.json")" = "got 3, want 4" ] &&
	pass "grade-report: results.json has each test's verdict and reason" ||
	fail "grade-report: results.json has each test's verdict and reason"
check "grade-report: junit.xml is well-formed XML" xmllint --noout "$T/class/junit.xml"
[ "$(xmllint --xpath 'count(//testsuite[@name="ann"]/testcase/error)' "$T/class/junit.xml")" = 1 ] &&
	[ "$(xmllint --xpath 'count(//testsuite[@name="ann"]/testcase/failure)' "$T/class/junit.xml")" = 2 ] &&
	pass "grade-report: junit.xml: a crash is an error, fail and missing are failures" ||
	fail "grade-report: junit.xml: a crash is an error, fail and missing are failures"
expect_grep "grade-report: summary.md lists the tests most failed" '`lab1.b`: 1 of 2 students' "$T/class/summary.md"
expect_grep "grade-report: summary.md gives the score distribution" 'Mean 8.7%, median 8.7%' "$T/class/summary.md"
printf 'lab1.a 1 2\nlab1.a 1 3\n' >"$T/bad-rubric"
expect_status "grade-report: a rubric with a test twice is refused" 1 "$report" class --rubric "$T/bad-rubric" --out "$T/class"
printf 'lab1.a one 2\n' >"$T/bad-rubric"
expect_status "grade-report: a rubric line that is not 'ID LAB POINTS' is refused" 1 "$report" class --rubric "$T/bad-rubric" --out "$T/class"
