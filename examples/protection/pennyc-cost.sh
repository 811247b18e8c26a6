#!/usr/bin/env bash
# Penny compiled: fault-free cycle overhead on the applications the paper
# shares with flipsim (DESIGN.md, "Penny (compiled)"), on the tesla_c2050
# preset, without pruning, with basic and with optimal pruning, and the
# compiler's counts (checkpoints needed, pruned, inserted; adjustments;
# slots) per module, with the checkpoints removed (pruned / needed).
# Usage: examples/protection/pennyc-cost.sh [BUILDDIR]   (from the repository root)
set -eu
build=${1:-build}
flipsim=$build/flipsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '{"penny": {"edc": "parity", "mode": "compiled", "pruning": "none"}}' >"$tmp/none.json"
echo '{"penny": {"edc": "parity", "mode": "compiled", "pruning": "basic"}}' >"$tmp/basic.json"
echo '{"penny": {"edc": "parity", "mode": "compiled", "pruning": "optimal"}}' >"$tmp/optimal.json"
# "CYCLES THREAD-INSTRUCTIONS" of a profile
cycles() { sed -n 's/^application: \([0-9]*\) cycles, \([0-9]*\) thread-instructions.*/\1 \2/p'; }
counts() { sed -n 's/^penny [^:]*: //p' | head -n 1; }
# "checkpoints removed %" of a counts line: cps_pruned / cps_needed
removed() { awk '{ for (i = 1; i < NF; i++) { if ($i == "cps_needed") n = $(i + 1); if ($i == "cps_pruned") p = $(i + 1) }
	printf "%.1f %% (%d of %d)", n ? 100 * p / n : 0, p, n }'; }
printf '%-6s %10s %10s %8s %10s %8s %10s %8s %10s %10s %10s\n' app base none "ovh%" basic "ovh%" optimal "ovh%" \
	"insn none%" "insn basic%" "insn opt%"
for app in lps bfs ge hs nw pathf sp; do
	if [ $app = sp ]; then
		w=(examples/scalarprod/scalarprod.json)
	else
		w=("$build/examples/$app")
	fi
	b=$("$flipsim" profile --gpu tesla_c2050 --regs alloc "${w[@]}" | cycles)
	n=$("$flipsim" profile --gpu tesla_c2050 --regs alloc --protection "$tmp/none.json" "${w[@]}" | cycles)
	s=$("$flipsim" profile --gpu tesla_c2050 --regs alloc --protection "$tmp/basic.json" "${w[@]}" | cycles)
	o=$("$flipsim" profile --gpu tesla_c2050 --regs alloc --protection "$tmp/optimal.json" "${w[@]}" | cycles)
	awk -v a=$app -v b="$b" -v n="$n" -v s="$s" -v o="$o" 'BEGIN {
		split(b, B, " "); split(n, N, " "); split(s, S, " "); split(o, O, " ")
		printf "%-6s %10d %10d %8.1f %10d %8.1f %10d %8.1f %10.1f %10.1f %10.1f\n", a, B[1], N[1],
			100 * (N[1] / B[1] - 1), S[1], 100 * (S[1] / B[1] - 1), O[1], 100 * (O[1] / B[1] - 1),
			100 * (N[2] / B[2] - 1), 100 * (S[2] / B[2] - 1), 100 * (O[2] / B[2] - 1) }'
	if [ $app = sp ]; then
		cnt() { FLIPSIM_PASS=$1 FLIPSIM_PENNY_STATS=1 "$flipsim" exec --gpu tesla_c2050 --regs alloc "${w[@]}" 2>&1 >/dev/null | counts; }
	else
		cnt() { FLIPSIM_PASS=$1 FLIPSIM_PENNY_STATS=1 "${w[@]}" 2>&1 >/dev/null | counts; }
	fi
	cn=$(cnt penny-noprune)
	cb=$(cnt penny)
	co=$(cnt penny-optimal)
	echo "       none:    $cn"
	echo "       basic:   $cb (removed $(echo "$cb" | removed))"
	echo "       optimal: $co (removed $(echo "$co" | removed))"
done
