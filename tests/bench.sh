#!/usr/bin/env bash
# bench.sh — simulator and campaign throughput on the examples (`make bench`).
# For vadd and scalarprod at two sizes each it generates the workload with the
# example's gen, runs `FLIPSIM exec W.json --stats` RUNS times and prints one
# table row: simulated cycles and instructions, the median CPU seconds of the
# run (user + system, the whole process) and the thread-instructions per
# CPU-second they give. With a baseline (a second flipsim, or a git revision
# that the script builds in a scratch worktree) the runs alternate between
# the two binaries, each row adds the baseline's median and the speed-up, and
# the campaigns are run with both (CPU seconds side by side).
# Then it builds and times examples/iterate once, and runs the register-file
# campaigns in four modes. Needs bash, coreutils, awk, a C compiler, and git
# for a revision.
# Usage: tests/bench.sh FLIPSIM [BASELINE]. Exits 1 if any run fails or the
# two binaries disagree on cycles, instructions or outcomes, 2 on bad usage.
set -u

RUNS=${RUNS:-5}

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ]; then
	echo "usage: $0 FLIPSIM [BASELINE]  (FLIPSIM: e.g. build/flipsim; BASELINE: another" \
		"flipsim executable, or a git revision to build and compare with)" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
flipsim=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
build=$(dirname "$flipsim")
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-bench.XXXXXX") || exit 2
trap 'git -C "$root" worktree remove --force "$tmp/baseline-src" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
failed=0

# The baseline: an executable as it is, or a revision built here.
base=""
if [ $# -eq 2 ]; then
	if [ -x "$2" ] && [ -f "$2" ]; then
		base=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	elif git -C "$root" rev-parse --verify -q "$2^{commit}" >/dev/null; then
		echo "bench: building baseline $2 in a scratch worktree ..." >&2
		if ! git -C "$root" worktree add --detach "$tmp/baseline-src" "$2" >"$tmp/err" 2>&1 ||
			! make -C "$tmp/baseline-src" -s build/flipsim >"$tmp/err" 2>&1; then
			echo "bench: cannot build baseline $2:" >&2
			cat "$tmp/err" >&2
			exit 1
		fi
		base=$tmp/baseline-src/build/flipsim
	else
		echo "bench: baseline '$2' is neither an executable nor a git revision" >&2
		exit 2
	fi
fi

# cpu_of CMD...: runs CMD (output to $tmp/out, errors to $tmp/err) and prints
# its user + system CPU seconds, the children it waited for included;
# returns CMD's status.
cpu_of() {
	local TIMEFORMAT='%U %S' t rc
	t=$({ time "$@" >"$tmp/out" 2>"$tmp/err"; } 2>&1)
	rc=$?
	awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.4f\n", a[1] + a[2] }'
	return $rc
}

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

# median: the middle of the numbers on stdin.
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# stats_of FILE: "cycles warp thread" from flipsim's --stats JSON.
stats_of() {
	local c w t
	c=$(stat_of cycles "$1") && w=$(stat_of warp_instructions "$1") && t=$(stat_of thread_instructions "$1") &&
		echo "$c $w $t"
}

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
	local secs="" bsecs="" sims="" ref="" r s st bin
	for r in $(seq "$RUNS"); do
		for bin in "$flipsim" $base; do
			if ! s=$(cpu_of "$bin" exec "$dir/$ex.json" --stats) || ! st=$(stats_of "$tmp/out"); then
				echo "bench: $ex $label: run $r of $bin failed:" >&2
				cat "$tmp/err" "$tmp/out" >&2
				failed=1
				return
			fi
			if [ -z "$ref" ]; then
				ref=$st
			elif [ "$st" != "$ref" ]; then
				echo "bench: $ex $label: $bin gave cycles, warp- and thread-instructions $st, not $ref" >&2
				failed=1
				return
			fi
			if [ "$bin" = "$flipsim" ]; then
				secs="$secs$s
"
				sims="$sims$(stat_of sim_cpu_seconds "$tmp/out" || echo 0)
"
			else
				bsecs="$bsecs$s
"
			fi
		done
	done
	local med bmed="" smed
	med=$(printf '%s' "$secs" | median)
	smed=$(printf '%s' "$sims" | median)
	[ "$ex $label" = "vadd 1048576" ] && vadd1m_sim=$smed
	[ -n "$base" ] && bmed=$(printf '%s' "$bsecs" | median)
	# shellcheck disable=SC2086
	set -- $ref
	awk -v ex="$ex" -v size="$label" -v c="$1" -v w="$2" -v t="$3" -v s="$med" -v b="$bmed" -v sim="$smed" 'BEGIN {
		printf "%-11s %-10s %12s %14s %12s %9.3f %9.3f %10.1f", ex, size, c, t, w, s, sim, (s > 0 ? t / s / 1e6 : 0)
		if (b != "")
			printf " %9.3f %10.1f %7.2fx", b, (b > 0 ? t / b / 1e6 : 0), (s > 0 ? b / s : 0)
		printf "\n"
	}'
}

printf '%-11s %-10s %12s %14s %12s %9s %9s %10s' example size cycles thread-insts warp-insts "cpu s" "sim cpu s" "M thr/s"
[ -n "$base" ] && printf ' %9s %10s %8s' "base s" "base M/s" speedup
echo
bench vadd 65536 65536
bench vadd 1048576 1048576
bench scalarprod 256x4096 256 4096
bench scalarprod 1024x4096 1024 4096
echo "(cpu s: median of $RUNS runs, user + system CPU seconds of the whole run; sim cpu s:" \
	"median CPU seconds inside the launches, the simulation alone (--stats sim_cpu_seconds);" \
	"M thr/s: millions of thread-instructions per CPU-second of the whole run${base:+; base: $base})"

# Issue 12's speed target: vadd 1M simulated in at most 86 ms of CPU, 1000
# times GPGPU-Sim's 85.6 s for it on the project's machine (40 ms the aim).
vadd1m_sim=${vadd1m_sim:-}
if [ -n "$vadd1m_sim" ]; then
	awk -v s="$vadd1m_sim" 'BEGIN {
		printf "speed target (issue 12): vadd 1M sim cpu s %.3f, target <= 0.086 (aim 0.040): %s\n", s,
			s <= 0.040 ? "aim met" : s <= 0.086 ? "met" : "NOT met" }'
fi

# Protection's fault-free cost (issue 14: at most 10 %): the same workloads in
# alloc mode (predicate codes need physical predicates) without and with
# SECDED on the register file, the predicates and shared memory
# (examples/protection/secded.json), runs alternating; the cycles must agree.
echo
printf '%-11s %-10s %12s %9s %9s %9s\n' example size cycles "cpu s" "prot s" overhead
# protect_bench EXAMPLE SIZE-LABEL: one row, on the workload bench() generated.
protect_bench() {
	local ex=$1 label=$2 dir=$tmp/$1-$2 plain="" prot="" s st ref="" r mode
	for r in $(seq "$RUNS"); do
		for mode in plain prot; do
			# shellcheck disable=SC2046
			if ! s=$(cpu_of "$flipsim" exec "$dir/$ex.json" --stats --regs alloc \
				$([ "$mode" = prot ] && echo --protection examples/protection/secded.json)) ||
				! st=$(stats_of "$tmp/out"); then
				echo "bench: $ex $label with protection ($mode) failed:" >&2
				cat "$tmp/err" "$tmp/out" >&2
				failed=1
				return
			fi
			[ -z "$ref" ] && ref=$st
			if [ "$st" != "$ref" ]; then
				echo "bench: $ex $label: protection changed cycles or instructions: $st, not $ref" >&2
				failed=1
				return
			fi
			if [ "$mode" = plain ]; then plain="$plain$s
"; else prot="$prot$s
"; fi
		done
	done
	local a b
	a=$(printf '%s' "$plain" | median)
	b=$(printf '%s' "$prot" | median)
	awk -v ex="$ex" -v size="$label" -v c="${ref%% *}" -v a="$a" -v b="$b" 'BEGIN {
		printf "%-11s %-10s %12s %9.3f %9.3f %8.1f%%\n", ex, size, c, a, b, (a > 0 ? 100 * (b / a - 1) : 0) }'
}
protect_bench vadd 1048576
protect_bench scalarprod 256x4096
echo "(cpu s, prot s: median of $RUNS runs each, alternating, without and with the codes; overhead: prot s / cpu s - 1)"

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
# with 2 workers, with and without fork-at-cycle and early termination
# (and fork+early without fault sites and effects, --no-attribution),
# and the share of experiments classified without simulating (unused: an
# unallocated location; dead: a value never read again) or stopped early.
# Seconds are CPU seconds of the daemon and every process it waited for.
# Every mode, and the baseline, must give the same outcome counts.
echo
printf '%-20s %-15s %8s %9s %8s %8s %8s %6s  %-15s' campaign mode "cpu s" "inj/cpu-s" unused dead early "time" \
	masked/sdc/due
[ -n "$base" ] && printf ' %8s %8s' "base s" speedup
echo
# campaign_run BIN FILE DB FLAGS: prints CPU seconds, then the status row
# (header names as keys); returns nonzero on failure.
campaign_run() {
	local bin=$1 file=$2 db=$3 flags=$4 s
	rm -f "$db" "$db-wal" "$db-shm"
	# shellcheck disable=SC2086
	s=$(cpu_of "$bin" run "$file" --db "$db" -j 2 --quiet $flags) || return 1
	"$bin" status "$db" | awk -v s="$s" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }  # columns by their header names
		NR == 2 {
			split($col["done/planned"], d, "/")
			print s, d[1], $col["unused"], $col["dead"], $col["early"], $col["masked"] "/" $col["sdc"] "/" $col["due"]
		}'
}
campaign_bench() {
	local name=$1 file=$2 first="" mode label flags bflags row brow
	for mode in "fork+early:" "no-attribution:--no-attribution" "fork:--no-early" "no-fork+early:--no-fork" \
		"no-fork:--no-fork --no-early"; do
		label=${mode%%:*} flags=${mode#*:} bflags=$flags
		# a baseline older than --no-attribution runs that row as fork+early
		if [ -n "$base" ] && [ "$label" = no-attribution ] && ! "$base" run --help 2>&1 | grep -q -- --no-attribution; then
			bflags=""
		fi
		if ! row=$(campaign_run "$flipsim" "$file" "$tmp/$name-$label.db" "$flags"); then
			echo "bench: $name $label failed:" >&2
			cat "$tmp/err" >&2
			failed=1
			return
		fi
		brow=""
		if [ -n "$base" ] && ! brow=$(campaign_run "$base" "$file" "$tmp/$name-$label-base.db" "$bflags"); then
			echo "bench: $name $label failed with the baseline:" >&2
			cat "$tmp/err" >&2
			failed=1
			return
		fi
		[ -z "$first" ] && first=${row%% *}
		echo "$row|$brow" | awk -v n="$name" -v m="$label" -v f="$first" '{
			split($0, p, "|"); split(p[1], a, " "); nb = split(p[2], b, " ")
			printf "%-20s %-15s %8.2f %9.0f %7.1f%% %7.1f%% %7.1f%% %5.1fx  %-15s", n, m, a[1], a[2] / a[1],
			       100 * a[3] / a[2], 100 * a[4] / a[2], 100 * a[5] / a[2], a[1] / f, a[6]
			if (nb)
				printf " %8.2f %7.2fx%s", b[1], b[1] / a[1], b[6] == a[6] ? "" : "  OUTCOMES DIFFER: " b[6]
			printf "\n"
		}'
		if [ -n "$brow" ] && [ "${brow##* }" != "${row##* }" ]; then
			failed=1
		fi
	done
}
campaign_bench vadd-regfile examples/campaigns/vadd-regfile.json
campaign_bench scalarprod-regfile examples/campaigns/scalarprod-regfile.json
echo "(time: each mode's CPU seconds over fork+early's; unused, dead: classified without simulating after the fault;" \
	"fork+early stores fault sites and effects, no-attribution does not: README, \"Fault sites and effects\")"
# A protected campaign (issue 14: throughput within 10 % of the unprotected
# one): vadd-regfile with SECDED on the register file, fork+early, beside
# the same campaign unprotected, runs alternating; "time" is its CPU seconds
# over the unprotected run's (the protected one's fault space has 39 bits
# per register word: other faults, so counts differ by design).
sed 's/"name": "vadd-regfile"/"name": "vadd-regfile-secded"/; s/"target": "regfile",/"target": "regfile", "protection": {"regfile": {"code": "secded"}},/' \
	examples/campaigns/vadd-regfile.json >"$tmp/vadd-regfile-secded.json"
sed -i "s#\"../vadd/vadd.json\"#\"$root/examples/vadd/vadd.json\"#" "$tmp/vadd-regfile-secded.json"
echo
printf '%-20s %-15s %8s %9s %8s %8s %8s %6s  %-15s\n' campaign mode "cpu s" "inj/cpu-s" unused dead early "time" \
	masked/sdc/due
plain_s="" prot_s="" prow=""
for r in $(seq "$RUNS"); do
	if ! row=$(campaign_run "$flipsim" examples/campaigns/vadd-regfile.json "$tmp/vr-plain.db" "") ||
		! prow=$(campaign_run "$flipsim" "$tmp/vadd-regfile-secded.json" "$tmp/vr-prot.db" ""); then
		echo "bench: the protected campaign failed:" >&2
		cat "$tmp/err" >&2
		failed=1
		break
	fi
	plain_s="$plain_s${row%% *}
"
	prot_s="$prot_s${prow%% *}
"
done
if [ -n "$prow" ]; then
	a=$(printf '%s' "$plain_s" | median)
	b=$(printf '%s' "$prot_s" | median)
	echo "$prow" | awk -v a="$a" -v b="$b" '{
		printf "%-20s %-15s %8.2f %9.0f %7.1f%% %7.1f%% %7.1f%% %5.2fx  %-15s\n", "vadd-regfile-secded", "fork+early", b,
		       $2 / b, 100 * $3 / $2, 100 * $4 / $2, 100 * $5 / $2, b / a, $6 }'
	echo "(vadd-regfile-secded: median CPU seconds of $RUNS runs; time: over vadd-regfile's fork+early median in the same runs, $a s)"
fi

exit "$failed"
