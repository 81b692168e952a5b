# The course texts (README.md, handbook.md, labs/*/README.md): the make
# targets and kit files they name exist, and docs/render makes a site whose
# links all resolve, without a pandoc warning. No kernel, no VM.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/docs
rm -rf "$T"
mkdir -p "$T"
cd "$KIT" || exit 1
texts=(README.md handbook.md labs/[0-9][0-9]-*/README.md)

# The code the texts show, as pandoc reads it (a `span` may run over two
# lines): "FILE<TAB>span<TAB>TEXT" per inline span, "FILE<TAB>block<TAB>LINE"
# per line of a code block.
cat >"$T/code.lua" <<'END'
function Code(el) io.write("span\t", el.text, "\n") end
function CodeBlock(el)
  for line in (el.text .. "\n"):gmatch("(.-)\n") do io.write("block\t", line, "\n") end
end
END
for f in "${texts[@]}"; do
	pandoc --from=markdown --to=html5 --lua-filter="$T/code.lua" --output=/dev/null "$f" |
		sed "s|^|$f\t|"
done >"$T/code.tsv"

# (a) Every "make TARGET" in the texts' code is a target that 'make help'
# lists.
make -s help | awk '$1 == "make" { print $2 }' >"$T/targets"
awk -F'\t' '{ n = split($3, w, /[ \t;&|()]+/)
	for (i = 1; i < n; i++) if (w[i] == "make" && w[i + 1] ~ /^[a-z][a-z0-9-]*$/) print $1 "\t" w[i + 1] }' \
	"$T/code.tsv" | sort -u >"$T/make-mentions"
missing=()
while IFS=$'\t' read -r f target; do
	grep -qxF "$target" "$T/targets" || missing+=("$f: make $target")
done <"$T/make-mentions"
name="docs: every 'make TARGET' the texts show is in 'make help' ($(wc -l <"$T/make-mentions") mentions)"
if [ ${#missing[@]} = 0 ] && [ -s "$T/make-mentions" ]; then pass "$name"; else fail "$name" "${missing[@]}"; fi

# (b) Every file of the kit the texts name in a `span` exists: the words that
# start with one of the kit's folders (work/ and the kernel tree's own
# kernel/, include/, tools/ are not the kit's), or name its top files.
# Placeholders stand for any lab: labs/NN-name/ is labs/[0-9][0-9]-*/.
awk -F'\t' '$2 == "span" { n = split($3, w, /[ \t]+/); for (i = 1; i <= n; i++) print $1 "\t" w[i] }' \
	"$T/code.tsv" | sed -E $'s/\t[("\']+/\t/; s/[)"\',;:.]+$//' |
	grep -E $'\t((kernel-base|labs|solutions|kbuild|vm|grading|tests|lib|docs)/|(README\\.md|handbook\\.md|Makefile)$)' |
	sort -u >"$T/paths"
missing=()
while IFS=$'\t' read -r f path; do
	glob=${path//NN-name/[0-9][0-9]-*}
	glob=${glob//NN/[0-9][0-9]}
	compgen -G "$KIT/$glob" >/dev/null || missing+=("$f: $path")
done <"$T/paths"
name="docs: every kit file the texts name exists ($(wc -l <"$T/paths") paths)"
if [ ${#missing[@]} = 0 ] && [ -s "$T/paths" ]; then pass "$name"; else fail "$name" "${missing[@]}"; fi

# (e, f) Each lab text's table of tests is the one made from
# grading/tests.list (docs/lab-tables: its ids, points and what each
# checks), and a table that differs is found.
check "docs: every lab text's table of tests is made from grading/tests.list (make lab-tables)" \
	"$KIT/docs/lab-tables" --check
sed 's/^lab1\.zero_loops 1 1 /lab1.zero_loops 1 9 /' "$KIT/grading/tests.list" >"$T/tests.list"
"$KIT/docs/lab-tables" --check --tests "$T/tests.list" >"$T/stale" 2>&1
expect_grep "docs: ... a point changed in tests.list and not in the text is found" '^labs/01-helper/README.md$' "$T/stale"

# (c, d) The site: one page per text, every internal link and #anchor
# resolves, nothing loaded from outside, and pandoc says nothing.
H=$TESTS_OUT/handbook
docs/render --out "$H" 2>"$T/render.err"
st=$?
if [ "$st" = 0 ]; then
	pass "docs: docs/render makes the site"
else
	fail "docs: docs/render makes the site" "status $st" "$(tail -n 15 "$T/render.err")"
fi
if grep -q 'WARNING' "$T/render.err"; then
	fail "docs: pandoc reports no warnings" "$(grep -A1 WARNING "$T/render.err")"
else
	pass "docs: pandoc reports no warnings"
fi
pages=("$H/index.html")
for d in labs/[0-9][0-9]-*/; do pages+=("$H/labs/$(basename "$d").html"); done
check "docs: the handbook and each lab have a page (${#pages[@]})" ls "${pages[@]}" "$H/style.css"
expect_grep "docs: the handbook page has a table of contents" '<nav id="TOC"' "$H/index.html"
expect_grep "docs: C code is highlighted" 'class="sourceCode c"' "$H/index.html"
check "docs: every internal link and #anchor of the site resolves" "$BIN/linkcheck" "${pages[@]}"

# The link rewriting and the checker, on a small fixture: links between the
# texts become links between the pages, a link to another file of the kit
# reaches that file, and broken ones are reported.
F=$T/fixture
mkdir -p "$F/labs/01-one" "$F/labs/02-two" "$F/kernel-base"
printf '%% Fixture\n\n## A section\n\nSee [lab 1](labs/01-one/README.md#steps).\n' >"$F/handbook.md"
printf '# Lab 1\n\n## Steps\n\n%s\n' '[a](../../handbook.md#a-section) [b](../02-two/README.md#steps)
[c](../../kernel-base/README.md) [d](#steps) [e](https://example.org/)' >"$F/labs/01-one/README.md"
printf '# Lab 2\n\n## Steps\n\n%s\n' '[f](../../handbook.md#no-such-section) [g](../../nowhere.md)' \
	>"$F/labs/02-two/README.md"
echo "a file of the kit" >"$F/kernel-base/README.md"
docs/render --src "$F" --out "$T/site" 2>"$T/fixture.err"
st=$?
if [ "$st" = 1 ] && grep -q 'no element with the id "no-such-section"' "$T/fixture.err" &&
	grep -q 'nowhere.md: no such file' "$T/fixture.err"; then
	pass "docs: render reports a broken anchor and a missing file"
else
	fail "docs: render reports a broken anchor and a missing file" "status $st" "$(cat "$T/fixture.err")"
fi
expect_grep "docs: a link to the handbook's section becomes index.html#section" \
	'href="\.\./index\.html#a-section"' "$T/site/labs/01-one.html"
expect_grep "docs: a link to another lab's README.md becomes its page" \
	'href="02-two\.html#steps"' "$T/site/labs/01-one.html"
expect_grep "docs: a link from the handbook to a lab becomes its page" \
	'href="labs/01-one\.html#steps"' "$T/site/index.html"
check "docs: links to pages and to the kit's files resolve" \
	"$BIN/linkcheck" "$T/site/index.html" "$T/site/labs/01-one.html"
printf '<link rel="stylesheet" href="https://cdn.example/x.css"><a href="#top">x</a>\n' >"$T/external.html"
expect_status "linkcheck: an external stylesheet and a missing anchor are broken" 1 \
	"$BIN/linkcheck" "$T/external.html"

# (e) The commands of labs 0 to 7 for make walk (docs/walk): the texts'
# console blocks parse, and each edit names a reference series.
make -s host-tools >/dev/null
if "$BIN/console-check" steps labs/0[0-7]-*/README.md >"$T/steps.tsv"; then
	pass "walk: the console blocks of labs 0 to 7 parse"
else
	fail "walk: the console blocks of labs 0 to 7 parse" "$(tail -n 3 "$T/steps.tsv")"
fi
bad=$(awk -F'\t' '$2 == "edit" { print $3 }' "$T/steps.tsv" | while read -r s; do
	ls "$KIT/$s"/*.patch >/dev/null 2>&1 || echo "$s"; done)
[ "$(awk -F'\t' '$2 == "edit"' "$T/steps.tsv" | wc -l)" -ge 7 ] && [ -z "$bad" ] &&
	pass "walk: each student's edit names a series of solutions/" ||
	fail "walk: each student's edit names a series of solutions/" "${bad:-fewer than 7 edits}"
# Each test a quoted verdict line names is one of grading/tests.list.
bad=$(awk -F'\t' '$2 == "out" && $3 ~ /^    (pass|fail|skip) +lab[0-9]+\.[a-z0-9_]+/ {
	split($3, w, " "); print w[2] }' "$T/steps.tsv" | sort -u |
	while read -r id; do grep -q "^$id " "$KIT/grading/tests.list" || echo "$id"; done)
[ -z "$bad" ] && pass "walk: each test the texts' quoted make check lines name is in tests.list" ||
	fail "walk: each test the texts' quoted make check lines name is in tests.list" "$bad"
# console-check match: "..." stands for text; the order counts.
printf '==> building ... (log: ...)\n...\nok 4 lab0.helper_181_absent\n' >"$T/quoted"
printf 'noise\n==> building base (log: /x/y)\nmore\nok 4 lab0.helper_181_absent\n' >"$T/printed"
check "console-check: quoted lines match the printed ones, '...' for any text" \
	"$BIN/console-check" match "$T/quoted" "$T/printed"
printf 'ok 4 lab0.helper_181_absent\n==> building base (log: /x/y)\n' >"$T/swapped"
expect_status "console-check: ... and not out of order" 1 "$BIN/console-check" match "$T/quoted" "$T/swapped"
# walk-stamp: the wait and the longest silence, with what was on the
# screen while it lasted; the report refuses a silence over the limit and
# a quoted line not printed.
{ echo first; sleep 1.5; echo second; } | "$BIN/walk-stamp" run "$T/stamp.out" "$T/stamp.stats"
IFS=$'\t' read -r secs quiet after <"$T/stamp.stats"
awk -v s="$secs" -v q="$quiet" 'BEGIN { exit !(s >= 1.5 && q >= 1.5 && q <= s) }' && [ "$after" = first ] &&
	cmp -s "$T/stamp.out" <(printf 'first\nsecond\n') &&
	pass "walk-stamp: the output kept, the silence timed after the line it followed" ||
	fail "walk-stamp: the output kept, the silence timed after the line it followed" "$(cat "$T/stamp.stats")"
printf '00/README.md:1\tmake check\t40.0\t12.0\t==> x\tyes\n' >"$T/walk.tsv"
check "walk-stamp: a command within its text and the silence limit passes" "$BIN/walk-stamp" report "$T/walk.tsv" 30
printf '00/README.md:9\tmake run\t50.0\t45.0\t==> y\tyes\n' >>"$T/walk.tsv"
expect_status "walk-stamp: a silence over the limit fails the walk" 1 "$BIN/walk-stamp" report "$T/walk.tsv" 30
printf '00/README.md:1\tmake check\t40.0\t12.0\t==> x\tok 4 lab0.x\n' >"$T/walk2.tsv"
expect_grep "walk-stamp: ... and so does a quoted line not printed, named" 'missing:.*ok 4 lab0.x' \
	<("$BIN/walk-stamp" report "$T/walk2.tsv" 30)

# (f) The CI recipe for a class (grading/instructor/ci/github-grade.yml): it parses,
# has the grading matrix and the merge after it, and its dealing of a
# class into shares is make grade-fan-out's.
Y=$KIT/grading/instructor/ci/github-grade.yml
check "ci recipe: it parses as YAML, with a matrix of shares and a merge job after them" \
	"$BIN/yaml-check" "$Y" jobs.grade.strategy.matrix.share jobs.merge.needs
printf 'a: [1\nb: 2\n' >"$T/bad.yml"
expect_grep "yaml-check: a file that does not parse is named with its line" 'bad.yml:2:' \
	<("$BIN/yaml-check" "$T/bad.yml" 2>&1)
grep -q 'make grade SUBMISSIONS=share' "$Y" && grep -q 'make grade-merge RUNS=' "$Y" &&
	pass "ci recipe: each share is graded by make grade, the runs merged by make grade-merge" ||
	fail "ci recipe: each share is graded by make grade, the runs merged by make grade-merge"
case $("$BIN/yaml-check" "$Y" --get jobs.grade.env.GRADE_SECRET 2>/dev/null) in
*secrets.GRADE_SECRET*) pass "ci recipe: every share is graded with the class's one GRADE_SECRET" ;;
*) fail "ci recipe: every share is graded with the class's one GRADE_SECRET" ;;
esac
rm -rf "$T/deal"
mkdir -p "$T/deal/class"
cp -a "$KIT"/grading/samples/. "$T/deal/class/"
mkdir -p "$T/deal/class/ada lovelace"
step=$("$BIN/yaml-check" "$Y" --get jobs.grade.steps.2.run)
"$KIT/grading/instructor/fan-out" --works "$T/deal/w1 $T/deal/w2" --out "$T/deal/fan" --submissions "$T/deal/class" \
	--deal-only >/dev/null 2>&1
same=1
for k in 1 2; do
	rm -rf "$T/deal/share"
	(cd "$T/deal" && SHARES=2 bash -c "${step//'${{ matrix.share }}'/$k}") 2>/dev/null
	[ "$(ls "$T/deal/share" 2>/dev/null)" = "$(ls "$T/deal/fan/shares/$k" 2>/dev/null)" ] &&
		[ -n "$(ls "$T/deal/share" 2>/dev/null)" ] || same=0
done
[ "$same" = 1 ] && pass "ci recipe: its shares of the samples are make grade-fan-out's" ||
	fail "ci recipe: its shares of the samples are make grade-fan-out's"
