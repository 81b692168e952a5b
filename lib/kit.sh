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

# One line per stage: "==> what (log: path)".
stage() { printf '==> %s\n' "$*" >&2; }
note() { printf '    %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Seconds since the epoch with a fraction, for the timings stages print.
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

# Fixed identities and dates so that commits made by the kit have the same
# ids on every machine for the same inputs.
kit_git() {
	GIT_AUTHOR_NAME="bpfloop-lab" GIT_AUTHOR_EMAIL="kit@bpfloop-lab.invalid" \
	GIT_COMMITTER_NAME="bpfloop-lab" GIT_COMMITTER_EMAIL="kit@bpfloop-lab.invalid" \
	GIT_AUTHOR_DATE="2022-01-01T00:00:00Z" GIT_COMMITTER_DATE="2022-01-01T00:00:00Z" \
		git -c advice.detachedHead=false -c core.autocrlf=false "$@"
}

# The kit's host programs (C), built on demand into $BIN.
need_tools() {
	make -s -C "$KIT" host-tools >/dev/null ||
		die "building the kit's host programs failed: run 'make host-tools' to see why"
}

# The commit of PATCH (git format-patch output) applied on REF of the work
# tree, made in a scratch worktree; prints its id. The same inputs give the
# same id, so a kernel built from it is kept and reused.
kit_commit_with_patch() {
	mkdir -p "$WORK/trees"
	# One caller at a time: the grader's workers share this worktree.
	(
		flock 8 || exit 1
		kit_commit_with_patch_locked "$@"
	) 8>"$WORK/trees/patch-apply.lock"
}
kit_commit_with_patch_locked() {
	local ref=$1 patch=$2 wt=$WORK/trees/patch-apply
	if [ ! -e "$wt/.git" ]; then
		git -C "$LINUX" worktree prune
		git -C "$LINUX" worktree add -q --detach "$wt" "$ref" >/dev/null 2>&1 || return 1
	fi
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q --detach "$ref" >/dev/null 2>&1 || return 1
	kit_git -C "$wt" am -q "$patch" >/dev/null 2>&1 || { git -C "$wt" am --abort >/dev/null 2>&1; return 1; }
	git -C "$wt" rev-parse HEAD
}
