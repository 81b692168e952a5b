# Lab 0's proof: bpf_loop is absent at base and present upstream, by what
# the verifier and the helper probe say in a guest.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lab0
rm -rf "$T"
mkdir -p "$T"

base=$(kernel_at base 2>/dev/null) || { fail "lab0: a base kernel" "make kernel REF=base fails"; exit 0; }
"$KIT/grading/pipeline/run-suite" --quiet --kernel "$base" --out "$T/base" --lab 0
st=$?
expect_status "lab0: on base, every lab 0 test passes" 0 test "$st" = 0
for t in lab0.bpf_syscall lab0.jit lab0.btf lab0.helper_181_absent; do
	expect_verdict "lab0: on base, $t" "$T/base/results.tsv" "$t" pass
done

upstream=$(kernel_at upstream 2>"$T/upstream-build.err") || { fail "lab0: an upstream kernel" "$(tail -n 5 "$T/upstream-build.err")"; exit 0; }
"$KIT/grading/pipeline/run-suite" --quiet --kernel "$upstream" --out "$T/upstream" --lab 0
for t in lab0.bpf_syscall lab0.jit lab0.btf; do
	expect_verdict "lab0: on upstream, $t" "$T/upstream/results.tsv" "$t" pass
done
expect_verdict "lab0: on upstream, helper 181 is present (the absence test fails)" \
	"$T/upstream/results.tsv" lab0.helper_181_absent fail
# What the kernel did, as the guest observed it: loaded, ran, 500 calls.
for o in load=0 run=0 retval=500 calls=500; do
	expect_grep "lab0: on upstream, the same program: $o" "^ *# obs $o\$" "$T/upstream/results.ktap"
done
