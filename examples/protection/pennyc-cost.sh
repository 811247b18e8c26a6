#!/usr/bin/env bash
# Penny compiled: fault-free cycle overhead on the applications the paper
# shares with flipsim (DESIGN.md, "Penny (compiled)"), on the tesla_c2050
# preset, without pruning and with basic pruning, and the compiler's counts
# (checkpoints needed, pruned, inserted; adjustments; slots) per module.
# Usage: examples/protection/pennyc-cost.sh [BUILDDIR]   (from the repository root)
set -eu
build=${1:-build}
flipsim=$build/flipsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '{"penny": {"edc": "parity", "mode": "compiled", "pruning": "none"}}' >"$tmp/none.json"
echo '{"penny": {"edc": "parity", "mode": "compiled", "pruning": "basic"}}' >"$tmp/basic.json"
# "CYCLES THREAD-INSTRUCTIONS" of a profile
cycles() { sed -n 's/^application: \([0-9]*\) cycles, \([0-9]*\) thread-instructions.*/\1 \2/p'; }
counts() { sed -n 's/^penny [^:]*: //p' | head -n 1; }
printf '%-6s %10s %10s %8s %10s %8s %10s %10s\n' app base none "ovh%" basic "ovh%" "insn none%" "insn basic%"
for app in lps bfs ge hs nw pathf sp; do
	if [ $app = sp ]; then
		w=(examples/scalarprod/scalarprod.json)
	else
		w=("$build/examples/$app")
	fi
	b=$("$flipsim" profile --gpu tesla_c2050 --regs alloc "${w[@]}" | cycles)
	n=$("$flipsim" profile --gpu tesla_c2050 --regs alloc --protection "$tmp/none.json" "${w[@]}" | cycles)
	s=$("$flipsim" profile --gpu tesla_c2050 --regs alloc --protection "$tmp/basic.json" "${w[@]}" | cycles)
	awk -v a=$app -v b="$b" -v n="$n" -v s="$s" 'BEGIN {
		split(b, B, " "); split(n, N, " "); split(s, S, " ")
		printf "%-6s %10d %10d %8.1f %10d %8.1f %10.1f %10.1f\n", a, B[1], N[1], 100 * (N[1] / B[1] - 1), S[1],
			100 * (S[1] / B[1] - 1), 100 * (N[2] / B[2] - 1), 100 * (S[2] / B[2] - 1) }'
	if [ $app = sp ]; then
		cn=$(FLIPSIM_PASS=penny-noprune FLIPSIM_PENNY_STATS=1 "$flipsim" exec --gpu tesla_c2050 --regs alloc "${w[@]}" 2>&1 >/dev/null | counts)
		cb=$(FLIPSIM_PASS=penny FLIPSIM_PENNY_STATS=1 "$flipsim" exec --gpu tesla_c2050 --regs alloc "${w[@]}" 2>&1 >/dev/null | counts)
	else
		cn=$(FLIPSIM_PASS=penny-noprune FLIPSIM_PENNY_STATS=1 "${w[@]}" 2>&1 >/dev/null | counts)
		cb=$(FLIPSIM_PASS=penny FLIPSIM_PENNY_STATS=1 "${w[@]}" 2>&1 >/dev/null | counts)
	fi
	echo "       none:  $cn"
	echo "       basic: $cb"
done
