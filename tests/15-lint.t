# The kit's own code: scripts pass shellcheck, host C builds without
# warnings, kernel patches (the solutions, the mutants) pass checkpatch.
# shellcheck shell=bash source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/lint
rm -rf "$T"
mkdir -p "$T"
cd "$KIT" || exit 1

scripts=$(git ls-files | while read -r f; do
	case $f in *.sh | *.t | .ci/run) echo "$f" ;; *.*) ;; *) head -n 1 "$f" 2>/dev/null | grep -q '^#!.*sh' && echo "$f" ;; esac
done)
# shellcheck disable=SC2086 # one word per file
check "lint: shellcheck passes on every script ($(echo $scripts | wc -w))" shellcheck $scripts

# The suite, the lab 3 harness, lab 4's and lab 5's guest sides, the
# fixtures and lab 3's example need generated headers (skeletons,
# vmlinux.h): the Makefile and the tests build them.
for c in $(git ls-files '*.c' | grep -v '^grading/suite/\|^grading/lab3/\|^tests/fixtures/\|^labs/\|^grading/lab4/verif-load\.c\|^grading/lab4/exercise\.c\|^grading/lab5/bench-account\.c\|\.bpf\.c$'); do
	check "lint: $c builds with -Wall -Wextra -Werror" gcc -O2 -Wall -Wextra -Werror -fsyntax-only "$c"
done

# checkpatch reads a patch that git tracks in the current repository
# differently (it then checks the kit's files, not the patch): give it a
# copy, from a folder outside the kit.
# One exception, documented in labs/03-selftests/README.md: new selftest
# files make checkpatch ask whether MAINTAINERS needs updating; it does not.
# Lab 4's, documented in labs/04-verif-scale/README.md: its new lines name
# pyperf.h's own CamelCase typedefs.
checkpatch_copy() {
	local ignore=FILE_PATH_CHANGES
	case $1 in *bpf_loop-versions-of-pyperf600*) ignore+=,CAMELCASE ;; esac
	(cd "$T" && perl "$LINUX/scripts/checkpatch.pl" --strict --no-tree -q --ignore "$ignore" "$1")
}
for p in solutions/*/*.patch grading/mutants/*.patch; do
	[ -f "$p" ] || continue
	cp "$p" "$T/$(basename "$p")"
	check "lint: checkpatch --strict: $p" checkpatch_copy "$(basename "$p")"
done
# Lab 3's example is kernel-style C, as the students' tests must be.
checkpatch_file() { (cd "$T" && perl "$LINUX/scripts/checkpatch.pl" --strict --no-tree -q -f "$1"); }
for c in labs/03-selftests/example/tools/testing/selftests/bpf/*/bpf_loop.c; do
	copy=example-$(basename "$(dirname "$c")").c
	cp "$c" "$T/$copy"
	check "lint: checkpatch --strict -f: $c" checkpatch_file "$copy"
done

# A merge left half done leaves its markers in a file that still builds or
# renders; no tracked file may hold one.
no_conflict_markers() { ! git grep -nIE '^(<<<<<<<|=======$|>>>>>>>)( |$)' -- . ':!*.patch'; }
check "lint: no merge conflict markers in a tracked file" no_conflict_markers
