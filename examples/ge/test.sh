#!/usr/bin/env bash
# test.sh — ge against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/ge/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
build=$1
tmp=$2
bin=$build/examples/ge
failures=0

# check NAME WANT_STATUS CMD...: PASS when CMD exits WANT_STATUS.
check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/ge.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/ge.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/ge.out"
		failures=$((failures + 1))
	fi
}

if [ ! -x "$bin" ]; then
	echo "FAIL ge: $bin is missing: make BUILD=$build $bin"
	exit 1
fi
check "ge 13 equations" 0 "$bin" --check --size 13
check "ge 30 equations (default)" 0 "$bin" --check
check "ge bad usage" 2 "$bin" --size 1
check "ge missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/ge/ge.ptx >"$tmp/ge-trap.ptx"
check "ge DUE (trap)" 3 "$bin" --ptx "$tmp/ge-trap.ptx"
[ "$failures" -eq 0 ]
