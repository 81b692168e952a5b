# A verifier verdict a test expects is declared once, beside its BPF
# program (grading/suite/progs/verdict.h: REFUSED(prog, err, "says")), and
# the suite and its host judge take it from there: in a copy of the kit,
# changing one program's REFUSED() line alone changes what its test asks
# of solution/02's kernel. A malformed line stops the build, named.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/verdicts
rm -rf "$T"
A=$T/kit W=$T/work
kit_copy "$A"
kit_copy_work "$W"

# The table the kit builds from the kit's own programs.
"$KIT/grading/suite/expect-table" "$KIT"/grading/suite/progs/*.bpf.c >"$T/expect.h"
expect_grep "verdicts: the table has lab 2's r3_bad, with its error and message" \
	'^EXPECT_REFUSED\("r3_bad", -EACCES, "R3 !read_ok"\)$' "$T/expect.h"

# One line changed: what r3_bad's log must say.
sed -i 's/^REFUSED(r3_bad, -EACCES, "R3 !read_ok");$/REFUSED(r3_bad, -EACCES, "R3 is never said");/' \
	"$A/grading/suite/progs/lab2_reject.bpf.c"
got=$(git -C "$A" status --porcelain | paste -sd' ' -)
[ "$got" = " M grading/suite/progs/lab2_reject.bpf.c" ] &&
	pass "verdicts: the change is the program file's REFUSED() line" ||
	fail "verdicts: the change is the program file's REFUSED() line" "git status: $got"
if make -s -C "$A" WORK="$W" suite initramfs >"$T/make.log" 2>&1; then
	pass "verdicts: the copy's make builds the suite with it"
else
	fail "verdicts: the copy's make builds the suite with it" "$(tail -n 20 "$T/make.log")"
fi
image=$(kernel_at solution/02 2>/dev/null) || { fail "verdicts: solution/02's kernel" "make kernel REF=solution/02 fails"; exit 0; }
WORK=$W "$A/grading/pipeline/run-suite" --kernel "$image" --out "$T/run" --lab 2 \
	--only lab2.reject_r3_read,lab2.reject_ret_2 --quiet >"$T/run.log" 2>&1
expect_grep "verdicts: ... and on solution/02 r3_read now fails, naming the message it asks for" \
	$'^lab2\\.reject_r3_read\tfail\t.*the verifier.s log does not say "R3 is never said"' "$T/run/results.tsv"
expect_grep "verdicts: ... while the test beside it still passes" $'^lab2\\.reject_ret_2\tpass\t' "$T/run/results.tsv"

# A REFUSED( line of another shape: the build stops, naming file and line.
printf 'SEC("tc")\nint x_bad(void *c) { return 0; }\nREFUSED(x_bad, EACCES, "no minus");\n' >"$T/bad.bpf.c"
expect_status "verdicts: a malformed REFUSED() line is an error" 1 "$KIT/grading/suite/expect-table" "$T/bad.bpf.c"
expect_grep "verdicts: ... that names the file and the line" "^error: $T/bad.bpf.c:3: expected REFUSED" \
	<("$KIT/grading/suite/expect-table" "$T/bad.bpf.c" 2>&1 >/dev/null)
