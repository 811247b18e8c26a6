#!/usr/bin/env bash
# Penny compiled: fault-free cycle overhead on the applications the paper
# shares with flipsim (DESIGN.md, "Penny (compiled)"), on the tesla_c2050
# preset: without pruning (global storage), and with basic pruning in each
# checkpoint storage (global, shared, auto); then the compiler's counts
# (checkpoints needed, pruned, inserted; adjustments; slots, those in
# shared memory, bytes of global storage, shared bytes a warp) per module,
# without pruning, with basic pruning (global), and with storage auto.
# Usage: examples/protection/pennyc-cost.sh [BUILDDIR]   (from the repository root)
set -eu
build=${1:-build}
flipsim=$build/flipsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '{"penny": {"edc": "parity", "mode": "compiled", "pruning": "none", "storage": "global"}}' >"$tmp/none.json"
for s in global shared auto; do
	echo "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"pruning\": \"basic\", \"storage\": \"$s\"}}" >"$tmp/$s.json"
done
# "CYCLES THREAD-INSTRUCTIONS" of a profile
cycles() { sed -n 's/^application: \([0-9]*\) cycles, \([0-9]*\) thread-instructions.*/\1 \2/p'; }
printf '%-6s %10s %10s %8s %10s %8s %10s %8s %10s %8s %10s %10s %10s\n' app base none "ovh%" global "ovh%" shared "ovh%" \
	auto "ovh%" "insn none%" "insn glob%" "insn auto%"
for app in lps bfs ge hs nw pathf sp; do
	if [ $app = sp ]; then
		w=(examples/scalarprod/scalarprod.json)
	else
		w=("$build/examples/$app")
	fi
	b=$("$flipsim" profile --gpu tesla_c2050 --regs alloc "${w[@]}" | cycles)
	r=()
	for p in none global shared auto; do
		rm -f "$tmp/$p.stats"
		# the compiler's counts, appended by the program's GPU (FLIPSIM_PENNY_STATS=FILE)
		r+=("$(FLIPSIM_PENNY_STATS="$tmp/$p.stats" "$flipsim" profile --gpu tesla_c2050 --regs alloc \
			--protection "$tmp/$p.json" "${w[@]}" 2>/dev/null | cycles)")
	done
	# a storage whose launch does not fit (shared) shows as "refused"
	awk -v a=$app -v b="$b" -v n="${r[0]}" -v g="${r[1]}" -v s="${r[2]}" -v t="${r[3]}" '
	function c(x, X) { return x == "" ? sprintf("%10s %8s", "refused", "-") : sprintf("%10d %8.1f", X[1], 100 * (X[1] / B[1] - 1)) }
	BEGIN {
		split(b, B, " "); split(n, N, " "); split(g, G, " "); split(s, S, " "); split(t, T, " ")
		printf "%-6s %10d %s %s %s %s %10.1f %10.1f %10.1f\n", a, B[1], c(n, N), c(g, G), c(s, S), c(t, T),
			100 * (N[2] / B[2] - 1), 100 * (G[2] / B[2] - 1), 100 * (T[2] / B[2] - 1) }'
	for p in none global auto; do
		printf '       %-8s %s\n' "$p:" "$(sed -n 's/^penny [^:]*: //p' "$tmp/$p.stats" | head -n 1)"
	done
done
