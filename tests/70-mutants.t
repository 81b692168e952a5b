# Known-wrong kernels of labs 1 and 2: the lab 2 family kernel
# (grading/mutants/lab2.patch on solution/02 + switch.patch) is built once.
# With no switch it passes every test of labs 0..2 (it is the reference);
# the guest's /proc/cmdline does not show the switch; and booted with
# bpfloop_mutant=NN, the suite tests that grading/mutants/lab2.expect names
# for mutant NN do not pass.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/mutants
rm -rf "$T"
mkdir -p "$T"
M=$KIT/grading/mutants
[ -f "$M/lab2.expect" ] || { fail "grading/mutants/lab2.expect exists"; exit 0; }

expect_family mutants lab2 2 mutant "$T" 3 || exit 0
