# Lab 3: the reference selftests build, pass on the reference kernel and
# catch every lab 3 mutant; a weak suite is caught missing some; a tree
# without selftests gets a clear failure.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab3
rm -rf "$T"
mkdir -p "$T"
tsv() { awk -F'\t' -v id="$2" '$1 == id { print $2 }' "$1/results.tsv"; }

"$KIT/grading/lab3/run-lab3" --quiet --ref solution/03 --out "$T/reference" >/dev/null 2>"$T/reference.err"
expect_verdict "lab3: the reference selftests build" "$T/reference/results.tsv" lab3.builds pass
expect_verdict "lab3: the reference selftests pass on solution/02" "$T/reference/results.tsv" lab3.pass_on_reference pass
missed=$(awk -F'\t' '$1 ~ /^lab3\.catches\./ && $2 != "pass" { print $1 }' "$T/reference/results.tsv")
count=$(grep -c '^lab3\.catches\.' "$T/reference/results.tsv")
if [ -z "$missed" ] && [ "$count" -gt 0 ]; then
	pass "lab3: the reference selftests catch all $count lab 3 mutants"
else
	fail "lab3: the reference selftests catch every lab 3 mutant" "missed: $missed ($count in all)"
fi

"$KIT/grading/lab3/run-lab3" --quiet --tree "$KIT/tests/fixtures/lab3-weak" --out "$T/weak" >/dev/null 2>&1
expect_verdict "lab3: a weak suite builds" "$T/weak/results.tsv" lab3.builds pass
expect_verdict "lab3: a weak suite passes on the reference" "$T/weak/results.tsv" lab3.pass_on_reference pass
expect_verdict "lab3: a weak suite misses unchecked flags" "$T/weak/results.tsv" lab3.catches.03-flags-not-checked fail
expect_verdict "lab3: a weak suite still catches a wrong count" "$T/weak/results.tsv" lab3.catches.13-end-returns-zero pass

"$KIT/grading/lab3/run-lab3" --quiet --ref solution/02 --out "$T/none" >/dev/null 2>&1
expect_verdict "lab3: a tree without selftests does not build" "$T/none/results.tsv" lab3.builds fail
expect_grep "lab3: ... and the reason names the missing file" $'^lab3.builds\tfail\t.*bpf_loop.c is missing' "$T/none/results.tsv"

# Lab 3's example: the two files its text shows are the kit's copies in
# labs/03-selftests/example/, they build under the kit's harness against
# the reference kernel's vmlinux.h, and both subtests pass on that kernel.
E=labs/03-selftests/example/tools/testing/selftests/bpf
mkdir -p "$T/blocks"
cat >"$T/blocks.lua" <<'END'
local n = 0
function CodeBlock(el)
  if el.classes[1] == "c" then
    n = n + 1
    local f = assert(io.open(os.getenv("BLOCKS") .. "/" .. n .. ".c", "w"))
    f:write(el.text, "\n")
    f:close()
  end
end
END
BLOCKS=$T/blocks pandoc --preserve-tabs --from=markdown --to=html5 --lua-filter="$T/blocks.lua" --output=/dev/null \
	"$KIT/labs/03-selftests/README.md"
for f in progs/bpf_loop.c prog_tests/bpf_loop.c; do
	same=""
	for b in "$T"/blocks/*.c; do
		cmp -s "$b" "$KIT/$E/$f" && same=$b
	done
	if [ -n "$same" ]; then
		pass "lab3: the text shows $E/$f as it is"
	else
		fail "lab3: the text shows $E/$f as it is" "no C block of labs/03-selftests/README.md is that file"
	fi
done
if reference=$(kernel_at solution/02 2>"$T/example-kernel.err") &&
	"$KIT/grading/pipeline/guest-build" --tree "$KIT/labs/03-selftests/example" --out "$T/example" \
		--vmlinux-h "$(dirname "$reference")/vmlinux.h" \
		--bpf tools/testing/selftests/bpf/progs/bpf_loop.c=bpf_loop \
		--user tools/testing/selftests/bpf/prog_tests/bpf_loop.c \
		--kit grading/lab3/harness.c --kit grading/guest/guest.c --link lab3-selftests \
		--symbol '(serial_)?test_bpf_loop' >"$T/example-build.out" 2>&1; then
	pass "lab3: the example builds under the kit's harness"
	"$KIT/vm/qemu-run" --quiet --kernel "$reference" --out "$T/example-run" --timeout "${TEST_TIMEOUT:-120}" \
		--add "$T/example/lab3-selftests:/usr/bin/lab3-selftests" --cmd lab3-selftests \
		>"$T/example-run.out" 2>&1
	st=$?
	"$BIN/ktap" "$T/example-run/output" >"$T/example-run.tsv" 2>/dev/null
	expect_status "lab3: the example passes on solution/02" 0 test "$st" = 0
	expect_verdict "lab3: ... its helper subtest passes" "$T/example-run.tsv" lab3.selftest.load_bytes pass
	expect_verdict "lab3: ... and so does its refusal subtest" "$T/example-run.tsv" lab3.selftest.read_unchecked pass
else
	fail "lab3: the example builds under the kit's harness" "$(tail -n 15 "$T/example-kernel.err" "$T/example-build.out" 2>/dev/null)"
fi
