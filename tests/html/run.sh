#!/usr/bin/env bash
# tests/html/run.sh BUILD (`make html-tests`, part of `make test`): the
# HTML report in a real browser. Runs three small campaigns (vadd4k's
# register file protected by SEC-DED, the same unprotected under a name full
# of markup, its SIMT stack) into one database, then checks `flipsim report`
# --html, --svg DIR and --csv DIR: the same database gives the same bytes,
# every file is well-formed XML (xmllint, when installed), each SVG file is
# the figure the page inlines, database strings are escaped, bad outputs
# exit 2; and renders the page in headless Chromium: a screenshot that is
# not blank, no console error, and in the live DOM every figure has an area
# and bars (and the interval figures error bars) of non-zero size.
# Without chromium the browser part is skipped with a message, unless
# FLIPSIM_REQUIRE_CHROMIUM=1 (.ci/run) makes that a failure; HTML_BROWSER=no
# skips it on purpose (the file checks alone). Exit 0 when every check passed, 1
# otherwise, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "html-tests: no such directory: $1" >&2; exit 2; }
flipsim=$build/flipsim
[ -x "$flipsim" ] || { echo "html-tests: no flipsim in $build" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-html.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
check() { # check NAME COMMAND...: PASS when the command succeeds
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

# ---- a small database with real content ------------------------------------------------
w=$root/tests/engine/data/vadd4k.json
nasty='vadd4k <b>regfile</b> & "co"'
cat >"$tmp/sec.json" <<EOF
{"name": "vadd4k-regfile-secded", "workload": "$w", "target": "regfile",
 "protection": {"regfile": {"code": "secded"}}, "injections": 40, "seed": 7}
EOF
cat >"$tmp/rf.json" <<EOF
{"name": "$(printf '%s' "$nasty" | sed 's/"/\\"/g')", "workload": "$w", "target": "regfile", "injections": 60, "seed": 7}
EOF
cat >"$tmp/simt.json" <<EOF
{"name": "vadd4k-simt", "workload": "$w", "target": "simt", "injections": 40, "seed": 11}
EOF
db=$tmp/r.db
if ! "$flipsim" run "$tmp/sec.json" "$tmp/rf.json" "$tmp/simt.json" --db "$db" -j 2 >"$tmp/run.log" 2>&1; then
	tail -n 20 "$tmp/run.log"
	fail "three campaigns run"
	exit 1
fi

# ---- the page, the SVG files, the CSV files ----------------------------------------------
page=$tmp/r.html
check "report --html --svg DIR --csv DIR exits 0" "$flipsim" report "$db" --html "$page" --svg "$tmp/svg" --csv "$tmp/csv"
"$flipsim" report "$db" --html "$tmp/again.html" >/dev/null 2>&1
check "the same database gives the same page, byte for byte" cmp -s "$page" "$tmp/again.html"
figs="outcomes avf fit ipc-fit kernels campaigns insn vreg protection"
want=$(for f in $figs; do echo "$f.svg"; done | sort)
check "--svg DIR holds one file per figure, stable names" test "$(cd "$tmp/svg" && ls | sort)" = "$want"
same=1
for f in $figs; do
	# the page's <svg> element of figure f, as the file holds it
	awk -v id="id=\"fig-$f\"" 'index($0, "<svg ") == 1 && index($0, id) { on = 1 } on { print } on && $0 == "</svg>" { exit }' \
		"$page" >"$tmp/inline.svg"
	cmp -s "$tmp/inline.svg" "$tmp/svg/$f.svg" || { same=0; echo "  $f.svg differs from the page's figure"; }
done
check "each SVG file is the figure the page inlines" test $same -eq 1
if command -v xmllint >/dev/null; then
	ok=1
	for f in "$page" "$tmp"/svg/*.svg; do xmllint --noout "$f" || ok=0; done
	check "the page and every SVG are well-formed XML (xmllint)" test $ok -eq 1
else
	echo "SKIP xmllint not installed (Debian: libxml2-utils): well-formedness unchecked"
fi
check "database strings are escaped in the page" \
	grep -qF 'vadd4k &lt;b&gt;regfile&lt;/b&gt; &amp; &quot;co&quot;' "$page"
check "no raw markup from the database" bash -c "! grep -qF '<b>regfile' '$page'"
check "no network: no URL but the SVG namespace, no script" \
	bash -c "! grep -v 'xmlns=\"http://www.w3.org/2000/svg\"' '$page' | grep -qiE 'https?:|<script|url\\('"
if command -v sqlite3 >/dev/null; then
	# the outcome bars are the view's counts: each segment's value, % of n
	ok=1
	while IFS='|' read -r app n masked sdc due; do
		for seg in "Masked $masked" "SDC $sdc" "DUE $due"; do
			set -- $seg
			[ "$2" -gt 0 ] || continue
			v=$(awk -v c="$2" -v n="$n" 'BEGIN { printf "%.4g", 100 * c / n }')
			grep -qF "<title>$app: $1 $v</title>" "$page" || { ok=0; echo "  no $1 segment of $v% for $app"; }
		done
	done < <(sqlite3 "$db" "SELECT workload, n, masked, sdc, due FROM study")
	check "the outcome bars are the counts of view study" test $ok -eq 1
fi
for v in avf protection_summary avf_kernel fit mitf avf_insn avf_vreg sdc_severity; do
	[ -f "$tmp/csv/$v.csv" ] || { fail "--csv DIR wrote $v.csv"; continue; }
done
rows=$(($(wc -l <"$tmp/csv/avf.csv") - 1))
check "avf.csv: one header line and a row per campaign" test "$rows" -eq 3
check "avf.csv: the header names the view's columns" bash -c "head -n 1 '$tmp/csv/avf.csv' | grep -q '^campaign_id,campaign,'"
check "--csv DIR writes no blank line (one table per file)" bash -c "! grep -q '^\$' '$tmp'/csv/*.csv"
"$flipsim" report "$db" --study --csv "$tmp/csv" >/dev/null 2>&1
check "--csv DIR --study writes study.csv, study_gpu.csv, study_kernel.csv" \
	test -s "$tmp/csv/study.csv" -a -s "$tmp/csv/study_gpu.csv" -a -s "$tmp/csv/study_kernel.csv"
"$flipsim" report --csv "$db" >"$tmp/stream.csv" 2>&1
check "--csv alone still prints the tables on stdout" grep -q '^campaign_id,campaign,' "$tmp/stream.csv"

# ---- outputs that cannot be written: exit 2 with a message ------------------------------
expect2() { # expect2 NAME WORD ARGS...: exit 2 and WORD in the message
	local name=$1 word=$2
	shift 2
	"$flipsim" report "$db" "$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 2 ] && grep -q "$word" "$tmp/err"; then pass "$name"; else
		fail "$name (exit $rc: $(cat "$tmp/err"))"
	fi
}
touch "$tmp/afile"
expect2 "--svg onto a file: exit 2" "not a folder" --svg "$tmp/afile"
expect2 "--csv DIR onto a file: exit 2" "not a folder" --csv "$tmp/afile"
expect2 "--svg into a missing parent: exit 2" "cannot make the folder" --svg "$tmp/no/such/dir"
expect2 "--html into a missing folder: exit 2" "cannot write" --html "$tmp/no/such/r.html"
expect2 "--html without a file name: exit 2" "needs a file name" --html
expect2 "--json with --html: exit 2" "not with --html" --json --html "$tmp/x.html"

# ---- the browser ----------------------------------------------------------------------------
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ "${HTML_BROWSER:-}" = no ]; then
	echo "SKIP the browser checks (HTML_BROWSER=no)"
elif [ -z "$chromium" ]; then
	if [ "${FLIPSIM_REQUIRE_CHROMIUM:-0}" = 1 ]; then
		fail "chromium is installed (FLIPSIM_REQUIRE_CHROMIUM=1)"
	else
		echo "SKIP chromium not installed (Debian: apt-get install chromium): the page is not rendered in a browser"
	fi
else
	browse() { # browse OUT-OPTION URL: headless Chromium, nothing from the network
		timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
			--disable-dev-shm-usage \
			--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 --window-size=1400,3000 "$@"
	}
	browse --screenshot="$tmp/shot.png" "file://$page" >"$tmp/shot.log" 2>&1
	check "chromium takes a screenshot of the page" test -s "$tmp/shot.png"
	printf '<!DOCTYPE html><html><head><meta charset="utf-8"/></head><body></body></html>\n' >"$tmp/blank.html"
	browse --screenshot="$tmp/blank.png" "file://$tmp/blank.html" >/dev/null 2>&1
	# a blank page compresses to a few KB; drawn bars, text and tables do not
	shot=$(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0)
	blank=$(stat -c %s "$tmp/blank.png" 2>/dev/null || echo 0)
	check "the screenshot is not blank ($shot bytes, a blank page $blank)" test "$shot" -gt $((5 * blank + 20000))
	check "no console error or failed load while rendering" \
		bash -c "! grep -E 'CONSOLE|Uncaught|net::ERR_' '$tmp/shot.log'"
	# The live DOM: a copy of the page with a script that measures each
	# figure as laid out and writes the measures into the document.
	sed 's#</body>#<script>\
var out = [], errs = [];\
window.onerror = function (m) { errs.push(m); };\
document.querySelectorAll("svg.chart").forEach(function (s) {\
  var r = s.getBoundingClientRect(), bars = 0, err = 0;\
  s.querySelectorAll("rect.bar").forEach(function (b) { var x = b.getBBox(); if (x.width > 0 \&\& x.height > 0) bars++; });\
  s.querySelectorAll("path.err").forEach(function (p) { var x = p.getBBox(); if (x.width > 0 \&\& x.height > 0) err++; });\
  out.push(s.id + " w=" + Math.round(r.width) + " h=" + Math.round(r.height) + " bars=" + bars + " err=" + err);\
});\
var pre = document.createElement("pre"); pre.id = "measure";\
pre.textContent = "figures=" + out.length + "\\n" + out.join("\\n") + "\\nerrors=" + errs.length;\
document.body.appendChild(pre);\
</script></body>#' "$page" >"$tmp/measure.html"
	browse --dump-dom "file://$tmp/measure.html" >"$tmp/dom.html" 2>"$tmp/dom.log"
	sed -n '/<pre id="measure">/,/<\/pre>/p' "$tmp/dom.html" | sed 's/<[^>]*>//g' >"$tmp/measure.txt"
	cat "$tmp/measure.txt"
	check "the DOM holds all 9 figures" grep -qx 'figures=9' "$tmp/measure.txt"
	for f in $figs; do
		line=$(grep "^fig-$f " "$tmp/measure.txt")
		check "figure $f is drawn: an area and bars of non-zero size" \
			bash -c "echo '$line' | grep -qE ' w=[1-9][0-9]* h=[1-9][0-9]* bars=[1-9]'"
	done
	for f in avf fit ipc-fit campaigns; do
		check "figure $f draws its intervals" bash -c "grep '^fig-$f ' '$tmp/measure.txt' | grep -qE ' err=[1-9]'"
	done
	check "no script error in the measured page" grep -qx 'errors=0' "$tmp/measure.txt"
fi

if [ $failures -ne 0 ]; then
	echo "html-tests: $failures check(s) failed"
	exit 1
fi
echo "html-tests: all checks passed"
