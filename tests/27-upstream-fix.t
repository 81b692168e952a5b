# Lab 6's upstream fix series (solutions/06-inlining/upstream-fix/) on
# the kernel source it was made against, Debian's linux-source-6.12: it
# applies with git am, its selftest applies alone, and checkpatch
# --strict is clean; a patch that does not fit, or that checkpatch faults,
# is a failure with its reason. Building and booting 6.12 stays out of
# make test's time.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/upstream-fix
rm -rf "$T"
mkdir -p "$T"
U=$KIT/solutions/06-inlining/upstream-fix

check "upstream-fix: the series applies to linux-source-6.12, its selftest alone too, and checkpatch --strict is clean" \
	"$U/check" --out "$T/good"

# The fix's context line changed: it no longer applies.
mkdir -p "$T/unfit" "$T/faulted"
cp "$U"/*.patch "$T/unfit/"
sed -i 's/^ \tinsn_buf\[cnt++\] = BPF_JMP_IMM(BPF_JLE, BPF_REG_1, BPF_MAX_LOOPS, 2);$/ \tinsn_buf[cnt++] = BPF_JMP_IMM(BPF_JLT, BPF_REG_1, BPF_MAX_LOOPS, 2);/' \
	"$T/unfit"/0001-*.patch
st=0
"$U/check" --out "$T/unfit-out" --series "$T/unfit" >"$T/unfit.out" 2>&1 || st=$?
check "upstream-fix: ... a patch that does not fit 6.12 fails (status $st)" test "$st" = 1
expect_grep "upstream-fix: ... and says which step" 'the series does not apply to linux-source-6.12' "$T/unfit.out"

# A space before a tab in an added line: it applies, checkpatch faults it.
cp "$U"/*.patch "$T/faulted/"
sed -i 's/^+\t\tskel->bss->ret_long = 0;$/+ \t\tskel->bss->ret_long = 0;/' "$T/faulted"/0002-*.patch
st=0
"$U/check" --out "$T/faulted-out" --series "$T/faulted" >"$T/faulted.out" 2>&1 || st=$?
check "upstream-fix: ... a patch that checkpatch --strict faults fails (status $st)" test "$st" = 1
expect_grep "upstream-fix: ... and names the patch" '0002-.*: total: [1-9]' "$T/faulted.out"
