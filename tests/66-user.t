# A student who is not root: a clone of the kit that an ordinary user
# owns, its work folder theirs, then make setup, make lab N=0 and make
# check as that user. Once the packages are there nothing needs root: the
# build sandbox, the guest, every file the kit writes. (The user gets a
# copy of the kit's compiler cache, so that the set-up's build of base is
# the warm one a second run has.)
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/user
rm -rf "$T"
mkdir -p "$T"
U=bpfloop-student
if [ "$(id -u)" != 0 ]; then
	echo "# skip: making a user needs root"
	exit 0
fi
id -u "$U" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$U" ||
	{ fail "user: an ordinary user can be made" "useradd $U failed"; exit 0; }
home=$(getent passwd "$U" | cut -d: -f6)
kit=$home/kit
rm -rf "$kit" "$home/.cache/bpfloop-lab" "$home/.gitconfig"
# The kit as it is here: a clone, with the edits not yet committed.
git clone -q --no-hardlinks "$KIT" "$kit"
git -C "$KIT" diff HEAD --binary | git -C "$kit" apply --allow-empty
git -C "$KIT" ls-files -z --others --exclude-standard | (cd "$KIT" && xargs -0r cp --parents -t "$kit")
cache=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bpfloop-lab/ccache}
mkdir -p "$home/.cache/bpfloop-lab"
[ ! -d "$cache" ] || cp -a "$cache" "$home/.cache/bpfloop-lab/ccache"
chown -R "$U:" "$kit" "$home/.cache"
# as_user COMMAND...: COMMAND as the user, with a login's environment.
as_user() {
	(cd "$kit" && runuser -u "$U" -- env -i HOME="$home" USER="$U" LOGNAME="$U" LANG=C.UTF-8 \
		PATH=/usr/local/bin:/usr/bin:/bin "$@")
}

ts=$(now)
as_user make -s setup >"$T/setup.log" 2>&1
rc=$?
echo "# make setup as $U took $(elapsed "$ts")"
[ "$rc" = 0 ] && pass "user: make setup as an ordinary user (the packages present)" ||
	{ fail "user: make setup as an ordinary user (the packages present)" "status $rc: $(tail -n 8 "$T/setup.log")"; exit 0; }
as_user make -s lab N=0 >"$T/lab.log" 2>&1
rc=$?
[ "$rc" = 0 ] && pass "user: make lab N=0 as that user" || fail "user: make lab N=0 as that user" "status $rc: $(tail -n 5 "$T/lab.log")"
expect_grep "user: make lab says how to give git a name, when it has none" "git config --global user.email" "$T/lab.log"
ts=$(now)
as_user make -s check >"$T/check.log" 2>&1
rc=$?
echo "# make check as $U took $(elapsed "$ts")"
[ "$rc" = 0 ] && grep -q 'all lab 0..0 tests passed' "$T/check.log" &&
	pass "user: make check of lab 0 passes as that user (sandboxed build, guest, tests)" ||
	fail "user: make check of lab 0 passes as that user (sandboxed build, guest, tests)" "status $rc: $(tail -n 8 "$T/check.log")"
if ! runuser -u "$U" -- test -r /dev/kvm -a -w /dev/kvm; then
	expect_grep "user: the check says once why the guests run under TCG" 'KVM is not used.*TCG' "$T/check.log"
fi
others=$(find "$kit/work" "$home/.cache/bpfloop-lab" ! -user "$U" 2>/dev/null | head -n 5)
[ -z "$others" ] && pass "user: every file of the work folder and the compiler cache is the user's" ||
	fail "user: every file of the work folder and the compiler cache is the user's" "$others"
# Root in the user's checkout is warned (only the packages need root).
"$kit/lib/setup-deps" >"$T/root.log" 2>&1
expect_grep "user: root running the kit in the user's checkout is warned" "runs as root, in a checkout that belongs to $U" "$T/root.log"
# The user's work folder (some 5 GB) and cache go; the logs stay in $T.
cp -r "$kit/work/logs" "$T/user-logs" 2>/dev/null || true
rm -rf "$kit" "$home/.cache/bpfloop-lab"
