#!/usr/bin/env bash
# test.sh — km against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/km/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
build=$1
tmp=$2
bin=$build/examples/km
failures=0

# check NAME WANT_STATUS CMD...: PASS when CMD exits WANT_STATUS.
check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/km.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/km.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/km.out"
		failures=$((failures + 1))
	fi
}

if [ ! -x "$bin" ]; then
	echo "FAIL km: $bin is missing: make BUILD=$build $bin"
	exit 1
fi
check "km 300 points x 8 features, 4 clusters" 0 "$bin" --check --points 300 --features 8 --clusters 4
check "km 777 points x 3 features, 9 clusters, seed 2" 0 "$bin" --check --points 777 --features 3 --clusters 9 --seed 2
check "km 1000 points x 34 features (default)" 0 "$bin" --check
check "km bad usage" 2 "$bin" --points 3 --clusters 5
check "km missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/km/km.ptx >"$tmp/km-trap.ptx"
check "km DUE (trap)" 3 "$bin" --ptx "$tmp/km-trap.ptx"
[ "$failures" -eq 0 ]
