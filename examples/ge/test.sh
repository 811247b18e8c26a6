#!/usr/bin/env bash
# test.sh — ge against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/ge/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init ge "$1" "$2"
check "ge 13 equations" 0 "$bin" --check --size 13
check "ge 30 equations (default)" 0 "$bin" --check
check "ge bad usage" 2 "$bin" --size 1
check "ge missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/ge/ge.ptx >"$tmp/ge-trap.ptx"
check "ge DUE (trap)" 3 "$bin" --ptx "$tmp/ge-trap.ptx"
app_test_end
