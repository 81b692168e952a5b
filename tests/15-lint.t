# The kit's own code: scripts pass shellcheck, host C builds without
# warnings, kernel patches pass checkpatch.
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

for c in $(git ls-files '*.c' | grep -v '^grading/suite/progs/\|^grading/lab3/\|^grading/suite/'); do
	check "lint: $c builds with -Wall -Wextra -Werror" gcc -O2 -Wall -Wextra -Werror -fsyntax-only "$c"
done

checkpatch="$LINUX/scripts/checkpatch.pl"
for p in solutions/*/*.patch; do
	[ -f "$p" ] || continue
	check "lint: checkpatch --strict: $p" perl "$checkpatch" --strict --no-tree -q "$p"
done
