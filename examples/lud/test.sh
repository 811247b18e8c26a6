#!/usr/bin/env bash
# test.sh — lud against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/lud/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init lud "$1" "$2"
check "lud 64 x 64" 0 "$bin" --check --size 64
check "lud 16 x 16 (one block)" 0 "$bin" --check --size 16
check "lud 256 x 256 (default)" 0 "$bin" --check
check "lud bad usage" 2 "$bin" --size 100
check "lud missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/lud/lud.ptx >"$tmp/lud-trap.ptx"
check "lud DUE (trap)" 3 "$bin" --ptx "$tmp/lud-trap.ptx"
app_test_end
