#!/usr/bin/env bash
# bench.sh — simulator throughput on the examples (`make bench`). For vadd and
# scalarprod at two sizes each it generates the workload with the example's
# gen, runs `FLIPSIM exec W.json --stats` RUNS times and prints one table row:
# simulated cycles and instructions, the median host seconds spent simulating
# and the rates they give. Then it builds and times examples/iterate once.
# Needs bash, coreutils, awk and a C compiler; no jq, no python.
# Usage: tests/bench.sh FLIPSIM. Exits 1 if any run fails, 2 on bad usage.
set -u

RUNS=${RUNS:-5}

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: $0 FLIPSIM  (the flipsim executable, e.g. build/flipsim)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
flipsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(dirname "$flipsim")
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-bench.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0

# stat_of KEY FILE: the number after the first "KEY": in FILE (flipsim's --stats
# JSON, one line or many).
stat_of() {
	awk -v key="\"$1\"" '
		{ buf = buf $0 " " }
		END {
			i = index(buf, key)
			if (i == 0) exit 1
			rest = substr(buf, i + length(key))
			if (!match(rest, /^[ \t]*:[ \t]*[-+0-9.eE]+/)) exit 1
			v = substr(rest, RSTART, RLENGTH)
			sub(/^[ \t]*:[ \t]*/, "", v)
			print v
		}' "$2"
}

# now: seconds since the epoch with nanoseconds (GNU date).
now() { date +%s.%N; }

for ex in vadd scalarprod; do
	if ! ${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -o "$tmp/${ex}_gen" \
		"examples/$ex/gen.c" -lm; then
		echo "bench: cannot build examples/$ex/gen.c" >&2
		exit 1
	fi
done

# bench EXAMPLE SIZE-LABEL GEN-ARGS...: one table row.
bench() {
	local ex=$1 label=$2 dir=$tmp/$1-$2
	shift 2
	if ! "$tmp/${ex}_gen" "$@" 1 "$dir" >"$tmp/err" 2>&1; then
		echo "bench: $ex $label: gen failed:" >&2
		cat "$tmp/err" >&2
		failed=1
		return
	fi
	local secs="" cyc="" wi="" ti="" r c w t s
	for r in $(seq "$RUNS"); do
		if ! "$flipsim" exec "$dir/$ex.json" --stats >"$tmp/stats" 2>"$tmp/err"; then
			echo "bench: $ex $label: run $r failed:" >&2
			cat "$tmp/err" >&2
			failed=1
			return
		fi
		if ! c=$(stat_of cycles "$tmp/stats") || ! w=$(stat_of warp_instructions "$tmp/stats") ||
			! t=$(stat_of thread_instructions "$tmp/stats") || ! s=$(stat_of sim_seconds "$tmp/stats"); then
			echo "bench: $ex $label: --stats lacks a key; it printed:" >&2
			cat "$tmp/stats" >&2
			failed=1
			return
		fi
		if [ -z "$cyc" ]; then
			cyc=$c wi=$w ti=$t
		elif [ "$c $w $t" != "$cyc $wi $ti" ]; then
			echo "bench: $ex $label: not deterministic: run 1 gave $cyc cycles," \
				"$wi warp- and $ti thread-instructions, run $r $c, $w, $t" >&2
			failed=1
			return
		fi
		secs="$secs$s
"
	done
	local med
	med=$(printf '%s' "$secs" | sort -g | sed -n "$(((RUNS + 1) / 2))p")
	awk -v ex="$ex" -v size="$label" -v c="$cyc" -v t="$ti" -v w="$wi" -v s="$med" 'BEGIN {
		if (s > 0)
			printf "%-11s %-10s %12s %14s %12s %10.4f %10.1f %10.2f\n",
			       ex, size, c, t, w, s, t / s / 1e6, w / s / 1e6
		else
			printf "%-11s %-10s %12s %14s %12s %10.4f %10s %10s\n",
			       ex, size, c, t, w, s, "-", "-"
	}'
}

printf '%-11s %-10s %12s %14s %12s %10s %10s %10s\n' example size cycles thread-insts \
	warp-insts "sim s" "M thr/s" "M warp/s"
bench vadd 65536 65536
bench vadd 1048576 1048576
bench scalarprod 256x4096 256 4096
bench scalarprod 1024x4096 1024 4096
echo "(sim s: median of $RUNS runs of host seconds spent simulating; M: millions of" \
	"instructions per second)"

# The host-API example: build it as the Makefile does, run it once.
case $build in
"$root"/*) mkbuild=${build#"$root"/} ;;
*) mkbuild=$build ;;
esac
echo
if ! make -s BUILD="$mkbuild" "$mkbuild/examples/iterate" >"$tmp/err" 2>&1; then
	echo "bench: cannot build $mkbuild/examples/iterate:" >&2
	cat "$tmp/err" >&2
	exit 1
fi
t0=$(now)
"$build/examples/iterate" --stats examples/iterate/iterate.ptx >"$tmp/out" 2>&1
rc=$?
t1=$(now)
cat "$tmp/out"
awk -v a="$t0" -v b="$t1" -v rc="$rc" 'BEGIN { printf "iterate: %.3f s wall, exit status %d\n", b - a, rc }'
[ "$rc" -eq 0 ] || failed=1

# Campaign throughput: the register-file campaigns of vadd and scalarprod
# with 2 workers, with and without fork-at-cycle and early termination,
# and the share of experiments classified without simulating (unused: an
# unallocated location; dead: a value never read again) or stopped early.
# Every mode must give the same outcome counts.
echo
printf '%-20s %-22s %8s %9s %8s %8s %8s %8s  %s\n' campaign mode seconds "inj/s" unused dead early "time" "masked/sdc/due"
campaign_bench() {
	name=$1 file=$2
	base=""
	for mode in "fork+early:" "fork:--no-early" "no-fork+early:--no-fork" "no-fork:--no-fork --no-early"; do
		label=${mode%%:*} flags=${mode#*:}
		db="$tmp/$name-$label.db"
		rm -f "$db" "$db-wal" "$db-shm"
		t0=$(now)
		# shellcheck disable=SC2086
		if ! "$flipsim" run "$file" --db "$db" -j 2 --quiet $flags >/dev/null 2>"$tmp/err"; then
			echo "bench: $name $label failed:" >&2
			cat "$tmp/err" >&2
			failed=1
			return
		fi
		t1=$(now)
		"$flipsim" status "$db" | awk -v n="$name" -v m="$label" -v a="$t0" -v b="$t1" -v base="$base" '
			NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }  # columns by their header names
			NR == 2 {
				split($col["done/planned"], d, "/"); s = b - a; done = d[1]
				sp = base == "" ? "1.0x" : sprintf("%.1fx", s / base)
				printf "%-20s %-22s %8.2f %9.0f %7.1f%% %7.1f%% %7.1f%% %8s  %d/%d/%d\n", n, m, s, done / s,
				       100 * $col["unused"] / done, 100 * $col["dead"] / done, 100 * $col["early"] / done, sp,
				       $col["masked"], $col["sdc"], $col["due"]
			}'
		[ -z "$base" ] && base=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
	done
}
campaign_bench vadd-regfile examples/campaigns/vadd-regfile.json
campaign_bench scalarprod-regfile examples/campaigns/scalarprod-regfile.json
echo "(time: each mode's seconds over fork+early's; unused, dead: classified without simulating after the fault)"

exit "$failed"
