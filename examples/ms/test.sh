#!/usr/bin/env bash
# test.sh — ms against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/ms/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init ms "$1" "$2"
check "ms 1024 pairs (no merge pass)" 0 "$bin" --check --pairs 1024
check "ms 4096 pairs" 0 "$bin" --check --pairs 4096
check "ms 16384 pairs (default)" 0 "$bin" --check
check "ms bad usage" 2 "$bin" --pairs 3072
check "ms missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/ms/ms.ptx >"$tmp/ms-trap.ptx"
check "ms DUE (trap)" 3 "$bin" --ptx "$tmp/ms-trap.ptx"
# The self-check: the merge's last value store writes the key instead, so
# the sorted values are wrong while every address stays valid; the run must
# notice it by itself (no --check) and exit 1. Tied to ms.ptx's text: after
# regenerating the PTX, find the store again (the "a value lost its key"
# line below must still appear).
sed 's/st.global.u32 \t\[%rd28\], %r101;/st.global.u32 \t[%rd28], %r99;/' examples/ms/ms.ptx >"$tmp/ms-bad.ptx"
check "ms self-validation" 1 "$bin" --ptx "$tmp/ms-bad.ptx"
grep -q "a value lost its key" "$tmp/ms.out" || { echo "FAIL ms self-validation: no validation message"; failures=$((failures + 1)); }
app_test_end
