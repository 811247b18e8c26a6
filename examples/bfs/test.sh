#!/usr/bin/env bash
# test.sh — bfs against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/bfs/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
build=$1
tmp=$2
bin=$build/examples/bfs
failures=0

# check NAME WANT_STATUS CMD...: PASS when CMD exits WANT_STATUS.
check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$tmp/bfs.out" 2>&1
	local got=$?
	if [ "$got" -eq "$want" ]; then
		echo "PASS $name$(tail -n 1 "$tmp/bfs.out" | sed 's/^./: &/')"
	else
		echo "FAIL $name (exit status $got, expected $want)"
		sed 's/^/    /' "$tmp/bfs.out"
		failures=$((failures + 1))
	fi
}

if [ ! -x "$bin" ]; then
	echo "FAIL bfs: $bin is missing: make BUILD=$build $bin"
	exit 1
fi
check "bfs 1000 nodes" 0 "$bin" --check --nodes 1000
check "bfs 4096 nodes (default)" 0 "$bin" --check
check "bfs bad usage" 2 "$bin" --nodes 12
check "bfs missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/bfs/bfs.ptx >"$tmp/bfs-trap.ptx"
check "bfs DUE (trap)" 3 "$bin" --ptx "$tmp/bfs-trap.ptx"
[ "$failures" -eq 0 ]
