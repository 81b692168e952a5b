# The work tree and the removal of bpf_loop, read from git: no build.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/base
rm -rf "$T"
mkdir -p "$T"
g() { git -C "$LINUX" "$@"; }

check "work tree: tags upstream and base exist" g rev-parse -q --verify 'base^{commit}'
nseries=$(find "$KIT/kernel-base/patches" -name '*.patch' | wc -l)
ncommits=$(g rev-list --count upstream..base)
if [ "$nseries" = "$ncommits" ] && [ "$(g merge-base upstream base)" = "$(g rev-parse upstream)" ]; then
	pass "work tree: base is upstream plus the $nseries patches of kernel-base/patches"
else
	fail "work tree: base is upstream plus the $nseries patches of kernel-base/patches" "$ncommits commits"
fi

# What the labs re-add must be gone at base, and present at upstream (which
# shows the search can find it).
removed='BPF_FUNC_loop|bpf_loop_proto|set_loop_callback_state|inline_bpf_loop|optimize_bpf_loop|update_loop_inline_state|loop_inline_state|BPF_MAX_LOOPS|long bpf_loop\('
paths=(kernel/bpf include/linux include/uapi/linux/bpf.h tools/include/uapi/linux/bpf.h)
found=$(g grep -n -E "$removed" base -- "${paths[@]}" || true)
if [ -z "$found" ]; then pass "base: no bpf_loop helper, proto, verifier support or inlining"; else fail "base: no bpf_loop helper, proto, verifier support or inlining" "$found"; fi
for sym in BPF_FUNC_loop bpf_loop_proto set_loop_callback_state inline_bpf_loop optimize_bpf_loop update_loop_inline_state BPF_MAX_LOOPS; do
	g grep -q -w "$sym" upstream -- "${paths[@]}" || fail "upstream has $sym (the search works)" "not found"
done
pass "upstream: every removed symbol is found by the same search"

selftests=(prog_tests/bpf_loop.c progs/bpf_loop.c progs/bpf_loop_bench.c benchs/bench_bpf_loop.c
	benchs/run_bench_bpf_loop.sh verifier/bpf_loop_inline.c progs/pyperf600_bpf_loop.c
	progs/strobemeta_bpf_loop.c)
left=""
for f in "${selftests[@]}"; do
	p=tools/testing/selftests/bpf/$f
	g cat-file -e "base:$p" 2>/dev/null && left="$left $f"
	g cat-file -e "upstream:$p" 2>/dev/null || left="$left (upstream lacks $f)"
done
if [ -z "$left" ]; then pass "base: the bpf_loop selftests, benchmark and scale variants are gone"; else fail "base: the bpf_loop selftests, benchmark and scale variants are gone" "$left"; fi
found=$(g grep -n -E 'USE_BPF_LOOP|bench_bpf_loop|bpf_loop\.bpf\.o|bpf_fill_big_prog_with_loop' base -- tools/testing/selftests/bpf || true)
if [ -z "$found" ]; then pass "base: no selftest, Makefile or bench entry refers to them"; else fail "base: no selftest, Makefile or bench entry refers to them" "$found"; fi
g show base:tools/testing/selftests/bpf/progs/pyperf.h >"$T/pyperf.h"
if grep -q 'unroll(full)' "$T/pyperf.h" && grep -q 'STACK_MAX_LEN' "$T/pyperf.h"; then
	pass "base: the unrolled pyperf stays for lab 4"
else
	fail "base: the unrolled pyperf stays for lab 4"
fi

# Helper IDs are ABI: every one in place, 181 kept as a reserved slot.
for h in include/uapi/linux/bpf.h tools/include/uapi/linux/bpf.h; do
	g show "upstream:$h" >"$T/upstream.h"
	g show "base:$h" >"$T/base.h"
	check "base: every helper ID of $h in place, 181 reserved" \
		"$BIN/helper-ids" "$T/upstream.h" "$T/base.h" 181:reserved_181
done

# The kernel build runs scripts/bpf_doc.py: both headers must pass it.
g show base:scripts/bpf_doc.py >"$T/bpf_doc.py"
for h in include/uapi/linux/bpf.h tools/include/uapi/linux/bpf.h; do
	g show "base:$h" >"$T/doc.h"
	check "base: bpf_doc.py accepts $h (man page)" python3 "$T/bpf_doc.py" --filename "$T/doc.h"
	python3 "$T/bpf_doc.py" --header --filename "$T/doc.h" >"$T/defs.h" 2>"$T/defs.err"
	if grep -q '= (void \*) 181;' "$T/defs.h" && grep -q 'bpf_strncmp)(.*= (void \*) 182;' "$T/defs.h"; then
		pass "base: bpf_doc.py makes helper definitions from $h with IDs in place"
	else
		fail "base: bpf_doc.py makes helper definitions from $h with IDs in place" "$(head -c 300 "$T/defs.err")"
	fi
done

# prepare: running it again changes nothing and leaves the student's branches alone.
g branch -f test/keep base >/dev/null
before=$(g for-each-ref --format='%(refname) %(objectname)' refs/tags refs/heads/test)
out=$("$KIT/kernel-base/prepare" 2>&1)
after=$(g for-each-ref --format='%(refname) %(objectname)' refs/tags refs/heads/test)
if [ "$before" = "$after" ] && ! grep -q 'extracting\|applying' <<<"$out"; then
	pass "prepare: a second run is a no-op and keeps every branch"
else
	fail "prepare: a second run is a no-op and keeps every branch" "$out"
fi
g branch -D test/keep >/dev/null

# prepare: a tarball the removal does not fit stops with the patch, the
# file and the fix, and leaves no half-made tree.
mkdir -p "$T/fake/linux-source-6.1/kernel/bpf"
echo "not the real file" >"$T/fake/linux-source-6.1/kernel/bpf/verifier.c"
echo "/*" >"$T/fake/linux-source-6.1/.gitignore"
tar -cJf "$T/fake.tar.xz" -C "$T/fake" linux-source-6.1
mkdir -p "$T/work/linux.partial/junk"   # what an interrupted run leaves
WORK=$T/work TARBALL=$T/fake.tar.xz "$KIT/kernel-base/prepare" >"$T/fake.out" 2>&1
st=$?
if [ "$st" != 0 ] && grep -q 'does not apply' "$T/fake.out" && grep -q '0001-gitignore-track' "$T/fake.out" && grep -q 'patch failed: .gitignore' "$T/fake.out" &&
	grep -q 'Fix:' "$T/fake.out" && [ ! -e "$T/work/linux" ]; then
	pass "prepare: a tarball the removal does not fit stops with patch, file and fix"
else
	fail "prepare: a tarball the removal does not fit stops with patch, file and fix" "status $st" "$(cat "$T/fake.out")"
fi
expect_grep "prepare: a tarball of another version is named before trying" 'not the tarball the kit was made against|is installed; the kit was made against' "$T/fake.out"
if [ ! -e "$T/work/linux.partial/junk" ]; then
	pass "prepare: an interrupted run's leftovers are cleared"
else
	fail "prepare: an interrupted run's leftovers are cleared"
fi
rm -rf "$T/work" "$T/fake" "$T/fake.tar.xz"

# Set-up without root: the missing packages and the exact command, no change.
printf 'make\nbpfloop-lab-no-such-package\n' >"$T/packages"
chmod 755 "$T" && chmod 644 "$T/packages"
out=$(KIT_PACKAGES=$T/packages setpriv --reuid=65534 --regid=65534 --clear-groups \
	env WORK="$T/nobody-work" "$KIT/lib/setup-deps" 2>&1)
st=$?
if [ "$st" = 1 ] && grep -q 'needs root' <<<"$out" &&
	grep -qF "su -c 'apt-get update && apt-get install -y --no-install-recommends bpfloop-lab-no-such-package'" <<<"$out" &&
	grep -q 'ask your administrator to install: make bpfloop-lab-no-such-package\|ask your administrator to install: bpfloop-lab-no-such-package' <<<"$out" &&
	{ ! command -v sudo >/dev/null || grep -q 'sudo apt-get install -y --no-install-recommends bpfloop-lab-no-such-package' <<<"$out"; }; then
	pass "setup: without root, it names the missing packages and the exact commands (su -c, and sudo where there is one)"
else
	fail "setup: without root, it names the missing packages and the exact commands (su -c, and sudo where there is one)" "status $st: $out"
fi

# A disk that fills up during extraction: a clear error, no half-made tree.
small=$T/small
mkdir -p "$small"
if mount -t tmpfs -o size=40m tmpfs "$small" 2>/dev/null; then
	out=$(WORK=$small "$KIT/kernel-base/prepare" 2>&1)
	st=$?
	if [ "$st" != 0 ] && grep -q 'Check the free space' <<<"$out" &&
		[ ! -e "$small/linux" ] && [ ! -e "$small/linux.partial" ]; then
		pass "prepare: a disk that fills up during extraction stops with the fix, no half-made tree"
	else
		fail "prepare: a disk that fills up during extraction stops with the fix" "status $st: $out" "$(ls "$small")"
	fi
	umount "$small"
else
	echo "# not tried here: mounting a small tmpfs is not allowed"
fi
