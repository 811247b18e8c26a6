#!/bin/sh
# study.sh — runs the protection study (gen.sh's campaigns) into one
# database and prints its tables (codes.sql, sawp.sql, sharp.sql) and each
# application's instruction-buffer similarity (profile --ib-similarity);
# README.md here
# has the results and what they are compared with.
#
# usage: sh study.sh BUILD [INJECTIONS]
#   BUILD       the build folder (flipsim and examples/ programs: make all)
#   INJECTIONS  per campaign (default 500)
# Environment: JOBS, worker processes (default: flipsim's, the CPUs);
# STUDY_DIR, where results go (default BUILD/protection).
# Results: STUDY_DIR/protection-N.db (run again to resume), flipsim run's
# report in STUDY_DIR/run-N.log, the tables in STUDY_DIR/tables-N.md (they
# need sqlite3). Exit status: flipsim run's; 2 bad usage.
set -u

[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: sh $0 BUILD [INJECTIONS]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "study.sh: no such folder: $1" >&2; exit 2; }
n=${2:-500}
[ -x "$build/flipsim" ] || { echo "study.sh: no flipsim in $build (run make all first)" >&2; exit 2; }
out=${STUDY_DIR:-$build/protection}
mkdir -p "$out" || exit 1
sh "$here/gen.sh" -n "$n" -b "$build" "$out/campaigns-$n" || exit 2
db=$out/protection-$n.db
echo "study: into $db (flipsim run's report: $out/run-$n.log)"
# shellcheck disable=SC2086
"$build/flipsim" run "$out/campaigns-$n"/*.json --db "$db" ${JOBS:+-j "$JOBS"} --quiet >"$out/run-$n.log"
status=$?
# SAWP's Fig. 3: each application's instruction-buffer similarity (flipsim
# profile --ib-similarity: its last summary, the application's or its one
# launch's), on gtx480 and with one buffer entry per warp
similarity() {
	echo "| app | gpu | samples | T=4 covers % | T=12 covers % | most frequent | 99 % within |"
	echo "|-----|-----|---------|--------------|---------------|---------------|-------------|"
	for gpu in gtx480 "$out/campaigns-$n/gpus/gpu-ib1.json"; do
		for app in $(sed -n 's/^APPS="\(.*\)"$/\1/p' "$here/gen.sh"); do
			line=$(cd "$here/../.." && "$build/flipsim" profile --gpu "$gpu" --regs alloc --ib-similarity \
				"$build/examples/$app" 2>/dev/null | grep '^ib similarity, ' | tail -n 1)
			[ -n "$line" ] || { echo "study.sh: profile --ib-similarity of $app failed" >&2; return 1; }
			echo "$line" | sed -E "s/^[^:]*: ([0-9]+) samples, T=4 covers ([0-9.]+)%, T=12 ([0-9.]+)%; most frequent ([0-9]+) distinct, 99% within ([0-9]+\+?)$/| $app | $(basename "$gpu" .json) | \1 | \2 | \3 | \4 | \5 |/"
		done
	done
}

# SHARP's coverage (flipsim profile --protection with SHARP on: the
# application's row of its SHARP table, or its one launch's): windows
# opened and dropped, the cycles the checks held warps back, the share of
# warp-cycles in recorded windows and of register-lane cycles whose check
# bits were stored, and shared memory's use (words ever written; words
# holding program data over time: the paper's Fig. 6)
sharp_profile() {
	printf '{"sharp": true}\n' >"$out/sharp.json"
	echo "| app | windows | dropped | check cycles | in windows % | registers covered % | smem written % | smem in use % |"
	echo "|-----|---------|---------|--------------|--------------|---------------------|----------------|---------------|"
	for app in $(sed -n 's/^APPS="\(.*\)"$/\1/p' "$here/gen.sh"); do
		row=$(cd "$here/../.." && "$build/flipsim" profile --regs alloc --protection "$out/sharp.json" \
			"$build/examples/$app" 2>/dev/null | awk '/^SHARP/ { t = 1; next } t && $NF !~ /%$/ { t = 0 } t { r = $0 } END { print r }')
		[ -n "$row" ] || { echo "study.sh: profile of $app with SHARP failed" >&2; return 1; }
		echo "$row" | awk -v app="$app" '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", app, $(NF-7), $(NF-6), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF }' | tr -d '%'
	done
}

if command -v sqlite3 >/dev/null; then
	{ sqlite3 "$db" <"$here/codes.sql"; echo; sqlite3 "$db" <"$here/sawp.sql"; echo; sqlite3 "$db" <"$here/sharp.sql"; } |
		tee "$out/tables-$n.md"
else
	echo "study.sh: no sqlite3 here: the tables are codes.sql, sawp.sql and sharp.sql over $db"
fi
{ echo; similarity && echo && sharp_profile; } >"$out/profiles-$n.md" || status=1
tee -a "$out/tables-$n.md" <"$out/profiles-$n.md"
exit "$status"
