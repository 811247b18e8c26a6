#!/usr/bin/env bash
# test.sh BUILD TMPDIR — ccp against its CPU reference (examples/README.md,
# "Adding an application"): a small plane with an odd atom count (the
# kernel's unrolled-by-two atom loop then runs its remainder), the default
# input (GUFI's shape), a missing PTX file (exit status 2) and a kernel
# that traps (exit status 3, a DUE).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init ccp "$1" "$2"

check "ccp 256x32, 7 atoms" 0 "$bin" --check --grid 2x4 --atoms 7
check "ccp 1024x256, 40 atoms (default)" 0 "$bin" --check
check "ccp missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/ccp/ccp.ptx >"$tmp/trap.ptx"
check "ccp trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx" --grid 2x4 --atoms 7
app_test_end
