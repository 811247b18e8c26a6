#!/usr/bin/env bash
# driver-check.sh — the GUFI study's two drivers give the same outcomes for
# the same masks: three of its campaigns (ccp-regfile-ptx, ms-smem,
# vaddg-regfile-alloc) at 30 injections, written by gen.sh for the simcore
# programs and for their CUDA versions (-d cuda), run by flipsim into two
# databases, then compared experiment by experiment: the mask (cycle, SM,
# location, bits, kernel) and the outcome (class, reason, cycles, early
# stop) of every index, and each campaign's golden run (cycles, thread-
# instructions, output digest). The kernels' PTX is the same (examples/
# cuda-check.sh checks it), so only the host code differs; it must not show.
#
# Usage: bash examples/campaigns/gufi/driver-check.sh BUILD; BUILD holds the
# simcore programs (make) and the CUDA ones (make cuda-apps). FLIPSIM names
# another flipsim (default BUILD/flipsim) whose folder holds libcudart.so.13.
# Prints PASS/FAIL per campaign, or one SKIP line when the CUDA programs or
# the runtime are absent; exits 1 if a check failed, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "driver-check.sh: no such directory: $1" >&2; exit 2; }
flipsim=${FLIPSIM:-$build/flipsim}
campaigns="ccp-regfile-ptx ms-smem vaddg-regfile-alloc"

for c in $campaigns; do
	app=${c%%-*}
	if [ ! -x "$build/examples/${app}_cuda" ]; then
		echo "SKIP driver-check: no $build/examples/${app}_cuda (make cuda-apps; it needs nvcc)"
		exit 0
	fi
done
lib=$(dirname "$(readlink -f "$flipsim" 2>/dev/null || echo "$flipsim")")/libcudart.so.13
if [ ! -x "$flipsim" ] || [ ! -f "$lib" ]; then
	echo "SKIP driver-check: no flipsim CUDA runtime ($lib) beside $flipsim (make builds it)"
	exit 0
fi
command -v sqlite3 >/dev/null 2>&1 || { echo "driver-check.sh: needs sqlite3 (apt-get install sqlite3)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-driver-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0

for driver in simcore cuda; do
	sh "$here/gen.sh" -n 30 -b "$build" -d "$driver" "$tmp/$driver" >/dev/null || exit 2
	files=
	for c in $campaigns; do
		files="$files $tmp/$driver/$c.json"
	done
	# shellcheck disable=SC2086
	if ! "$flipsim" run $files --db "$tmp/$driver.db" -j 2 >"$tmp/$driver.log" 2>&1; then
		echo "FAIL driver-check: flipsim run of the $driver campaigns"
		sed 's/^/    /' "$tmp/$driver.log" | tail -n 20
		exit 1
	fi
done

# rows NAME DB: the golden run, then every experiment of campaign NAME.
rows() {
	sqlite3 -separator '|' "$2" "
	  SELECT 'golden', g.cycles, g.thread_insts, g.warp_insts, g.bits_per_sm, g.output_digest
	    FROM golden g JOIN campaigns c ON c.id = g.campaign_id WHERE c.name = '$1';
	  SELECT m.idx, m.cycle, m.sm, m.loc, m.nbits, m.extra, m.kernel, e.outcome, e.reason, e.cycles, e.early
	    FROM masks m JOIN experiments e USING (campaign_id, idx) JOIN campaigns c ON c.id = m.campaign_id
	   WHERE c.name = '$1' ORDER BY m.idx;"
}

for c in $campaigns; do
	rows "$c" "$tmp/simcore.db" >"$tmp/$c.simcore" && rows "$c" "$tmp/cuda.db" >"$tmp/$c.cuda" || exit 2
	n=$(grep -vc '^golden|' "$tmp/$c.simcore")
	if [ "$n" -ne 30 ]; then
		echo "FAIL driver-check: $c: $n experiments in the simcore database, expected 30"
		failures=$((failures + 1))
	elif ! cmp -s "$tmp/$c.simcore" "$tmp/$c.cuda"; then
		echo "FAIL driver-check: $c: the CUDA version's golden run or experiments differ (< simcore, > cuda)"
		diff "$tmp/$c.simcore" "$tmp/$c.cuda" | head -n 12 | sed 's/^/    /'
		failures=$((failures + 1))
	else
		passes=$((passes + 1))
		echo "PASS driver-check: $c: 30 experiments, the same masks and outcomes on both drivers ($(
			awk -F'|' '$1 != "golden" { n[$8]++ } END { printf "masked %d, sdc %d, due %d", n["masked"], n["sdc"], n["due"] }' \
				"$tmp/$c.cuda"))"
	fi
done
echo "driver-check: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
