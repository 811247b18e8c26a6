#!/usr/bin/env bash
# gufi-figures.sh — the figures examples/README.md ("GUFI applications")
# sets beside GUFI's Table III: per application and register mode, cycles,
# IPC (thread-instructions per cycle) and the average warp occupancy at the
# occupancy limit and resident (definitions: `flipsim profile --help` and
# engine/golden.c eng_warp_occupancy). Usage: examples/gufi-figures.sh BUILD
# from the repository root after `make`. Prints a Markdown table.
# Clocks: flipsim's cycles are cycles of the preset's clock_mhz, the
# GTX480's 1401-MHz shader clock (campaigns/gpus/gtx480.json); GUFI's
# Table III counts GPGPU-Sim's 700-MHz core cycles. Column "IPC @700"
# puts ours on that clock: instructions per 700-MHz cycle = instructions
# per 1401-MHz cycle x 1401 / 700.
set -u
build=${1:-build}
apps="bfs ccp ge hs km lps lud ms nw pathf spg vaddg"
shader_mhz=1401
core_mhz=700
echo "| app | mode | cycles (1401 MHz) | IPC (per 1401-MHz cycle) | IPC @700 (per 700-MHz cycle) | occupancy: limit | resident |"
echo "|---|---|---:|---:|---:|---:|---:|"
for app in $apps; do
	for mode in unalloc alloc; do  # ptx mode runs alloc's machine
		out=$("$build/flipsim" profile --regs "$mode" "$build/examples/$app") || { echo "gufi-figures: $app ($mode) failed" >&2; exit 1; }
		echo "$out" | awk -v app="$app" -v mode="$mode" -v shader="$shader_mhz" -v core="$core_mhz" '
			/^application:/ { cycles = $2; ipc = $NF }
			/^average warp occupancy:/ { lim = $4; res = $(NF - 1) }
			END { printf "| %s | %s | %s | %.2f | %.2f | %s | %s |\n", app, mode, cycles, ipc, ipc * shader / core, lim, res }'
	done
done
