#!/usr/bin/env bash
# check.sh — runs the examples on the simulator and checks every output byte
# for byte against the examples' C references (examples/README.md).
# Usage: examples/check.sh BUILD, where BUILD holds flipsim and examples/iterate
# (`make` builds both). The gen/ref tools are built into BUILD/examples/.
# Prints PASS or FAIL per check; exits 1 if any check fails, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "check.sh: no such directory: $1" >&2; exit 2; }
cd "$root" || exit 2

flipsim=$build/flipsim
bin=$build/examples
cc=${CC:-cc}
mkdir -p "$bin" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0

# check NAME CMD [ARG...]: runs CMD; PASS with the last line it printed (the
# reference's verdict), or FAIL followed by everything it printed.
check() {
	local name=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "PASS $name$(tail -n 1 "$tmp/out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $?)"
		sed 's/^/    /' "$tmp/out"
		failures=$((failures + 1))
	fi
}

build_tool() { # EXAMPLE TOOL
	"$cc" -std=c11 -O2 -Wall -Wextra -Werror -o "$bin/$1_$2" "examples/$1/$2.c" -lm
}

# exec_dump JSON DUMPDIR REGS: one simulated run in register mode REGS,
# outputs written to DUMPDIR.
exec_dump() {
	mkdir -p "$2" && "$flipsim" exec "$1" --regs "$3" --dump "$2"
}

# Each check takes the register mode (ptx or alloc) and dumps to a folder of
# its own, so that same_outputs can compare the two modes bit for bit.
vadd_default() {
	exec_dump examples/vadd/vadd.json "$tmp/vadd-$1" "$1" &&
		"$bin/vadd_ref" --random 65536 1 "$tmp/vadd-$1"
}

# 10007 elements: not a multiple of the block, so the bounds check matters.
vadd_odd() {
	"$bin/vadd_gen" 10007 7 "$tmp/vadd_odd" &&
		exec_dump "$tmp/vadd_odd/vadd.json" "$tmp/vadd_odd-$1" "$1" &&
		"$bin/vadd_ref" --files 10007 "$tmp/vadd_odd" "$tmp/vadd_odd-$1"
}

scalarprod_default() {
	exec_dump examples/scalarprod/scalarprod.json "$tmp/sp-$1" "$1" &&
		"$bin/scalarprod_ref" --random 256 4096 1 "$tmp/sp-$1"
}

# 300 pairs on 128 CTAs: uneven grid-stride trip counts (3 or 2 pairs per
# CTA); 999 elements: threads' strided loops run 3 or 4 times.
scalarprod_odd() {
	"$bin/scalarprod_gen" 300 999 5 "$tmp/sp_odd" &&
		exec_dump "$tmp/sp_odd/scalarprod.json" "$tmp/sp_odd-$1" "$1" &&
		"$bin/scalarprod_ref" --files 300 999 "$tmp/sp_odd" "$tmp/sp_odd-$1"
}

# same_outputs NAME: the dumps of both register modes are identical.
same_outputs() {
	local a=$tmp/$1-ptx b=$tmp/$1-alloc f n=0
	for f in "$a"/*.bin; do
		[ -f "$f" ] || { echo "no outputs in $a"; return 1; }
		cmp "$f" "$b/${f##*/}" || return 1
		n=$((n + 1))
	done
	echo "$n output(s) identical in ptx and alloc modes"
}

iterate() {
	if [ ! -x "$bin/iterate" ]; then
		echo "$bin/iterate is missing: make BUILD=$1 $1/examples/iterate"
		return 1
	fi
	"$bin/iterate" --regs "$2" examples/iterate/iterate.ptx
}

for ex in vadd scalarprod; do
	for tool in gen ref; do
		check "build $ex/$tool" build_tool $ex $tool
	done
done
if [ ! -x "$flipsim" ]; then
	echo "FAIL $flipsim is missing: make BUILD=$1"
	failures=$((failures + 1))
else
	for regs in ptx alloc; do
		check "vadd 65536 (vadd.json, $regs registers)" vadd_default $regs
		check "vadd 10007 (gen, $regs registers)" vadd_odd $regs
		check "scalarprod 256x4096 (scalarprod.json, $regs registers)" scalarprod_default $regs
		check "scalarprod 300x999 (gen, $regs registers)" scalarprod_odd $regs
	done
	for d in vadd vadd_odd sp sp_odd; do
		check "$d: alloc outputs equal ptx outputs" same_outputs $d
	done
fi
check "iterate (ptx registers)" iterate "$1" ptx
check "iterate (alloc registers)" iterate "$1" alloc

# Applications bring their own checks: examples/<app>/test.sh BUILD TMPDIR
# prints PASS/FAIL lines like the ones above and exits 1 when one failed.
for t in examples/*/test.sh; do
	[ -f "$t" ] || continue
	mkdir -p "$tmp/$(basename "$(dirname "$t")")"
	bash "$t" "$build" "$tmp/$(basename "$(dirname "$t")")" || failures=$((failures + 1))
done

if [ "$failures" -ne 0 ]; then
	echo "examples: $failures check(s) failed"
	exit 1
fi
echo "examples: all checks passed"
exit 0
