#!/usr/bin/env bash
# gufi-figures.sh — the figures examples/README.md ("GUFI applications")
# sets beside GUFI's Table III: per application and register mode, cycles,
# IPC (thread-instructions per cycle) and the average warp occupancy at the
# occupancy limit and resident (definitions: `flipsim profile --help` and
# engine/golden.c eng_warp_occupancy). Usage: examples/gufi-figures.sh BUILD
# from the repository root after `make`. Prints a Markdown table.
set -u
build=${1:-build}
apps="bfs ccp ge hs km lps lud ms nw pathf spg vaddg"
echo "| app | mode | cycles | IPC | occupancy: limit | resident |"
echo "|---|---|---:|---:|---:|---:|"
for app in $apps; do
	for mode in ptx alloc; do
		out=$("$build/flipsim" profile --regs "$mode" "$build/examples/$app") || { echo "gufi-figures: $app ($mode) failed" >&2; exit 1; }
		echo "$out" | awk -v app="$app" -v mode="$mode" '
			/^application:/ { cycles = $2; ipc = $NF }
			/^average warp occupancy:/ { lim = $4; res = $(NF - 1) }
			END { printf "| %s | %s | %s | %.2f | %s | %s |\n", app, mode, cycles, ipc, lim, res }'
	done
done
