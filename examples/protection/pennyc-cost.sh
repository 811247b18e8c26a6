#!/usr/bin/env bash
# Penny compiled: fault-free cycle overhead on the applications the paper
# shares with flipsim (DESIGN.md, "Penny (compiled)"), on the tesla_c2050
# preset, for each configuration PRUNING-STORAGE of CONFIGS (default: no,
# basic and optimal pruning in global storage, basic in shared storage,
# basic and optimal in auto storage); then, per configuration, the
# compiler's counts (checkpoints needed, pruned, inserted; adjustments;
# slots, those in shared memory, bytes of global storage, shared bytes a
# warp) of the application's first module and the checkpoints removed
# (pruned / needed). A launch the shared checkpoints no longer fit shows
# as "refused".
# Usage: examples/protection/pennyc-cost.sh [BUILDDIR]   (from the repository root)
set -eu
build=${1:-build}
flipsim=$build/flipsim
configs=${CONFIGS:-none-global basic-global optimal-global basic-shared basic-auto optimal-auto}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for c in $configs; do
	echo "{\"penny\": {\"edc\": \"parity\", \"mode\": \"compiled\", \"pruning\": \"${c%-*}\", \"storage\": \"${c#*-}\"}}" \
		>"$tmp/$c.json"
done
# "CYCLES THREAD-INSTRUCTIONS" of a profile
cycles() { sed -n 's/^application: \([0-9]*\) cycles, \([0-9]*\) thread-instructions.*/\1 \2/p'; }
# "checkpoints removed %" of a counts line: cps_pruned / cps_needed
removed() { awk '{ for (i = 1; i < NF; i++) { if ($i == "cps_needed") n = $(i + 1); if ($i == "cps_pruned") p = $(i + 1) }
	printf "%.1f %% (%d of %d)", n ? 100 * p / n : 0, p, n }'; }
printf '%-6s %10s' app base
for c in $configs; do printf ' %14s %7s' "$c" "ovh%"; done
echo
for app in lps bfs ge hs nw pathf sp; do
	if [ $app = sp ]; then
		w=(examples/scalarprod/scalarprod.json)
	else
		w=("$build/examples/$app")
	fi
	b=$("$flipsim" profile --gpu tesla_c2050 --regs alloc "${w[@]}" | cycles)
	printf '%-6s %10d' "$app" "${b%% *}"
	for c in $configs; do
		rm -f "$tmp/$c.stats"
		# the compiler's counts, appended by the program's GPU (FLIPSIM_PENNY_STATS=FILE)
		r=$(FLIPSIM_PENNY_STATS="$tmp/$c.stats" "$flipsim" profile --gpu tesla_c2050 --regs alloc \
			--protection "$tmp/$c.json" "${w[@]}" 2>/dev/null | cycles)
		if [ -z "$r" ]; then
			printf ' %14s %7s' refused -
		else
			awk -v r="${r%% *}" -v b="${b%% *}" 'BEGIN { printf " %14d %7.1f", r, 100 * (r / b - 1) }'
		fi
	done
	echo
	for c in $configs; do
		line=$(sed -n 's/^penny [^:]*: //p' "$tmp/$c.stats" 2>/dev/null | head -n 1)
		[ -n "$line" ] && printf '       %-15s %s (removed %s)\n' "$c:" "$line" "$(echo "$line" | removed)"
	done
done
