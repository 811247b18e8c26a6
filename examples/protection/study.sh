#!/bin/sh
# study.sh — runs the protection study (gen.sh's campaigns) into one
# database and prints its tables (codes.sql, sawp.sql, sharp.sql; penny.sql,
# refu.sql and summary.sql over runs.sql's views) and the fault-free
# profiles: each application's instruction-buffer similarity (profile
# --ib-similarity), SHARP's coverage, REFU's IPC with a replay buffer of 1
# to 4 entries and, once flipsim has it, compiled Penny's cycle overhead on
# tesla_c2050 (PENNY_COMPILED below). README.md here has the results and
# what they are compared with.
#
# usage: sh study.sh BUILD [INJECTIONS]
#   BUILD       the build folder (flipsim and examples/ programs: make all)
#   INJECTIONS  per campaign (default 500)
# Environment: JOBS, worker processes (default: flipsim's, the CPUs);
# STUDY_DIR, where results go (default BUILD/protection); APPS, some of
# gen.sh's applications to run alone (a quick check: APPS="vaddg ge");
# PARTS, some of gen.sh's parts (codes sawp sharp caches penny dup refu).
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
# gen.sh writes this run's campaigns afresh (APPS may name fewer than the
# last run; the database keeps every result, and a campaign run before
# resumes or is skipped)
rm -f "$out/campaigns-$n"/*.json
sh "$here/gen.sh" -n "$n" -b "$build" "$out/campaigns-$n" || exit 2
# the applications, all of gen.sh's or those APPS names (gen.sh checked them)
apps=${APPS:-$(sed -n 's/^ALL_APPS="\(.*\)"$/\1/p' "$here/gen.sh")}
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
		for app in $apps; do
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
	for app in $apps; do
		row=$(cd "$here/../.." && "$build/flipsim" profile --regs alloc --protection "$out/sharp.json" \
			"$build/examples/$app" 2>/dev/null | awk '/^SHARP/ { t = 1; next } t && $NF !~ /%$/ { t = 0 } t { r = $0 } END { print r }')
		[ -n "$row" ] || { echo "study.sh: profile of $app with SHARP failed" >&2; return 1; }
		echo "$row" | awk -v app="$app" '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", app, $(NF-7), $(NF-6), $(NF-4), $(NF-3), $(NF-2), $(NF-1), $NF }' | tr -d '%'
	done
}

# golden_table GPU METRIC "APPS" SCHEME...: each application's fault-free
# run (flipsim profile, alloc mode) under each scheme token (gen.sh -P)
# against its run without protection on the same GPU: METRIC ipc, the IPC in
# % of the unprotected one's (REFU's paper: 100 = unmodified); overhead, the
# cycles' overhead in %. The last row is the mean over the applications.
golden_table() {
	gpu=$1 metric=$2 list=$3
	shift 3
	printf '{}\n' >"$out/none.json"
	for s in "$@"; do
		sh "$here/gen.sh" -P "$s" >"$out/$s.json" || return 1
	done
	printf '| app | %s |' "$([ "$metric" = ipc ] && echo "IPC, none" || echo "cycles, none")"
	for s in "$@"; do printf ' %s %s |' "$s" "$([ "$metric" = ipc ] && echo "IPC %" || echo "overhead %")"; done
	printf '\n|-----|------|'
	for s in "$@"; do printf '%s' '------|'; done
	echo
	: >"$out/golden.rows"
	for app in $list; do
		: >"$out/golden.app"
		for s in none "$@"; do
			line=$(cd "$here/../.." && "$build/flipsim" profile --gpu "$gpu" --regs alloc --protection "$out/$s.json" \
				"$build/examples/$app" 2>"$out/golden.err" | grep '^application: ' | tail -n 1)
			[ -n "$line" ] || {
				echo "study.sh: profile of $app with $s on $gpu failed: $(tail -n 1 "$out/golden.err")" >&2
				return 1
			}
			echo "$line" >>"$out/golden.app"
		done
		awk -v app="$app" -v metric="$metric" '
			{ c = $2; ipc = $NF }
			NR == 1 { c0 = c; ipc0 = ipc; printf "| %s | %s |", app, metric == "ipc" ? ipc : c; next }
			{ printf " %.2f |", metric == "ipc" ? 100 * ipc / ipc0 : 100 * (c / c0 - 1) }
			END { print "" }' "$out/golden.app" >>"$out/golden.rows"
	done
	cat "$out/golden.rows"
	awk -F'|' '{ for (i = 4; i < NF; i++) s[i] += $i; k = NF }
		END { printf "| mean | |"; for (i = 4; i < k; i++) printf " %.2f |", s[i] / NR; print "" }' "$out/golden.rows"
	rm -f "$out/golden.rows" "$out/golden.app" "$out/golden.err"
}

# REFU's IPC with a replay buffer of B entries, on gtx480 (the paper's GPU):
# 93.83, 98.52, 98.63 and 98.42 % of the unprotected IPC for B = 1..4
REFU_BUFFERS="refu1 refu2 refu3 refu4"
# compiled Penny's cycle overhead on tesla_c2050 (the paper's C2050), on the
# applications its paper shares with ours (LPS, SP, BFS, GAU, HS, NW, PF).
# (gen.sh -P's tokens: pennyc_EDC_STORAGE_PRUNING, STORAGE global, shared
# or auto; shared is refused by BFS, whose CTAs it no longer fits); empty:
# no table
PENNY_COMPILED=${PENNY_COMPILED-pennyc_parity_global_none pennyc_parity_global_basic pennyc_parity_global_optimal pennyc_parity_auto_basic pennyc_parity_auto_optimal}
PENNY_APPS=$(for app in bfs ge hs lps nw pathf spg; do case " $apps " in *" $app "*) printf '%s ' "$app" ;; esac; done)

if command -v sqlite3 >/dev/null; then
	{
		sqlite3 "$db" <"$here/codes.sql" && echo && sqlite3 "$db" <"$here/sawp.sql" && echo &&
			sqlite3 "$db" <"$here/sharp.sql" && echo &&
			cat "$here/runs.sql" "$here/penny.sql" | sqlite3 "$db" && echo &&
			cat "$here/runs.sql" "$here/refu.sql" | sqlite3 "$db" && echo &&
			cat "$here/runs.sql" "$here/summary.sql" | sqlite3 "$db"
	} | tee "$out/tables-$n.md"
else
	echo "study.sh: no sqlite3 here: the tables are codes.sql, sawp.sql, sharp.sql and, after runs.sql, penny.sql, refu.sql and summary.sql over $db"
fi
{
	echo && similarity && echo && sharp_profile && echo &&
		echo "REFU: golden IPC on gtx480 against no REFU" && golden_table gtx480 ipc "$apps" $REFU_BUFFERS &&
		if [ -n "$PENNY_COMPILED" ] && [ -n "$PENNY_APPS" ]; then
			echo && echo "Penny compiled: golden cycles' overhead on tesla_c2050" &&
				golden_table tesla_c2050 overhead "$PENNY_APPS" $PENNY_COMPILED
		fi
} >"$out/profiles-$n.md" || status=1
tee -a "$out/tables-$n.md" <"$out/profiles-$n.md"
exit "$status"
