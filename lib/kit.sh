# shellcheck shell=bash
# Shared by the kit's scripts: where things live, and how a stage reports.
# Source it; it defines no side effects beyond variables and functions.

KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-$KIT/work}
case $WORK in /*) ;; *) WORK=$KIT/$WORK ;; esac
LINUX=$WORK/linux
LOGS=$WORK/logs
BIN=$WORK/bin
export KIT WORK LINUX LOGS BIN
# Debian puts bpftool in /usr/sbin, which a user's PATH (and an ssh
# login's) does not have.
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin:/sbin && export PATH ;; esac

# Every limit the kit sets, with its one meaning; each can be set in the
# environment (make grade TEST_TIMEOUT=300). Seconds:
: "${BUILD_TIMEOUT:=3600}"		# one kernel build
: "${BOOT_TIMEOUT:=30}"			# QEMU's start until the guest's /init runs
: "${RUN_TIMEOUT:=900}"			# one boot of a guest, start to power-off
: "${TEST_TIMEOUT:=120}"		# one test: the result channel silent that long
: "${SUBMISSION_TIMEOUT:=5400}"		# everything the grader does for one submission
# Bytes:
: "${SUBMISSION_UNPACKED_CAP:=33554432}"	# the files a submission changes, unpacked
: "${CONSOLE_CAP:=4194304}"		# a guest's console (more is a flood)
: "${CHANNEL_CAP:=8388608}"		# a guest's result channel (more is a flood)
# What code from a student may use when the kit compiles it (lib/confine):
: "${CONFINE_MEM:=8589934592}"		# bytes of memory (per process, and in all)
: "${CONFINE_FILE:=2147483648}"		# bytes in one file it writes
: "${CONFINE_FILES:=4096}"		# files open at once, per process
: "${CONFINE_PROCS:=1024}"		# processes at once
: "${CONFINE_DISK_FLOOR:=4294967296}"	# bytes the disk it writes keeps free
: "${CONFINE_BUILD_ROOM:=2147483648}"	# bytes a confined kernel build may hold
export BUILD_TIMEOUT BOOT_TIMEOUT RUN_TIMEOUT TEST_TIMEOUT SUBMISSION_TIMEOUT SUBMISSION_UNPACKED_CAP \
	CONSOLE_CAP CHANNEL_CAP CONFINE_MEM CONFINE_FILE CONFINE_FILES CONFINE_PROCS \
	CONFINE_DISK_FLOOR CONFINE_BUILD_ROOM

# The kit's exit statuses, one meaning each, for every program of the kit:
#   0   done (whatever the grade)
#   1   failed (a student's code, or bad input: the message says which)
#   2   bad arguments
#   10  a pipeline stage decided the submission's verdict (STAGE_DECIDED)
#   75  the machine, not the submission: nothing is graded, no verdict is
#       written; the message names the cause and the fix, and the same
#       command run again after the fix resumes (EX_KIT; preflight, a
#       sandbox that cannot be made, a full disk, QEMU that cannot boot
#       the kit's own kernel, a grader killed from outside)
#   124 a time limit (timeout(1)'s)
#   125 lib/confine could not make the sandbox
EX_KIT=75
export EX_KIT

# kit_error_record FILE STAGE CAUSE FIX EVIDENCE: the one record of a
# fault of the machine (KEY<TAB>VALUE lines, as stage_status): the verdict
# kit-error, which stage met it, its cause, the fix, and what showed it
# was the machine's (a control's result, bwrap's own report).
kit_error_record() {
	local f=$1
	{
		printf 'verdict\tkit-error\nstage\t%s\n' "$2"
		printf 'cause\t%s\n' "$(printf '%s' "$3" | tr '\t\n' '  ' | cut -c1-500)"
		printf 'fix\t%s\n' "$(printf '%s' "$4" | tr '\t\n' '  ' | cut -c1-500)"
		printf 'evidence\t%s\n' "$(printf '%s' "$5" | tr '\t\n' '  ' | cut -c1-500)"
	} >"$f.tmp" && mv "$f.tmp" "$f"
}

# kit_root_warning: a warning when root runs the kit in a checkout that
# belongs to another user (sudo make ..., say): the work folder and the
# compiler cache it makes would be root's, and that user's own commands
# could not write them later.
kit_root_warning() {
	local owner
	[ "$(id -u)" = 0 ] || return 0
	owner=$(stat -c %U "$KIT" 2>/dev/null || echo root)
	[ "$owner" != root ] || [ -n "${SUDO_USER:-}" ] || return 0
	warn "this runs as root, in a checkout that belongs to ${SUDO_USER:-$owner}: the work folder ($WORK) and the compiler cache would belong to root. Run make as ${SUDO_USER:-$owner}; root is needed only to install missing packages."
}

# kit_guard_run: mark this run's processes (KIT_RUN, a token of its own,
# inherited by everything it starts) and leave a guard (lib/reap.c) that
# stops them all when this shell ends, however it ends.
kit_guard_run() {
	KIT_RUN=$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')
	export KIT_RUN
	"$BIN/reap" guard "$KIT_RUN" "$$" || warn "could not start the guard of this run's processes"
}

# kit_boot_base DIR: the kit's own base kernel (kept by the set-up) booted
# as a grade boots one, into the run folder DIR, running a command whose
# answer the guest computes. Status 0 it answered; 2 no base kernel is
# kept; otherwise qemu-run's (DIR/verdict says why).
kit_boot_base() {
	local base said rc=0
	base=$("$KIT/kbuild/kernel-build" --kept --ref base 2>/dev/null) || return 2
	# shellcheck disable=SC2016 # the guest's shell works it out
	said=$("$KIT/vm/qemu-run" --quiet --kernel "$base" --out "$1" --timeout 120 \
		--cmd 'echo answer-$((6 * 7))' 2>"$1.stderr") || rc=$?
	[ "$rc" != 0 ] || [ "$said" = answer-42 ] || rc=1
	return "$rc"
}

# One line per stage: "==> what (log: path)".
stage() { printf '==> %s\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# stage_status FILE VERDICT REASON LOG: the one format in which a stage
# tells the next what happened (KEY<TAB>VALUE lines; the C programs that
# decide read it, never a stage's messages). VERDICT is a word of the
# stage's own (its header says which); REASON one line; LOG a path.
stage_status() {
	printf 'verdict\t%s\nreason\t%s\nlog\t%s\n' "$2" "$(printf '%s' "$3" | tr '\t\n' '  ' | cut -c1-500)" \
		"$4" >"$1.tmp" && mv "$1.tmp" "$1"
}

# toolchain_id: a hash of the versions of what builds a kernel (kept
# kernels and the trusted build are keyed by it; a bundle must match it).
toolchain_id() {
	# sed, not head: head's early exit would kill the writer with SIGPIPE,
	# which pipefail turns into the caller's failure, now and then.
	{ gcc --version | sed -n 1p; ld --version | sed -n 1p; pahole --version
		make --version | sed -n 1p; } 2>&1 | sha256sum | cut -c1-8
}
# kit_toolchain: the versions of the tools that make a grade, on one line
# (each student's meta and the class's run.info carry it, so that a regrade
# can say whether it graded with the same tools).
kit_toolchain() {
	printf 'gcc %s, clang %s, pahole %s, qemu %s, libbpf %s, %s' \
		"$(gcc -dumpfullversion 2>/dev/null || echo none)" "$(clang -dumpversion 2>/dev/null || echo none)" \
		"$(pahole --version 2>/dev/null || echo none)" \
		"$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p')" \
		"$(dpkg-query -W -f='${Version}' libbpf-dev 2>/dev/null || echo none)" \
		"$(bpftool version 2>/dev/null | sed -n 1p || echo 'bpftool none')"
}
# kit_packages: the Debian packages the kit installs, one a line.
kit_packages() { grep -v '^#' "${KIT_PACKAGES:-$KIT/lib/packages}" | grep -v '^$'; }
# kit_missing_packages: those of kit_packages that are not installed.
kit_missing_packages() {
	local p
	kit_packages | while read -r p; do
		[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] || echo "$p"
	done
}

# free_bytes DIR: bytes free to us on the file system that holds DIR.
free_bytes() { df -P -B1 "$1" 2>/dev/null | awk 'NR == 2 { printf "%.0f\n", $4 }'; }

# kit_heartbeat WHAT PID: "... WHAT, N s" on stderr every PROGRESS_EVERY
# seconds (20) while process PID lives, so that no wait is silent; runs in
# the background (it sees PID gone within a second, and holds no stdout).
kit_heartbeat() {
	local what=$1 pid=$2 t0=$SECONDS
	(
		last=$SECONDS
		while sleep 1 && kill -0 "$pid" 2>/dev/null; do
			if [ $((SECONDS - last)) -ge "${PROGRESS_EVERY:-20}" ]; then
				last=$SECONDS
				note "... $what, $((SECONDS - t0)) s"
			fi
		done
	) >/dev/null &
}

# kit_ticking WHAT COMMAND...: COMMAND, with kit_heartbeat WHAT while it
# runs (a guest that prints nothing while the verifier works). Its exit
# status is COMMAND's.
kit_ticking() {
	local what=$1 pid st=0
	shift
	"$@" &
	pid=$!
	kit_heartbeat "$what" "$pid"
	wait "$pid" || st=$?
	return "$st"
}

# Seconds since the epoch with a fraction, for the timings stages print.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# Fixed identities and dates so that commits made by the kit have the same
# ids on every machine for the same inputs.
kit_git() {
	GIT_AUTHOR_NAME="bpfloop-lab" GIT_AUTHOR_EMAIL="kit@bpfloop-lab.invalid" \
	GIT_AUTHOR_DATE="2022-01-01T00:00:00Z" kit_git_committer "$@"
}
# The same committer, the author left to the caller's environment.
kit_git_committer() {
	GIT_COMMITTER_NAME="bpfloop-lab" GIT_COMMITTER_EMAIL="kit@bpfloop-lab.invalid" \
	GIT_COMMITTER_DATE="2022-01-01T00:00:00Z" \
		git -c advice.detachedHead=false -c core.autocrlf=false "$@"
}

# The kit's host programs (C), built on demand into $BIN.
need_tools() {
	make -s -C "$KIT" host-tools >/dev/null ||
		die "building the kit's host programs failed: run 'make host-tools' to see why"
}
# need_tool NAME...: only those programs, for a step that runs on a
# machine without the kit set up (merging a class's runs, say).
need_tool() {
	make -s -C "$KIT" "${@/#/$BIN/}" >/dev/null ||
		die "building the kit's programs $* failed: run 'make -C $KIT ${*/#/$BIN/}' to see why"
}

# kit_am REPO PARENT SCRATCH LOG MBOX: what `git am` makes of the mails
# in MBOX on top of commit PARENT, without a checkout: each patch applied
# to a scratch index (git apply --cached) and committed with its mail's
# author, date and message, the committer being the kit's fixed one, so the
# ids are the ones `kit_git am` gives. SCRATCH is a folder of the caller's
# own (its index, the split mails); git's messages are added to LOG.
# Prints the last commit. Status 1: a mail does not apply, or is not a
# patch (LOG's "error:" line says why); 2: the kit could not work (git
# itself died of a signal: a crash, or a kill, is no verdict on a patch).
kit_am() {
	local repo=$1 head=$2 scratch=$3 log=$4 mbox=$5 m name email date subject tree rc
	rm -rf "$scratch/mails" && mkdir -p "$scratch/mails" || return 2
	rc=0
	git mailsplit -b --keep-cr -o"$scratch/mails" -- "$mbox" >/dev/null 2>>"$log" || rc=$?
	[ "$rc" -le 128 ] || return 2
	[ "$rc" = 0 ] || { echo "error: $(basename "$mbox") is not a mailbox of patches" >>"$log"; return 1; }
	for m in "$scratch"/mails/*; do
		[ -f "$m" ] || { echo "error: $(basename "$mbox") holds no mail" >>"$log"; return 1; }
		rc=0
		git -C "$repo" mailinfo -u "$scratch/msg" "$scratch/patch" <"$m" >"$scratch/info" 2>>"$log" || rc=$?
		[ "$rc" -le 128 ] || return 2
		[ "$rc" = 0 ] || { echo "error: could not read a mail of $(basename "$mbox")" >>"$log"; return 1; }
		[ -s "$scratch/patch" ] || { echo "error: Patch is empty." >>"$log"; return 1; }
		name=$(sed -n 's/^Author: //p' "$scratch/info")
		email=$(sed -n 's/^Email: //p' "$scratch/info")
		date=$(sed -n 's/^Date: //p' "$scratch/info")
		subject=$(sed -n 's/^Subject: //p' "$scratch/info")
		[ -n "$email" ] || { echo "error: Patch does not have a valid e-mail address." >>"$log"; return 1; }
		rm -f "$scratch/index"
		GIT_INDEX_FILE=$scratch/index git -C "$repo" read-tree "$head" 2>>"$log" || return 2
		rc=0
		GIT_INDEX_FILE=$scratch/index git -C "$repo" apply --cached "$scratch/patch" >>"$log" 2>&1 || rc=$?
		[ "$rc" -le 128 ] || return 2
		[ "$rc" = 0 ] || return 1
		tree=$(GIT_INDEX_FILE=$scratch/index git -C "$repo" write-tree 2>>"$log") || return 2
		{ printf '%s\n\n' "$subject"; cat "$scratch/msg"; } | git stripspace >"$scratch/message" || return 2
		head=$(GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_AUTHOR_DATE=${date:-2022-01-01T00:00:00Z} \
			kit_git_committer -C "$repo" commit-tree "$tree" -p "$head" -F "$scratch/message" 2>>"$log") || return 1
	done
	printf '%s\n' "$head"
}

# kit_drop_worktree DIR: DIR, if it is a worktree of the work tree (the
# scratch checkouts older kits applied submissions in), removed.
kit_drop_worktree() {
	[ -e "$1/.git" ] || return 0
	git -C "$LINUX" worktree remove --force "$1" >/dev/null 2>&1 || rm -rf "$1"
	git -C "$LINUX" worktree prune
}

# The commit of PATCH... (git format-patch output, applied in order) on REF
# of the work tree, made with kit_am (no checkout); prints its id. The same
# inputs give the same id, so a kernel built from it is kept and reused.
kit_commit_with_patch() {
	local ref=$1 head scratch p
	shift
	head=$(git -C "$LINUX" rev-parse -q --verify "$ref^{commit}") || return 1
	mkdir -p "$WORK/trees"
	kit_drop_worktree "$WORK/trees/patch-apply"
	scratch=$(mktemp -d "$WORK/trees/patch-apply.XXXXXX") || return 1
	for p in "$@"; do
		head=$(kit_am "$LINUX" "$head" "$scratch" /dev/null "$p") || { rm -rf "$scratch"; return 1; }
	done
	rm -rf "$scratch"
	printf '%s\n' "$head"
}

# The commit of a work tree as it is: its tracked files with their
# uncommitted edits, and its new files (not those .gitignore hides), on top
# of HEAD. Made with a copy of the index, so the work tree and its index
# are not touched; prints the id.
kit_snapshot() {
	local repo=$1 idx tree
	idx=$(mktemp)
	cp "$(git -C "$repo" rev-parse --path-format=absolute --git-path index)" "$idx" 2>/dev/null || true
	GIT_INDEX_FILE=$idx git -C "$repo" add -A >/dev/null 2>&1
	tree=$(GIT_INDEX_FILE=$idx git -C "$repo" write-tree)
	rm -f "$idx"
	kit_git -C "$repo" commit-tree "$tree" -p HEAD -m "the work tree as it is"
}

# kit_filtered_commit REPO COMMIT PATH...: base with only PATHs taken from
# COMMIT (a path COMMIT lacks is removed), as one commit whose id depends
# only on that content: identical submissions share one kernel.
kit_filtered_commit() {
	local repo=$1 commit=$2 idx tree p entry
	shift 2
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx git -C "$repo" read-tree base
	for p in "$@"; do
		entry=$(git -C "$repo" ls-tree "$commit" -- "$p")
		if [ -n "$entry" ]; then
			printf '%s\t%s\n' "${entry%%$'\t'*}" "$p"
		else
			printf '0 %040d\t%s\n' 0 "$p"
		fi
	done | sed -E 's/^([0-9]+) blob ([0-9a-f]+)\t/\1 \2\t/' | GIT_INDEX_FILE=$idx git -C "$repo" update-index --index-info
	tree=$(GIT_INDEX_FILE=$idx git -C "$repo" write-tree)
	rm -f "$idx"
	kit_git -C "$repo" commit-tree "$tree" -p base -m "graded submission"
}

# The grader's secret: a random value made once per work folder (or
# GRADE_SECRET, the same on every machine of a class split over several).
kit_secret() {
	if [ -n "${GRADE_SECRET:-}" ]; then
		printf '%s' "$GRADE_SECRET"
		return
	fi
	if [ ! -s "$WORK/secret" ]; then
		mkdir -p "$WORK"
		(umask 077 && od -An -tx1 -N16 /dev/urandom | tr -d ' \n' >"$WORK/secret.$$" &&
			mv -n "$WORK/secret.$$" "$WORK/secret"; rm -f "$WORK/secret.$$")
	fi
	cat "$WORK/secret"
}

# kit_hash: what this kit is, as 16 hex digits: the paths and contents of
# its files (tracked, and new ones git does not ignore), so that two
# machines with the same commit and the same edits have the same hash.
kit_hash() {
	(cd "$KIT" && git ls-files -z --cached --others --exclude-standard | sort -zu |
		xargs -0r sha256sum 2>/dev/null | sha256sum | cut -c1-16)
}

# kit_submission_hash FOLDER: what a submission's folder holds, as 16 hex
# digits (its files' names and contents; hidden files are no part of it).
# make grade regrades a student whose hash changed since the last run.
kit_submission_hash() {
	(cd "$1" && find . -maxdepth 1 -type f ! -name '.*' -print0 | sort -z |
		xargs -0r sha256sum | sha256sum | cut -c1-16)
}
# kit_stage_names: the pipeline's stages in order (grading/pipeline/stages/NN-NAME).
kit_stage_names() {
	local f
	for f in "$KIT"/grading/pipeline/stages/[0-9][0-9]-*; do echo "${f##*/[0-9][0-9]-}"; done
}
# meta_value FILE KEY: the last value of KEY in a KEY<TAB>VALUE file
# (nothing, and status 0, when there is no such file).
meta_value() { awk -F'\t' -v k="$2" '$1 == k { v = $2 } END { print v }' "$1" 2>/dev/null || true; }

# The seed of a graded commit's tests: the same for the same commit and
# secret (a grade does not change between runs), unknown to whoever lacks
# the secret. A decimal number below 2^60.
kit_seed() {
	printf '%d\n' "0x$(printf '%s:%s' "$(kit_secret)" "$1" | sha256sum | cut -c1-15)"
}

# kit_take FROM DIR CAP PATH...: the files a host-side lab grades, copied
# into DIR/PATH: FROM is a commit of the work tree or a folder (a kernel
# tree). Only regular files of at most CAP bytes are taken; a missing one,
# a link or a larger one is left out (the lab's build says which it
# lacks). Nothing else of FROM is read. DIR is made even when nothing is taken.
kit_take() {
	local from=$1 dir=$2 cap=$3 p entry
	shift 3
	# DIR exists even when nothing is taken: the build then names what is missing.
	mkdir -p "$dir"
	for p in "$@"; do
		if [ -d "$from" ]; then
			if [ ! -f "$from/$p" ] || [ -L "$from/$p" ] || [ "$(stat -c %s "$from/$p")" -gt "$cap" ]; then
				continue
			fi
			mkdir -p "$(dirname "$dir/$p")"
			cp "$from/$p" "$dir/$p"
		else
			entry=$(git -C "$LINUX" ls-tree -l "$from" -- "$p" 2>/dev/null)
			case $entry in 100644\ * | 100755\ *) ;; *) continue ;; esac
			[ "$(awk '{ print $4 }' <<<"$entry")" -le "$cap" ] || continue
			mkdir -p "$(dirname "$dir/$p")"
			git -C "$LINUX" cat-file blob "$(awk '{ print $3 }' <<<"$entry")" >"$dir/$p"
		fi
	done
}

# kit_lab_kernels: the kernels the host-side labs boot, from each lab's
# folder (grading/labN/kernels: "SLOT REF WHAT" lines), once each, as
# SLOT<TAB>COMMIT-OR-BRANCH<TAB>WHAT lines; REF mutants:labN is resolved to
# its family's commit (kit_mutant_commit, whose messages go to stderr).
# Fails with the reason on stdout.
kit_lab_kernels() {
	local f slot ref what seen=" " r
	for f in "$KIT"/grading/lab[0-9]*/kernels; do
		[ -f "$f" ] || continue
		while read -r slot ref what; do
			case $slot in '' | '#'*) continue ;; esac
			[ -n "$what" ] || { echo "$f: expected 'SLOT REF WHAT', got '$slot $ref'"; return 1; }
			case $seen in *" $slot:$ref "*) continue ;; esac
			seen="$seen$slot:$ref "
			r=$ref
			if [[ $ref == mutants:* ]]; then
				r=$(kit_mutant_commit "${ref#mutants:}" </dev/null) ||
					{ echo "the known-wrong kernels that $f names do not apply (above; grading/mutants/)"; return 1; }
			fi
			printf '%s\t%s\t%s\n' "$slot" "$r" "$what"
		done <"$f"
	done
}

# The commit of the known-wrong family kernel FAMILY (lab2, lab6, ...):
# its lab's solution branch (solution/0N for labN) with
# grading/mutants/switch.patch and grading/mutants/FAMILY.patch applied.
# Prints its id. Made once per content of the two patches and commit of
# the branch, then remembered: a grading run asks for it per student.
kit_mutant_commit() {
	local family=$1 dir=$KIT/grading/mutants base key memo commit
	case $family in lab[0-9]*) ;; *) echo "kit_mutant_commit: '$family' is not labN" >&2; return 1 ;; esac
	[ -f "$dir/$family.patch" ] || { echo "kit_mutant_commit: no $dir/$family.patch" >&2; return 1; }
	base=solution/$(printf '%02d' "$((10#${family#lab}))")
	key=$(cat "$dir/switch.patch" "$dir/$family.patch" | sha256sum | cut -c1-16)
	key=$key-$(git -C "$LINUX" rev-parse -q --verify "$base^{commit}") ||
		{ echo "kit_mutant_commit: no branch $base in $LINUX" >&2; return 1; }
	memo=$WORK/trees/commits/$family-$key
	commit=$(cat "$memo" 2>/dev/null || true)
	if [ -z "$commit" ] || ! git -C "$LINUX" cat-file -e "$commit^{commit}" 2>/dev/null; then
		commit=$(kit_commit_with_patch "$base" "$dir/switch.patch" "$dir/$family.patch") ||
			{ echo "kit_mutant_commit: grading/mutants/$family.patch does not apply on $base + switch.patch" >&2; return 1; }
		mkdir -p "$(dirname "$memo")"
		echo "$commit" >"$memo.$$" && mv "$memo.$$" "$memo"
	fi
	echo "$commit"
}
