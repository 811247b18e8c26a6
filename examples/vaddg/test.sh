#!/usr/bin/env bash
# test.sh BUILD TMPDIR — vaddg against its CPU reference (examples/README.md,
# "Adding an application"): 1000 and 1 elements (a partial CTA), 52224
# (whole CTAs only), the default input (GUFI's shape), a missing PTX
# file (exit status 2) and a kernel that traps (exit status 3).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init vaddg "$1" "$2"

check "vaddg 1000" 0 "$bin" --check --n 1000
check "vaddg 1" 0 "$bin" --check --n 1
check "vaddg 52224" 0 "$bin" --check --n 52224
check "vaddg 52000 (default)" 0 "$bin" --check
check "vaddg missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/vaddg/vaddg.ptx >"$tmp/trap.ptx"
check "vaddg trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx" --n 1000
app_test_end
