#!/usr/bin/env bash
# test.sh — ms against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/ms/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
build=$1
tmp=$2
bin=$build/examples/ms
failures=0

# check NAME WANT_STATUS CMD...: PASS when CMD exits WANT_STATUS.
check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/ms.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/ms.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/ms.out"
		failures=$((failures + 1))
	fi
}

if [ ! -x "$bin" ]; then
	echo "FAIL ms: $bin is missing: make BUILD=$build $bin"
	exit 1
fi
check "ms 1024 pairs (no merge pass)" 0 "$bin" --check --pairs 1024
check "ms 4096 pairs" 0 "$bin" --check --pairs 4096
check "ms 16384 pairs (default)" 0 "$bin" --check
check "ms bad usage" 2 "$bin" --pairs 3072
check "ms missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
[ "$failures" -eq 0 ]
