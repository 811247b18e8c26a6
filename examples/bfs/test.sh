#!/usr/bin/env bash
# test.sh — bfs against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/bfs/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init bfs "$1" "$2"
check "bfs 1000 nodes" 0 "$bin" --check --nodes 1000
check "bfs 4096 nodes (default)" 0 "$bin" --check
check "bfs bad usage" 2 "$bin" --nodes 12
check "bfs missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/bfs/bfs.ptx >"$tmp/bfs-trap.ptx"
check "bfs DUE (trap)" 3 "$bin" --ptx "$tmp/bfs-trap.ptx"
app_test_end
