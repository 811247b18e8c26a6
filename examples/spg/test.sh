#!/usr/bin/env bash
# test.sh BUILD TMPDIR — spg against its CPU reference (examples/README.md,
# "Adding an application"): 300 pairs of 999 floats (uneven grid-stride
# trip counts over pairs and elements), 5 pairs of 3 (fewer CTAs than the
# SDK's 128, most threads idle), the default input (GUFI's shape), a missing
# PTX file (exit status 2) and a kernel that traps (exit status 3).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init spg "$1" "$2"

check "spg 300x999" 0 "$bin" --check --pairs 300 --n 999
check "spg 5x3" 0 "$bin" --check --pairs 5 --n 3
check "spg 256x4096 (default)" 0 "$bin" --check
check "spg missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/spg/spg.ptx >"$tmp/trap.ptx"
check "spg trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx" --pairs 300 --n 999
app_test_end
