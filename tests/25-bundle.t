# make bundle and make unbundle: the offline bundle for a workshop room.
# A bundle of this work folder (one small package and its dependencies for
# the packages' part: the kit's whole list is some hundreds of MB to
# download); a bundle cut short, changed or foreign is refused before
# anything is written; unpacked with no network into an empty work folder
# and compiler cache, it sets up, and make check of lab 0 boots base, then
# compiles only what an edit in kernel/bpf changes.
# Not covered here: installing packages that are missing (this machine has
# them all; unpack installs none and says so).
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/bundle
rm -rf "$T"
mkdir -p "$T"
B=$T/room.bundle.tar

ts=$(now)
"$KIT/lib/bundle" make --out "$B" --packages cpio >"$T/make.log" 2>&1
check "bundle: make bundle writes the file (exit 0)" test $? = 0
echo "# the bundle: $(($(stat -c %s "$B" 2>/dev/null || echo 0) >> 20)) MB, made in $(elapsed "$ts")"
tar -xOf "$B" debs.tar 2>/dev/null | tar -t 2>/dev/null >"$T/debs.list"
grep -q '/cpio_.*\.deb$' "$T/debs.list" && grep -q '/libc6_.*\.deb$' "$T/debs.list" &&
	pass "bundle: the package and what it depends on, as .deb files" ||
	fail "bundle: the package and what it depends on, as .deb files" "$(head -n 5 "$T/debs.list")"
tar -xOf "$B" kernels.tar 2>/dev/null | tar -t 2>/dev/null | grep -q "^$(basename "$(dirname "$(kernel_at base)")")/bzImage$" &&
	pass "bundle: base's kept kernel is in it" || fail "bundle: base's kept kernel is in it"

# Refused, nothing written: each unpacked into a work folder of its own.
refused() { # NAME FILE PATTERN
	local w=$T/w-$1
	WORK=$w CCACHE_DIR=$T/c-$1 "$KIT/lib/bundle" unpack --in "$2" >"$T/$1.log" 2>&1
	local st=$?
	if [ "$st" = 1 ] && grep -Eq "$3" "$T/$1.log" && [ ! -e "$w/linux" ] && [ ! -e "$w/slots" ] &&
		[ ! -e "$T/c-$1" ]; then
		pass "unbundle: $1 is refused with the reason, nothing written"
	else
		fail "unbundle: $1 is refused with the reason, nothing written" "status $st" "$(tail -n 3 "$T/$1.log")"
	fi
}
head -c $(($(stat -c %s "$B") / 2)) "$B" >"$T/cut.tar"
refused "a bundle cut short" "$T/cut.tar" 'not a bundle|does not match'
cp "$B" "$T/changed.tar"
# One byte inside the trusted build's part, the largest.
off=$(tar -tvf "$B" --block-number | awk '/trusted.tar.zst$/ { sub(":", "", $2); print ($2 + 1) * 512 + 4096 }')
printf 'X' | dd of="$T/changed.tar" bs=1 seek="$off" conv=notrunc status=none
refused "a bundle changed on the way" "$T/changed.tar" 'trusted.tar.zst does not match its MANIFEST'
mkdir -p "$T/foreign"
echo x >"$T/foreign/MANIFEST"
echo y >"$T/foreign/other.tar"
tar -C "$T/foreign" -cf "$T/foreign.tar" MANIFEST other.tar
refused "a foreign file" "$T/foreign.tar" 'not a bundle of this kit'

# A student's machine: an empty work folder and compiler cache, and no
# network at all when the host lets us cut it.
W=$T/work
C=$T/ccache
offline=(unshare -n)
"${offline[@]}" true 2>/dev/null || { offline=(); echo "# unshare -n is not allowed here: the network stays reachable"; }
ts=$(now)
WORK=$W CCACHE_DIR=$C "${offline[@]}" "$KIT/lib/bundle" unpack --in "$B" >"$T/unpack.log" 2>&1
check "unbundle: an empty work folder is set up from the bundle alone (exit 0)" test $? = 0
echo "# unpacked and set up in $(elapsed "$ts")"
expect_grep "unbundle: ... installing no package this machine has" 'packages: all present, none installed' "$T/unpack.log"
mk() { WORK=$W CCACHE_DIR=$C "${offline[@]}" make -s -C "$KIT" "$@"; }
mk lab N=0 >"$T/lab.log" 2>&1
ts=$(now)
mk check >"$T/check0.log" 2>&1
check "unbundle: make check of lab 0 builds the work tree and boots it" test $? = 0
echo "# the first make check: $(elapsed "$ts")"
cc0=$(grep -c '^  CC ' "$W/logs/build-linux.log" 2>/dev/null)
[ -n "$cc0" ] && [ "$cc0" -le 5 ] && pass "unbundle: ... compiling nothing of base ($cc0 files)" ||
	fail "unbundle: ... compiling nothing of base" "${cc0:-no build log} files compiled"
echo "/* a student's note */" >>"$W/linux/kernel/bpf/helpers.c"
ts=$(now)
mk check >"$T/check1.log" 2>&1
check "unbundle: make check after an edit in kernel/bpf passes" test $? = 0
echo "# make check after the edit: $(elapsed "$ts")"
cc1=$(grep -c '^  CC ' "$W/logs/build-linux.log" 2>/dev/null)
grep -q '^  CC  *kernel/bpf/helpers.o' "$W/logs/build-linux.log" && [ "$cc1" -le 10 ] &&
	pass "unbundle: ... compiling the edited file, not the kernel ($cc1 files)" ||
	fail "unbundle: ... compiling the edited file, not the kernel" "${cc1:-no build log} files compiled"
rm -rf "$T"
