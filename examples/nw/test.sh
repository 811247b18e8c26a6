#!/usr/bin/env bash
# test.sh — nw against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/nw/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
build=$1
tmp=$2
bin=$build/examples/nw
failures=0

# check NAME WANT_STATUS CMD...: PASS when CMD exits WANT_STATUS.
check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/nw.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/nw.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/nw.out"
		failures=$((failures + 1))
	fi
}

if [ ! -x "$bin" ]; then
	echo "FAIL nw: $bin is missing: make BUILD=$build $bin"
	exit 1
fi
check "nw 2 x 16 letters (one tile)" 0 "$bin" --check --length 16
check "nw 2 x 80 letters" 0 "$bin" --check --length 80
check "nw 2 x 512 letters (default)" 0 "$bin" --check
check "nw bad usage" 2 "$bin" --length 100
check "nw missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/nw/nw.ptx >"$tmp/nw-trap.ptx"
check "nw DUE (trap)" 3 "$bin" --ptx "$tmp/nw-trap.ptx"
[ "$failures" -eq 0 ]
