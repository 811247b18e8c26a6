#!/usr/bin/env bash
# gpgpusim-validation.sh — flipsim's simulated time beside GPGPU-Sim's on the
# four calibration kernels of issue 12, GTX480 preset, alloc mode (the
# occupancy of the hardware's register allocation). Usage, from the
# repository root after `make`:
#
#     bash examples/gpgpusim-validation.sh [BUILD] [GPU]
#
# Prints a Markdown table (docs/DESIGN.md, "The microarchitecture model").
#
# GPGPU-Sim's figures: GPGPU-Sim 4.2, configs/tested-cfgs/SM2_GTX480, the same
# PTX and inputs, cycles of its 700-MHz core clock, measured by the project
# (issue 12). flipsim counts cycles of the preset's clock_mhz (the 1401-MHz
# shader clock); both are turned into microseconds to compare.
set -eu
build=${1:-build}
gpu=${2:-gtx480}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-validate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for ex in vadd scalarprod; do
	${CC:-cc} -std=c11 -O2 -o "$tmp/${ex}_gen" "examples/$ex/gen.c" -lm
done
mkdir -p "$tmp/vadd" "$tmp/scalarprod"
"$tmp/vadd_gen" 1048576 1 "$tmp/vadd" >/dev/null
"$tmp/scalarprod_gen" 256 4096 1 "$tmp/scalarprod" >/dev/null

# cycles and clock of one exec --stats or profile run
exec_cycles() {
	"$build/flipsim" exec --gpu "$gpu" --regs alloc --stats "$1" |
		awk -F'[:,]' '/^  "cycles"/ { c = $2 } /^  "clock_mhz"/ { m = $2 } END { gsub(/ /, "", c); print c, m + 0 }'
}
profile_cycles() {
	"$build/flipsim" profile --gpu "$gpu" --regs alloc "$build/examples/$1" |
		awk '/^application:/ { print $2 }'
}

mhz=$(exec_cycles "$tmp/vadd/vadd.json" | awk '{ print $2 }')
rows="vadd|examples/vadd, 1M floats|$(exec_cycles "$tmp/vadd/vadd.json" | awk '{ print $1 }')|85482
scalarprod|examples/scalarprod, 256 x 4096|$(exec_cycles "$tmp/scalarprod/scalarprod.json" | awk '{ print $1 }')|76403
hs|examples/hs, 512 x 512, 2 steps|$(profile_cycles hs)|111746
nw|examples/nw, 2 x 512|$(profile_cycles nw)|1025776"

echo "| kernel | flipsim cycles ($mhz MHz) | flipsim us | GPGPU-Sim cycles (700 MHz) | GPGPU-Sim us | flipsim / GPGPU-Sim |"
echo "|---|---:|---:|---:|---:|---:|"
echo "$rows" | awk -F'|' -v mhz="$mhz" '{
	us = $3 / mhz; gus = $4 / 700
	printf "| %s | %d | %.1f | %d | %.1f | %.2f |\n", $2, $3, us, $4, gus, us / gus
}'
