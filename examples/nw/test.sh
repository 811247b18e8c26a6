#!/usr/bin/env bash
# test.sh — nw against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/nw/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init nw "$1" "$2"
check "nw 2 x 16 letters (one tile)" 0 "$bin" --check --length 16
check "nw 2 x 80 letters" 0 "$bin" --check --length 80
check "nw 2 x 512 letters (default)" 0 "$bin" --check
check "nw bad usage" 2 "$bin" --length 100
check "nw missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/nw/nw.ptx >"$tmp/nw-trap.ptx"
check "nw DUE (trap)" 3 "$bin" --ptx "$tmp/nw-trap.ptx"
app_test_end
