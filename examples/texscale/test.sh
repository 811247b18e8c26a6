#!/usr/bin/env bash
# test.sh BUILD TMPDIR — texscale against bilinear interpolation on the CPU
# (examples/README.md, "texscale"); a missing
# PTX file (exit status 2) and a kernel that traps (exit status 3).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init texscale "$1" "$2"

check "texscale --check" 0 "$bin" --check
check "texscale missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/texscale/texscale.ptx >"$tmp/trap.ptx"
check "texscale trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx"
app_test_end
