# shellcheck shell=bash
# The kit's test helpers. A test file (tests/NN-name.t) sources this and
# calls check/expect_* once per behaviour; tests/run counts the results.
# shellcheck source=lib/kit.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/kit.sh"

TESTS_OUT=${TESTS_OUT:-$WORK/tests}
mkdir -p "$TESTS_OUT"
RESULTS=${RESULTS:-$TESTS_OUT/results}

_record() {
	local verdict=$1 name=$2
	echo "$verdict $name" >>"$RESULTS"
	if [ "$verdict" = ok ]; then
		printf 'ok - %s\n' "$name"
	else
		printf 'not ok - %s\n' "$name"
	fi
}

# pass NAME / fail NAME WHY: record one result.
pass() { _record ok "$1"; }
fail() {
	_record "not-ok" "$1"
	shift
	[ $# -eq 0 ] || printf '#   %s\n' "$@"
}

# check NAME COMMAND...: passes when COMMAND exits 0; its output is shown on failure.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "command failed: $*"
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
	fi
}

# expect_status NAME WANT COMMAND...: passes when COMMAND exits with WANT.
expect_status() {
	local name=$1 want=$2 got out
	shift 2
	out=$("$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "expected exit status $want, got $got from: $*"
		printf '%s\n' "$out" | tail -n 15 | sed 's/^/#   /'
	fi
}

# expect_grep NAME PATTERN FILE: passes when FILE has a line matching PATTERN (ERE).
expect_grep() {
	if grep -qE -- "$2" "$3" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "no line matching '$2' in $3"
	fi
}

# expect_verdict NAME RESULTS_TSV TEST_ID VERDICT: a suite result, by test id.
expect_verdict() {
	local name=$1 tsv=$2 id=$3 want=$4 got
	got=$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$tsv" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "$id: expected $want, got ${got:-no result} ($tsv)"
		awk -F'\t' -v id="$id" '$1 == id { print "#   reason: " $4 }' "$tsv" 2>/dev/null
	fi
}

# expect_caught NAME RESULTS_TSV ID,ID...: a known-wrong kernel is caught:
# each listed test's verdict is fail, crash or timeout (a pass, a skip or
# no result means the suite missed the mistake).
expect_caught() {
	local name=$1 tsv=$2 t v missed=""
	for t in ${3//,/ }; do
		v=$(awk -F'\t' -v id="$t" '$1 == id { print $2 }' "$tsv")
		case $v in
		fail | crash | timeout) ;;
		*) missed="$missed $t(${v:-no result})" ;;
		esac
	done
	if [ -z "$missed" ]; then
		pass "$name"
	else
		fail "$name" "not caught by:$missed ($tsv)"
	fi
}

# expect_hidden_switch NAME BZIMAGE NR DIR: a family kernel booted with
# bpfloop_mutant=NR runs 'cat /proc/cmdline', 'dmesg' and 'ls /sys/module'
# in the guest; no output may name the switch, and the command line must be there
# (console=ttyS0), so that an empty output cannot pass.
expect_hidden_switch() {
	local name=$1 image=$2 nr=$3 dir=$4 out
	out=$("$KIT/vm/qemu-run" --quiet --kernel "$image" --out "$dir" --append "bpfloop_mutant=$nr" \
		--cmd 'cat /proc/cmdline; dmesg; ls /sys/module' 2>"$dir.stderr")
	if ! printf '%s\n' "$out" | grep -q 'console=ttyS0'; then
		fail "$name" "no command line in the guest's output ($dir)"
	elif printf '%s\n' "$out" | grep -q 'bpfloop_mutant'; then
		fail "$name" "$(printf '%s\n' "$out" | grep -m 3 'bpfloop_mutant')"
	else
		pass "$name"
	fi
}

# cell OUT STUDENT COLUMN: a cell of OUT/gradebook.csv, the column found
# by its header's name (nothing when there is no such column or student).
cell() {
	awk -F, -v s="$2" -v c="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		k && $1 == s { print $k }' "$1/gradebook.csv"
}

# expect_reference PREFIX REF LAB DIR: REF's kernel builds, and passes
# every suite test of labs 0..LAB (lab 2's and lab LAB's among them); the
# kernel's path is left in IMAGE. Returns 1 when it does not build.
expect_reference() {
	local prefix=$1 ref=$2 lab=$3 dir=$4 tsv count bad
	if ! IMAGE=$(kernel_at "$ref" 2>"$dir/reference.build.err"); then
		fail "$prefix: $ref builds" "$(tail -n 12 "$dir/reference.build.err")"
		return 1
	fi
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$IMAGE" --out "$dir/reference" --lab "$lab" >/dev/null 2>&1
	tsv=$dir/reference/results.tsv
	count=$(grep -c "^lab$lab\\." "$tsv")
	bad=$(awk -F'\t' '$2 != "pass" { print $1 "(" $2 ")" }' "$tsv" | tr '\n' ' ')
	if [ -z "$bad" ] && [ "$count" -gt 0 ] && grep -q '^lab2\.' "$tsv"; then
		pass "$prefix: $ref passes every suite test of labs 0..$lab ($(wc -l <"$tsv"), $count of lab $lab)"
	else
		fail "$prefix: $ref passes every suite test of labs 0..$lab" "not passed: ${bad:-none} ($tsv)"
	fi
}

# expect_family PREFIX FAMILY LAB SLOT DIR NR: the known-wrong kernel
# family grading/mutants/FAMILY, built once in build slot SLOT. With no
# switch it passes every suite test of labs 0..LAB (it is the reference);
# booted with bpfloop_mutant=NR, the guest does not show the switch; and
# each mistake of FAMILY.expect is caught by the tests it names. Results
# go under DIR. Returns 1 (after a failed check) when it cannot build.
expect_family() {
	local prefix=$1 family=$2 lab=$3 slot=$4 dir=$5 nr=$6 commit image tsv bad name tests
	local m=$KIT/grading/mutants
	if ! commit=$(kit_mutant_commit "$family" 2>"$dir/$family.commit.err"); then
		fail "$prefix: the $family family applies" "$(cat "$dir/$family.commit.err")"
		return 1
	fi
	if ! image=$(kernel_at "$commit" "$slot" 2>"$dir/$family.build.err"); then
		fail "$prefix: the $family family kernel builds" "$(tail -n 12 "$dir/$family.build.err")"
		return 1
	fi
	"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$dir/$family-none" --lab "$lab" >/dev/null 2>&1
	tsv=$dir/$family-none/results.tsv
	bad=$(awk -F'\t' '$2 != "pass" { print $1 "(" $2 ")" }' "$tsv" | tr '\n' ' ')
	if [ -z "$bad" ] && grep -q '^lab1\.' "$tsv" && grep -q "^lab$lab\\." "$tsv"; then
		pass "$prefix: the $family family with no switch passes every suite test of labs 0..$lab ($(wc -l <"$tsv"))"
	else
		fail "$prefix: the $family family with no switch passes every suite test of labs 0..$lab" \
			"not passed: ${bad:-none} ($tsv)"
	fi
	expect_hidden_switch "$prefix: the guest (/proc/cmdline, dmesg, /sys/module) does not show bpfloop_mutant=$nr" \
		"$image" "$nr" "$dir/$family-cmdline"
	while read -r name tests; do
		"$KIT/grading/pipeline/run-suite" --quiet --kernel "$image" --out "$dir/$name" --lab "$lab" \
			--append "bpfloop_mutant=$((10#${name%%-*}))" >/dev/null 2>&1 || true
		expect_caught "$prefix: mutant $name is caught by: $tests" "$dir/$name/results.tsv" "$tests"
	done < <(grep -v '^#' "$m/$family.expect" | grep -v '^$')
}

# A kernel of the work tree at REF, built once per commit (kbuild/kernel-build),
# in the scratch tree and build folder SLOT (default "ref"; the mutants use
# their own, so that switching between them rebuilds little).
kernel_at() {
	"$KIT/kbuild/kernel-build" --ref "$1" --slot "${2:-ref}"
}

# kit_copy A: the kit as it stands (tracked files, with their edits) in
# A, a repository of its own, so that git can say what a change touched.
kit_copy() {
	mkdir -p "$1"
	(cd "$KIT" && git ls-files -z | while IFS= read -r -d '' f; do [ ! -e "$f" ] || printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -xf - -C "$1"
	git -C "$1" init -q && kit_git -C "$1" add -A && kit_git -C "$1" commit -q -m kit
}
# kit_copy_work W: a work folder for a kit copy: the host tools and the
# suite's BPF objects as they are, the work tree and the accelerator of
# this one; the rest the copy's own make builds.
kit_copy_work() {
	mkdir -p "$1/bin" "$1/suite"
	cp -p "$BIN"/* "$1/bin/"
	cp -p "$WORK"/suite/*.bpf.o "$WORK"/suite/*.skel.h "$1/suite/"
	cp -pr "$WORK"/suite/lab4-* "$1/suite/"
	ln -s "$LINUX" "$1/linux"
	cp "$WORK/accel" "$1/"
}

# Kept for the tests' wording; the kit's own function lives in lib/kit.sh.
commit_with_patch() { kit_commit_with_patch "$@"; }

# work_like DIR: a second work folder in DIR, as a student's machine has it
# after set-up: a clone of the work tree sharing its objects (no second
# tarball), with the same tags and branches; the kit's programs, suite and
# initramfs; the kit's own build of base, which every build folder starts
# from (as after set-up, the work tree's files are older than that build).
work_like() {
	local S=$1
	mkdir -p "$S"
	git clone -q --shared --no-checkout "$LINUX" "$S/linux" &&
		git -C "$S/linux" fetch -q origin 'refs/heads/solution/*:refs/heads/solution/*' &&
		git -C "$S/linux" checkout -q --detach base || return 1
	mkdir -p "$S/linux/.git/bpfloop" "$S/bin" "$S/suite" "$S/initramfs" "$S/slots/trusted"
	cp "$LINUX"/.git/bpfloop/* "$S/linux/.git/bpfloop/"
	cp -p "$BIN"/* "$S/bin/"
	cp -pr "$WORK"/suite/* "$S/suite/"
	cp -p "$WORK"/initramfs/* "$S/initramfs/"
	cp "$WORK/accel" "$S/accel" 2>/dev/null || true
	git -C "$S/linux" ls-files -z | (cd "$S/linux" && xargs -0 touch -h -d 2000-01-01)
	"$KIT/kbuild/kernel-build" --trusted --quiet >/dev/null 2>&1 || true
	cp -a "$WORK/slots/trusted/build" "$S/slots/trusted/"
	# Base's kept kernel, which the set-up keeps with the trusted build
	# (the preflight boots it).
	local k
	k=$("$KIT/kbuild/kernel-build" --kept --ref base 2>/dev/null) &&
		mkdir -p "$S/kernels" && cp -a "$(dirname "$k")" "$S/kernels/"
}

# ssh_hosts DIR NAME=WORK...: "machines" for the tests of grading over ssh:
# one sshd per NAME on 127.0.0.1, each its own machine as far as a login
# can tell: its own home (DIR/home-NAME) and its own work folder (WORK is
# set for its logins, as a machine whose kit's work folder is WORK). The
# sshd comes from Debian's openssh-server package, unpacked into the work
# folder (not installed: nothing is left running or configured on this
# machine), and runs as an unprivileged user in a user namespace
# (bubblewrap), with a passwd file that names that user. Writes
# DIR/ssh_config (Host NAME for each) and DIR/pids; ssh_hosts_stop DIR
# stops them. Returns 1 (its reason on stderr) when it cannot.
ssh_hosts() {
	local dir=$1 pkg=$WORK/tests/openssh-server lib name work port host
	shift
	mkdir -p "$dir" && rm -f "$dir/pids" || return 1
	if [ ! -x "$pkg/root/usr/sbin/sshd" ]; then
		rm -rf "$pkg" && mkdir -p "$pkg/debs" || return 1
		if ! (cd "$pkg/debs" && apt-get download openssh-server libwrap0 >"$pkg/download.log" 2>&1); then
			echo "ssh_hosts: cannot fetch openssh-server (log: $pkg/download.log)" >&2
			return 1
		fi
		for f in "$pkg"/debs/*.deb; do dpkg-deb -x "$f" "$pkg/root" || return 1; done
	fi
	lib=$(dirname "$(find "$pkg/root" -name 'libwrap.so.0*' | head -n 1)")
	ssh-keygen -q -t ed25519 -N '' -f "$dir/hostkey" <<<y >/dev/null 2>&1 &&
		ssh-keygen -q -t ed25519 -N '' -f "$dir/key" <<<y >/dev/null 2>&1 || return 1
	cp "$dir/key.pub" "$dir/authorized_keys"
	: >"$dir/ssh_config"
	for host in "$@"; do
		name=${host%%=*} work=${host#*=}
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		mkdir -p "$dir/home-$name"
		{ echo "kit:x:1000:1000:kit:$dir/home-$name:/bin/bash"; grep -v '^kit:' /etc/passwd; } >"$dir/passwd-$name"
		{ echo "kit:x:1000:"; grep -v '^kit:' /etc/group; } >"$dir/group-$name"
		printf 'Port %s\nListenAddress 127.0.0.1\nHostKey %s\nAuthorizedKeysFile %s\nPidFile %s\nUsePAM no\nStrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nSetEnv WORK=%s\n' \
			"$port" "$dir/hostkey" "$dir/authorized_keys" "$dir/sshd-$name.pid" "$work" >"$dir/sshd_config-$name"
		bwrap --bind / / --dev-bind /dev /dev --ro-bind "$dir/passwd-$name" /etc/passwd \
			--ro-bind "$dir/group-$name" /etc/group --unshare-user --uid 1000 --gid 1000 \
			--setenv LD_LIBRARY_PATH "$lib" "$pkg/root/usr/sbin/sshd" -D -f "$dir/sshd_config-$name" \
			-E "$dir/sshd-$name.log" &
		echo $! >>"$dir/pids"
		printf 'Host %s\n\tPort %s\n' "$name" "$port" >>"$dir/ssh_config"
	done
	printf 'Host *\n\tHostName 127.0.0.1\n\tUser kit\n\tIdentityFile %s\n\tIdentitiesOnly yes\n\tBatchMode yes\n\tStrictHostKeyChecking no\n\tUserKnownHostsFile %s\n\tLogLevel ERROR\n' \
		"$dir/key" "$dir/known_hosts" >>"$dir/ssh_config"
	for host in "$@"; do
		name=${host%%=*}
		for _ in $(seq 50); do
			ssh -F "$dir/ssh_config" "$name" true 2>/dev/null && break
			sleep 0.2
		done
		ssh -F "$dir/ssh_config" "$name" true ||
			{ echo "ssh_hosts: cannot log in to $name (log: $dir/sshd-$name.log)" >&2; return 1; }
	done
}
ssh_hosts_stop() {
	local p
	[ -f "$1/pids" ] || return 0
	while read -r p; do kill "$p" 2>/dev/null; done <"$1/pids"
	rm -f "$1/pids"
}
