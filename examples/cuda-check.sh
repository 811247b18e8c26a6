#!/usr/bin/env bash
# cuda-check.sh — the CUDA versions of the GUFI applications
# (examples/<app>/<app>_cuda.cu; examples/README.md, "The CUDA versions")
# against their simcore versions: the kernels' PTX (nvcc -ptx of the CUDA
# program is the committed <app>.ptx), then each program run by `flipsim exec`
# on flipsim's CUDA runtime and compared with the simcore program byte for
# byte (stdout and exit status): at the default input (the GUFI study's
# workload; there also the simulated run's statistics, launch by launch),
# at a small input with --check, on bad usage, and stopped by a
# cycle budget (the DUE reaches the CUDA program as cudaErrorLaunchTimeout).
#
# Usage: bash examples/cuda-check.sh BUILD, from anywhere; BUILD holds the
# simcore programs (make) and the CUDA ones (make cuda-apps). FLIPSIM names
# another flipsim (default BUILD/flipsim); its folder must hold
# libcudart.so.13, flipsim's CUDA runtime. NVCC as in the Makefile.
# Prints PASS/FAIL per check, or one SKIP line when nvcc or the runtime is
# absent; exits 1 if a check failed, 2 on bad usage, 0 otherwise.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "cuda-check.sh: no such directory: $1" >&2; exit 2; }
cd "$root" || exit 2
flipsim=${FLIPSIM:-$build/flipsim}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
bin=$build/examples

# app|arguments of a small run with --check|an option the app refuses
cases='bfs|--nodes 1000|--nodes 12
ccp|--grid 2x4 --atoms 7|--grid 2
ge|--size 13|--size 1
hs|--size 50 --iterations 5|--pyramid 8
km|--points 300 --features 8 --clusters 4|--points 3 --clusters 5
lps|--size 37x13x9 --repeat 3|--size 3x
lud|--size 64|--size 40
ms|--pairs 4096|--pairs 3000
nw|--length 80|--length 17
pathf|--cols 1000 --rows 50 --pyramid 7|--rows 0
spg|--pairs 300 --n 999|--pairs 0
vaddg|--n 1000|--n 0'

if ! command -v "$nvcc" >/dev/null 2>&1 && ! ls "$bin"/*_cuda >/dev/null 2>&1; then
	echo "SKIP cuda-check: no nvcc at $nvcc and no CUDA programs in $bin (NVCC=/path/to/nvcc make cuda-apps)"
	exit 0
fi
lib=$(dirname "$(readlink -f "$flipsim" 2>/dev/null || echo "$flipsim")")/libcudart.so.13
if [ ! -x "$flipsim" ] || [ ! -f "$lib" ]; then
	echo "SKIP cuda-check: no flipsim CUDA runtime ($lib) beside $flipsim (make builds it)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-cuda-check.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0

pass() { echo "PASS $1"; passes=$((passes + 1)); }
fail() {
	echo "FAIL $1"
	for f in "$tmp"/sc.out "$tmp"/sc.err "$tmp"/cu.out "$tmp"/cu.err; do
		[ -s "$f" ] && sed "s|^|    $(basename "$f"): |" "$f" | head -n 8
	done
	failures=$((failures + 1))
}

# same NAME WANT ARGS...: APP (simcore) run directly and APP_cuda run by
# flipsim exec, both with ARGS: the same stdout byte for byte, and both
# ending as WANT says (ok: 0 and 0; usage: 2 and 2). WANT stats: both run
# by flipsim exec --stats, whose last line of stdout, the run's statistics
# (every launch's cycles, instructions, occupancy, memory counters), must
# be the same too but for the program's name and the wall time.
same() {
	local name=$1 want=$2 s c w=0 strip='$s/"program":"[^"]*"//; $s/"wall_seconds":[0-9.e+-]*//'
	shift 2
	if [ "$want" = stats ]; then
		"$flipsim" exec --stats "$bin/$app" "$@" 2>"$tmp/sc.err" | sed "$strip" >"$tmp/sc.out"
		s=${PIPESTATUS[0]}
		"$flipsim" exec --stats "$bin/${app}_cuda" "$@" 2>"$tmp/cu.err" | sed "$strip" >"$tmp/cu.out"
		c=${PIPESTATUS[0]}
	else
		"$bin/$app" "$@" >"$tmp/sc.out" 2>"$tmp/sc.err"
		s=$?
		"$flipsim" exec "$bin/${app}_cuda" "$@" >"$tmp/cu.out" 2>"$tmp/cu.err"
		c=$?
	fi
	[ "$want" = usage ] && w=2
	if [ "$s" -ne "$w" ] || [ "$c" -ne "$w" ]; then
		fail "$name (exit status $s for $app, $c for ${app}_cuda, expected $w)"
	elif ! cmp -s "$tmp/sc.out" "$tmp/cu.out"; then
		fail "$name (stdout differs)"
	elif [ "$want" = usage ] && ! head -n 1 "$tmp/cu.err" | grep -q "^usage: ${app}_cuda "; then
		fail "$name (no usage line from ${app}_cuda)"
	else
		pass "$name$(grep -v '^{' "$tmp/cu.out" | tail -n 1 | sed 's/^./: &/')"
	fi
}

while IFS='|' read -r app small bad; do
	if [ ! -x "$bin/${app}_cuda" ] || [ ! -x "$bin/$app" ]; then
		fail "$app: $bin/$app or $bin/${app}_cuda is missing (make $bin/$app cuda-apps)"
		continue
	fi
	if command -v "$nvcc" >/dev/null 2>&1; then
		if "$nvcc" -ptx -arch=sm_75 -I examples/common "examples/$app/${app}_cuda.cu" -o "$tmp/$app.ptx" \
		       2>"$tmp/cu.err" && cmp -s "$tmp/$app.ptx" "examples/$app/$app.ptx"; then
			pass "$app: ${app}_cuda.cu's PTX is examples/$app/$app.ptx"
		else
			fail "$app: ${app}_cuda.cu's PTX is not examples/$app/$app.ptx"
		fi
	fi
	same "$app: default input, and the run's statistics" stats
	# shellcheck disable=SC2086
	same "$app: $small --check" ok $small --check
	# shellcheck disable=SC2086
	same "$app: $bad is refused" usage $bad
	# A budget of 50 cycles stops the first launch: nothing on stdout, and
	# the CUDA program reports the DUE as the launch's error.
	"$flipsim" exec --cycle-budget 50 "$bin/${app}_cuda" >"$tmp/cu.out" 2>"$tmp/cu.err"
	c=$?
	if [ "$c" -eq 2 ] && [ ! -s "$tmp/cu.out" ] &&
	   grep -q "^$app: launch [A-Za-z_0-9]*: cudaErrorLaunchTimeout: " "$tmp/cu.err"; then
		pass "$app: a timeout DUE is cudaErrorLaunchTimeout after the first launch"
	else
		fail "$app: a timeout DUE (exit status $c)"
	fi
done <<EOF_CASES
$cases
EOF_CASES

echo "cuda-check: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
