#!/usr/bin/env bash
# test.sh — lud against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/lud/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
build=$1
tmp=$2
bin=$build/examples/lud
failures=0

# check NAME WANT_STATUS CMD...: PASS when CMD exits WANT_STATUS.
check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/lud.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/lud.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/lud.out"
		failures=$((failures + 1))
	fi
}

if [ ! -x "$bin" ]; then
	echo "FAIL lud: $bin is missing: make BUILD=$build $bin"
	exit 1
fi
check "lud 64 x 64" 0 "$bin" --check --size 64
check "lud 16 x 16 (one block)" 0 "$bin" --check --size 16
check "lud 256 x 256 (default)" 0 "$bin" --check
check "lud bad usage" 2 "$bin" --size 100
check "lud missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/lud/lud.ptx >"$tmp/lud-trap.ptx"
check "lud DUE (trap)" 3 "$bin" --ptx "$tmp/lud-trap.ptx"
[ "$failures" -eq 0 ]
