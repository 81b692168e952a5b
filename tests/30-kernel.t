# Building the base kernel: configuration, warnings, the kept result.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/kernel
rm -rf "$T"
mkdir -p "$T"

ts=$(now)
if image=$(kernel_at base 2>"$T/build.err"); then
	pass "kernel: base builds ($(elapsed "$ts"), or kept from an earlier build)"
else
	fail "kernel: base builds" "$(tail -n 20 "$T/build.err")"
	exit 0
fi
kept=$(dirname "$image")
check "kernel: the bzImage is kept per source tree" test -s "$image"
check "kernel: every option of kernel-base/lab.config is in the .config" \
	"$BIN/config-check" "$KIT/kernel-base/lab.config" "$kept/.config"

# The removal must not bring warnings into the files it touched.
touched=$(git -C "$LINUX" diff --name-only upstream base -- kernel include | tr '\n' '|')
touched=${touched%|}
warnings=$(grep -E "^($touched):[0-9]+:[0-9]+: warning:" "$kept/build.log" || true)
if [ -s "$kept/build.log" ] && [ -z "$warnings" ]; then
	pass "kernel: no warnings in the files the removal touched"
else
	fail "kernel: no warnings in the files the removal touched" "${warnings:-no build log in $kept}"
fi

# A second build of the same commit costs nothing.
ts=$(now)
again=$(kernel_at base 2>/dev/null)
if [ "$again" = "$image" ]; then
	pass "kernel: a second build of base is the kept one ($(elapsed "$ts"))"
else
	fail "kernel: a second build of base is the kept one" "$again"
fi

# A build failure names the first error with context and the log.
g() { git -C "$LINUX" "$@"; }
g branch -f test/broken base >/dev/null
wt=$T/broken-tree
g worktree add -q --detach "$wt" base
printf '\nint this_does_not_build = ;\n' >>"$wt/kernel/bpf/bpf_iter.c"
git -C "$wt" -c user.name=t -c user.email=t@t commit -qam "break the build"
broken=$(git -C "$wt" rev-parse HEAD)
git -C "$LINUX" worktree remove --force "$wt"
"$KIT/kbuild/kernel-build" --ref "$broken" >"$T/broken.out" 2>&1
st=$?
if [ "$st" != 0 ] && grep -q '^> .*bpf_iter.c:[0-9]*:[0-9]*: error:' "$T/broken.out" &&
	grep -q 'full log:' "$T/broken.out"; then
	pass "kernel: a broken build shows its first error, marked, and the log path"
else
	fail "kernel: a broken build shows its first error, marked, and the log path" "$(tail -n 12 "$T/broken.out")"
fi
g branch -D test/broken >/dev/null
# Put the scratch tree back at base so the next build there is incremental.
kernel_at base >/dev/null 2>&1 || true
