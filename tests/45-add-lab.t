# Adding a lab touches the test table and the test's own code, nothing
# else. A copy of the kit gains a lab 8 test (one line in
# grading/tests.list, and grading/suite/lab8.c); the copy's own make then
# lists it, builds it into the suite, runs it in the guest on base, judges
# it on the host and scores it, like any other test.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/add-lab
rm -rf "$T"
A=$T/kit W=$T/work
kit_copy "$A"

# The change, as grading/README.md's "Adding a test or a lab" has it.
echo 'lab8.dummy 8 2 suite a number the host draws goes through a pipe in the guest and back' \
	>>"$A/grading/tests.list"
cat >"$A/grading/suite/lab8.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* Lab 8 (a dummy): a number drawn from the run's seed goes through a pipe. */
#include <unistd.h>

#include "suite.h"

static long long drawn(const struct test_ctx *ctx)
{
	return (long long)param(ctx, "n", 1, 1000000);
}

RUN(lab8_dummy)
{
	long long n = drawn(ctx), back = 0;
	int p[2];

	if (pipe(p)) {
		observe(ctx, -1, "pipe");
		return;
	}
	observe(ctx, write(p[1], &n, sizeof(n)) == sizeof(n) && read(p[0], &back, sizeof(back)) == sizeof(back)
		? back : -1, "back");
	close(p[0]);
	close(p[1]);
}

JUDGE(lab8_dummy)
{
	CHECK_EQ(ctx, seen(ctx, "back"), drawn(ctx), "the number read back");
}
EOF
got=$(git -C "$A" status --porcelain | sort | paste -sd' ' -)
[ "$got" = " M grading/tests.list ?? grading/suite/lab8.c" ] &&
	pass "add a lab: the change is the table's line and the test's file" ||
	fail "add a lab: the change is the table's line and the test's file" "git status: $got"

# The copy's work folder: the host tools and the BPF objects as they are
# (the change touches neither), the rest made by the copy's own Makefile.
# The suite's copy of lab 4's programs names the work tree's solution/07:
# the copy sees the same work tree.
kit_copy_work "$W"
ts=$(now)
if make -s -C "$A" WORK="$W" suite initramfs >"$T/make.log" 2>&1; then
	pass "add a lab: the copy's make builds the suite, its judge and the initramfs ($(elapsed "$ts"))"
else
	fail "add a lab: the copy's make builds the suite, its judge and the initramfs" "$(tail -n 20 "$T/make.log")"
fi
expect_grep "add a lab: plan lists lab 8" '^8$' <("$W/bin/plan" --tests "$A/grading/tests.list" labs)
expect_grep "add a lab: the default rubric gives it its points" '^lab8\.dummy 8 2$' \
	<("$W/bin/plan" --tests "$A/grading/tests.list" rubric | tr '\t' ' ')
expect_grep "add a lab: the suite's table has it" 'lab8_dummy' "$W/suite/tests.h"

# Run in the guest, on base, judged on the host by the copy's judge.
image=$(kernel_at base 2>/dev/null) || { fail "add a lab: a base kernel to boot" "make kernel REF=base fails"; exit 0; }
R=$T/run
WORK=$W "$A/grading/pipeline/run-suite" --kernel "$image" --out "$R" --lab 8 --only lab8.dummy --quiet \
	>"$T/run.log" 2>&1
expect_grep "add a lab: the test runs in the guest and the host's judge passes it" $'^lab8\\.dummy\tpass\t' "$R/results.tsv"
grep -q '# obs back=' "$R/results.ktap" 2>/dev/null &&
	pass "add a lab: ... from the observation the guest reported" ||
	fail "add a lab: ... from the observation the guest reported" "$(head -c 2000 "$R/results.ktap" 2>/dev/null)"
# A report whose number is not the drawn one: the judge fails it.
mkdir -p "$T/forged/boot-1"
sed -E 's/^( *# obs back=)[0-9]+$/\10/' "$R/boot-1/output" >"$T/forged/boot-1/output"
seed=$(cat "$R/seed" 2>/dev/null)
"$W/bin/suite-judge" --seed "$seed" --plan lab8.dummy "$T/forged/boot-1" >"$T/forged.tsv" 2>/dev/null
expect_grep "add a lab: a report of another number is not a pass" $'^lab8\\.dummy\t(fail|tampered)\t' "$T/forged.tsv"

# Scored like any other test.
s=$T/student
mkdir -p "$s/stages"
printf 'student\tdummy\n' >"$s/meta"
stage_status "$s/stages/build" ok "" ""
cp "$R/results.tsv" "$s/results.tsv"
"$W/bin/grade-report" student --tests "$A/grading/tests.list" --dir "$s" >"$T/score.out" 2>&1
expect_grep "add a lab: grade-report scores it in lab 8" $'^lab8\\.dummy\t8\tpass\t2\t2' "$s/scores.tsv"

# A host-side lab is a folder of its own: its runner (called by
# grading/pipeline/host-lab like every lab's), its judge and make fragment
# (the Makefile includes every grading/lab*/lab.mk), the kernels make grade
# builds for it (grading/labN/kernels), and its tests' lines in the table.
kit_git -C "$A" add -A && kit_git -C "$A" commit -q -m lab8
echo 'lab9.has_selftest 9 1 lab9 the submission has a lab 3 selftest of more than the seed says' \
	>>"$A/grading/tests.list"
mkdir -p "$A/grading/lab9"
cat >"$A/grading/lab9/lab.mk" <<'EOF'
# grading/lab9/lab.mk: a dummy host lab's judge.
$(BIN)/lab9-judge: grading/lab9/lab9-judge.c grading/pipeline/ktap.h | $(BIN)
	$(CC) $(CFLAGS) -Igrading/pipeline -o $@ $<
lab9-tools: $(BIN)/lab9-judge
host-tools: lab9-tools
.PHONY: lab9-tools
EOF
cat >"$A/grading/lab9/kernels" <<'EOF'
lab9 solution/01 lab 1's reference kernel, which lab 9 would boot
EOF
cat >"$A/grading/lab9/lab9-judge.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* Lab 9 (a dummy): the file has more lines than the seed's low bits say. */
#include <stdio.h>
#include <stdlib.h>

#include "ktap.h"

int main(int argc, char **argv)
{
	unsigned long need = argc == 3 ? strtoul(argv[1], NULL, 16) % 8 + 1 : 1, lines = 0;
	FILE *f = argc == 3 ? fopen(argv[2], "r") : NULL;
	struct ktap k;
	char why[64];
	int c;

	while (f && (c = fgetc(f)) != EOF)
		lines += c == '\n';
	snprintf(why, sizeof(why), "%lu lines, %lu wanted", lines, need);
	ktap_begin(&k, stdout, "lab9", 1);
	ktap_result(&k, "lab9.has_selftest", NULL, lines < need, why, NULL);
	return !ktap_end(&k);
}
EOF
cat >"$A/grading/lab9/run-lab9" <<'EOF'
#!/usr/bin/env bash
# run-lab9 --ref COMMIT --out DIR --quiet --seed HEX16: a dummy host lab.
set -euo pipefail
. "$(dirname "$0")/../../lib/kit.sh"
ref="" out="" seed=0
while [ $# -gt 0 ]; do
	case $1 in
	--ref) ref=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--quiet) shift ;;
	*) die "run-lab9: unknown argument '$1'" ;;
	esac
done
make -s -C "$KIT" lab9-tools >/dev/null
mkdir -p "$out"
f=tools/testing/selftests/bpf/prog_tests/bpf_loop.c
kit_take "$ref" "$out/tree" $((1 << 20)) "$f"
"$BIN/lab9-judge" "$seed" "$out/tree/$f" >"$out/lab9.ktap" || true
"$BIN/ktap" "$out/lab9.ktap" >"$out/results.tsv"
EOF
chmod +x "$A/grading/lab9/run-lab9"
got=$(git -C "$A" status --porcelain | sort | paste -sd' ' -)
[ "$got" = " M grading/tests.list ?? grading/lab9/" ] &&
	pass "add a host lab: the change is the table's line and the lab's own folder" ||
	fail "add a host lab: the change is the table's line and the lab's own folder" "git status: $got"
expect_grep "add a host lab: plan runs it where the table says" '^lab9$' <("$W/bin/plan" --tests "$A/grading/tests.list" where)
expect_grep "add a host lab: the Makefile reads its make fragment" 'lab9-judge' \
	<(make -n -C "$A" WORK="$W" host-tools 2>&1)
expect_grep "add a host lab: make grade builds its kernel for the class" $'^lab9\tsolution/01\t' \
	<(KIT=$A WORK=$W LINUX=$LINUX bash -c '. "$KIT/lib/kit.sh"; kit_lab_kernels' 2>&1)
# Run by the pipeline's host-lab, on a commit with the file and on one without.
for r in solution/03 base; do
	KIT=$A WORK=$W "$A/grading/pipeline/host-lab" --lab lab9 --ref "$r" --out "$T/lab9-${r//\//-}" \
		>"$T/lab9-${r//\//-}.log" 2>&1 || true
done
expect_grep "add a host lab: host-lab runs it and its judge passes a submission that has the file" \
	$'^lab9\\.has_selftest\tpass\t' "$T/lab9-solution-03/results.tsv"
expect_grep "add a host lab: ... and fails one that has not" $'^lab9\\.has_selftest\tfail\t' "$T/lab9-base/results.tsv"
s=$T/student9
mkdir -p "$s/stages"
printf 'student\tdummy\n' >"$s/meta"
stage_status "$s/stages/build" ok "" ""
cp "$T/lab9-solution-03/results.tsv" "$s/results.tsv"
cp "$T/lab9-solution-03/status" "$s/stages/lab9" 2>/dev/null || true
"$W/bin/grade-report" student --tests "$A/grading/tests.list" --dir "$s" >"$T/score9.out" 2>&1
expect_grep "add a host lab: grade-report scores it in lab 9" $'^lab9\\.has_selftest\t9\tpass\t1\t1' "$s/scores.tsv"
