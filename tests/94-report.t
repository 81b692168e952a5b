# The class report for a browser (grade-report class's index.md and
# scores.svg, rendered by grading/instructor/render-report): on a made-up class of
# three, checked in a real browser (headless chromium reads the pages and
# the plot as a person's would), and against what a hostile reason could
# do. tests/91-grade.t's make grade writes the sample class's report too,
# but only this made-up class is read in a browser.
# shellcheck shell=bash source=tests/lib.sh disable=SC2015
. "$(dirname "$0")/lib.sh"
T=$TESTS_OUT/report
rm -rf "$T"
mkdir -p "$T"
need_tools
O=$T/class
mkdir -p "$O/students"

# A student's folder as the pipeline leaves it: meta, status, scores.tsv
# (every test of the table passed), feedback.md.
student() { # NAME STATUS FLAGS
	local d=$O/students/$1
	mkdir -p "$d"
	printf 'student\t%s\nstatus\t%s\nsubmission\t%s\n' "$1" "$2" "$1" >"$d/meta"
	printf 'status\t%s\nreason\t\nflags\t%s\n' "$2" "$3" >"$d/status"
	awk '!/^#/ && NF { printf "%s\t%s\tpass\t%s\t%s\t0.1\t\n", $1, $2, $3, $3 }' \
		"$KIT/grading/tests.list" >"$d/scores.tsv"
	printf '# Feedback for %s\n\nScore: see the class.\n' "$1" >"$d/feedback.md"
}
# Test ID of NAME gets VERDICT (0 points) and REASON.
verdict() { # NAME ID VERDICT REASON
	awk -F'\t' -v OFS='\t' -v id="$2" -v v="$3" -v r="$4" \
		'$1 == id { $3 = v; $4 = 0; $7 = r } { print }' "$O/students/$1/scores.tsv" >"$T/s" &&
		mv "$T/s" "$O/students/$1/scores.tsv"
}
student ada graded ""
student bob graded tampered
student cy does-not-build ""
printf 'flag\tkernel/bpf/helpers.c:12: asm volatile("<b>x</b>")\n' >>"$O/students/bob/meta"
# A console line a student's kernel printed, with markup, and the
# grader's own paths in it.
hostile='<script>alert(1)</script><img src=x onerror=alert(2)> BUG: at 0xffff8880'
verdict ada lab2.early_stop fail "returned 7, wanted 8"
verdict bob lab2.early_stop fail "returned 3, wanted 4"
verdict ada lab2.nested fail "the guest stopped (log: $O/students/ada/suite/run.log)"
verdict bob lab1.non_gpl fail "refused (log: $WORK/runs/x/console.log)"
verdict bob lab0.bpf_syscall crash "$hostile"
awk -F'\t' -v OFS='\t' '{ $3 = "not-run"; $4 = 0; $7 = "does not build" } { print }' \
	"$O/students/cy/scores.tsv" >"$T/s" && mv "$T/s" "$O/students/cy/scores.tsv"
printf '\nA line from the console: %s\n' "$hostile" >>"$O/students/bob/feedback.md"
cp "$KIT/grading/instructor/rubric" "$T/my-rubric"
check "report: grade-report class writes index.md and scores.svg" \
	env KIT="$KIT" "$BIN/grade-report" class --rubric "$T/my-rubric" --out "$O"
check "report: render-report makes index.html and a page per student, every link checked" \
	"$KIT/grading/instructor/render-report" "$O"
for n in ada bob cy; do
	[ -s "$O/students/$n/feedback.html" ] || fail "report: $n's feedback page is rendered"
done
check "report: the plot is well-formed SVG" xmllint --noout "$O/scores.svg"
# ada and bob lose 4 points of the table's: two in the tenth from 90%; cy 0.
bar() { sed -n "s|.*height=\"\\([0-9.]*\\)\" fill=[^>]*><title>$1: \\([0-9]*\\)</title>.*|\\2 \\1|p" "$O/scores.svg"; }
[ "$(bar 'from 90%' | cut -d' ' -f1)" = 2 ] && [ "$(bar 'from 0%' | cut -d' ' -f1)" = 1 ] &&
	[ "$(bar '100%' | cut -d' ' -f1)" = 0 ] && [ "$(bar 'from 90%' | awk '{ print ($2 > 0) }')" = 1 ] &&
	[ "$(bar 'from 50%' | awk '{ print ($2 == 0) }')" = 1 ] &&
	awk -v a="$(bar 'from 90%' | cut -d' ' -f2)" -v b="$(bar 'from 0%' | cut -d' ' -f2)" 'BEGIN { exit !(a > 1.9 * b && a < 2.1 * b) }' &&
	pass "report: the plot's bars are the class's scores (2 from 90%, 1 at 0%, heights in proportion)" ||
	fail "report: the plot's bars are the class's scores (2 from 90%, 1 at 0%, heights in proportion)" "$(grep '<title>' "$O/scores.svg")"
expect_grep "report: the most failed test, with its commonest reason once for both students" \
	'lab2\\\.early\\_stop \| 2 of 3 \| 2× fail\\: returned N\\, wanted N \|' "$O/index.md"
expect_grep "report: the rubric is named by its file name" 'graded with the rubric my\\-rubric' "$O/index.md"
expect_grep "report: scrubbed, a reason keeps the student's own folder, relative" 'stopped \\\(log\\: students\\/ada\\/suite' "$O/index.md"
for p in "$O" "$WORK" "$KIT" "$T"; do
	if grep -qF "$p" "$O/index.html" "$O/index.md" "$O/scores.svg"; then
		fail "report: the page names no path of the grader's machine ($p)" "$(grep -F "$p" "$O/index.html" | head -n 3)"
	else
		pass "report: the page names no path of the grader's machine ($p)"
	fi
done
if grep -qi '<script' "$O/index.html" "$O"/students/*/feedback.html; then
	fail "report: a console line's markup stays text, in the class page and the feedback page" "$(grep -il '<script' "$O"/index.html "$O"/students/*/feedback.html)"
else
	pass "report: a console line's markup stays text, in the class page and the feedback page"
fi

# A second class, for what hostile text could do. dan: a feedback page
# that grade-report writes itself, from a reason and an ignored file's name
# that try every way into the page: raw HTML, a script and a handler that
# would mark the page if they ran, a raw attribute, span and link
# attributes, a javascript: link, a remote image, a code span's closer.
H=$T/hostile
mkdir -p "$H/students/dan/stages"
active='<img src=x onerror="document.body.setAttribute(&quot;data-ran&quot;,&quot;1&quot;)"><script>document.body.setAttribute("data-ran","2")</script>'
tries="$active \`\`<b>raw</b>\`{=html} [s]{onmouseover=alert(3)} [j](javascript:alert(4)) ![p](http://127.0.0.1:9/pixel.png) [l](x.html){onclick=alert(5)}"
printf 'student\tdan\nignored\t%s: outside\n' "$tries" >"$H/students/dan/meta"
printf 'verdict\tok\n' >"$H/students/dan/stages/build"
printf 'lab1.zero_loops\tfail\t0\t%s\n' "$tries" >"$H/students/dan/results.tsv"
check "report: grade-report writes dan's feedback from the hostile reason" \
	env KIT="$KIT" "$BIN/grade-report" student --dir "$H/students/dan"
# make check's lines give a judge's whole reason (lab 4's are long).
L=$T/long
mkdir -p "$L/stages"
long="pyperf600_bpf_loop loads, but does not compute what the kit's unrolled pyperf600 does: $(printf 'input %.0s3 frame 7 wanted 0x1234 got 0x0; ' $(seq 1 11))last words"
printf 'student\tfay\n' >"$L/meta"
printf 'verdict\tok\n' >"$L/stages/build"
printf 'lab4.pyperf600_loads\tfail\t0\t%s\n' "$long" >"$L/results.tsv"
env KIT="$KIT" "$BIN/grade-report" student --dir "$L" --lab 4 --print >"$L/print.out" 2>&1
[ "${#long}" -gt 500 ] && grep -qF "lab4.pyperf600_loads (fail): $long" "$L/print.out" &&
	grep -qF "$long" "$L/scores.tsv" &&
	pass "report: make check's line and scores.tsv keep a reason of ${#long} bytes whole" ||
	fail "report: make check's line and scores.tsv keep a reason of ${#long} bytes whole" "$(grep -F pyperf600_loads "$L/print.out")"
# eve: a feedback.md that is not inert (as a writer that forgot to quote
# would make it): her page is a notice, and the class still gets theirs.
O=$H student eve graded ""
printf '\n[a link](javascript:alert(6)) and ![a pixel](https://example.com/p.png)\n' >>"$H/students/eve/feedback.md"
check "report: grade-report class writes the second class's index.md" env KIT="$KIT" "$BIN/grade-report" class --out "$H"
check "report: render-report renders it, eve's page as a notice (exit 0)" "$KIT/grading/instructor/render-report" "$H"
grep -q 'could not be shown safely' "$H/students/eve/feedback.html" && ! grep -q 'javascript:' "$H/students/eve/feedback.html" &&
	grep -q 'javascript:alert(6): a script or data URL' "$H/students/eve/render.log" &&
	pass "report: a feedback page that is not inert is a notice, with the reason in render.log" ||
	fail "report: a feedback page that is not inert is a notice, with the reason in render.log" \
		"$(cat "$H/students/eve/render.log" 2>&1)"
[ ! -e "$H/students/dan/render.log" ] && grep -qF '&lt;script&gt;document.body.setAttribute' "$H/students/dan/feedback.html" &&
	grep -qF '{=html}' "$H/students/dan/feedback.html" && grep -qF 'javascript:alert(4)' "$H/students/dan/feedback.html" &&
	pass "report: dan's hostile reason and file name are rendered as the text they are" ||
	fail "report: dan's hostile reason and file name are rendered as the text they are" \
		"$(grep -m3 -F 'setAttribute' "$H/students/dan/feedback.html")"
check "report: every page of both classes passes the inert check (no script, handler, script URL or remote load)" \
	"$BIN/linkcheck" --inert-only "$O/index.html" "$O"/students/*/feedback.html "$H/index.html" "$H"/students/*/feedback.html

# ---- a real browser ----
if ! command -v chromium >/dev/null; then
	fail "report: chromium is installed (lib/packages lists it; run make deps)"
	exit 0
fi
browse() { # URL: the document as the browser built it
	timeout 120 env HOME="$T/browser" XDG_CONFIG_HOME="$T/browser" XDG_CACHE_HOME="$T/browser" \
		chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/browser" \
		--dump-dom "$1" 2>>"$T/browser.log"
}
ts=$(now)
browse "file://$O/index.html" >"$O/browsed.html"
browse "file://$O/scores.svg" >"$T/browsed.svg"
browse "file://$O/students/bob/feedback.html" >"$O/students/bob/browsed.html"
# dan's page with every network request sent to a port where nothing
# listens: a script or handler that ran would mark the body.
browse_offline() {
	timeout 120 env HOME="$T/browser" XDG_CONFIG_HOME="$T/browser" XDG_CACHE_HOME="$T/browser" \
		chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$T/browser" \
		--proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' --dump-dom "$1" 2>>"$T/browser.log"
}
browse_offline "file://$H/students/dan/feedback.html" >"$H/students/dan/browsed.html"
echo "# three pages in headless chromium: $(elapsed "$ts")"
grep -q '<h1 class="title">The class at a glance</h1>' "$O/browsed.html" &&
	pass "browser: chromium loads the class page" || fail "browser: chromium loads the class page" "$(tail -n 3 "$T/browser.log")"
rows=$(grep -o 'href="students/[a-z]*/feedback.html">[a-z]*</a></td>' "$O/browsed.html" | sort -u)
[ "$(printf '%s\n' "$rows" | grep -c .)" = 3 ] && for n in ada bob cy; do grep -q ">$n<" <<<"$rows" || false; done &&
	pass "browser: a row per student, each linking to its feedback page" ||
	fail "browser: a row per student, each linking to its feedback page" "$rows"
grep -q '<span class="flag">tampered</span>' "$O/browsed.html" && grep -q '<span class="status-bad">does-not-build</span>' "$O/browsed.html" &&
	pass "browser: the status and the integrity flag are marked in the page" ||
	fail "browser: the status and the integrity flag are marked in the page"
[ "$(grep -o '<img' "$O/browsed.html" | wc -l)" = 1 ] && grep -q '<img src="scores.svg"' "$O/browsed.html" &&
	pass "browser: one image, the plot: the hostile <img> stayed text" ||
	fail "browser: one image, the plot: the hostile <img> stayed text" "$(grep -o '<img[^>]*>' "$O/browsed.html")"
grep -q '&lt;script&gt;alert(N)&lt;/script&gt;&lt;img src=x' "$O/browsed.html" && ! grep -q '<script' "$O/browsed.html" "$O/students/bob/browsed.html" &&
	pass "browser: no script in the pages; the hostile one shows as text" ||
	fail "browser: no script in the pages; the hostile one shows as text"
[ "$(grep -o 'class="bar"' "$T/browsed.svg" | wc -l)" = 11 ] && ! grep -q parsererror "$T/browsed.svg" &&
	pass "browser: chromium reads the plot as SVG, with its 11 bars" ||
	fail "browser: chromium reads the plot as SVG, with its 11 bars" "$(head -c 300 "$T/browsed.svg")"
grep -q 'href="../../index.html"' "$O/students/bob/browsed.html" && grep -q '<h1[^>]*>Feedback for bob</h1>' "$O/students/bob/browsed.html" &&
	pass "browser: a feedback page loads and links back to the class" ||
	fail "browser: a feedback page loads and links back to the class"
check "browser: every link of the pages as chromium built them resolves" \
	sh -c "cd '$O' && '$BIN/linkcheck' browsed.html students/bob/browsed.html"
grep -q '<h1[^>]*>Feedback for dan</h1>' "$H/students/dan/browsed.html" && ! grep -q 'data-ran=' "$H/students/dan/browsed.html" &&
	! grep -q '<img' "$H/students/dan/browsed.html" && ! grep -q '<a href="javascript:' "$H/students/dan/browsed.html" &&
	pass "browser: on dan's page, offline, no script or handler ran, and there is no image and no script link" ||
	fail "browser: on dan's page, offline, no script or handler ran, and there is no image and no script link" \
		"$(grep -o 'data-ran=[^ ]*\|<img[^>]*>\|<a href="javascript:[^>]*>' "$H/students/dan/browsed.html" | head -n 3)"
