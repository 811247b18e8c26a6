#!/bin/sh
# study.sh — runs the protection study (gen.sh's campaigns) into one
# database and prints its tables (codes.sql, sawp.sql, sharp.sql); README.md here
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
if command -v sqlite3 >/dev/null; then
	{ sqlite3 "$db" <"$here/codes.sql"; echo; sqlite3 "$db" <"$here/sawp.sql"; echo; sqlite3 "$db" <"$here/sharp.sql"; } |
		tee "$out/tables-$n.md"
else
	echo "study.sh: no sqlite3 here: the tables are codes.sql, sawp.sql and sharp.sql over $db"
fi
exit "$status"
