#!/usr/bin/env bash
# test.sh BUILD TMPDIR — hs against its CPU reference (examples/README.md,
# "Adding an application"): a 50 x 50 chip in 5 steps (three launches, the
# last one a partial pyramid; 50 is no multiple of the 12-cell blocks), a
# pyramid of 1, the default input (GUFI's shape), a missing PTX file (exit
# status 2) and a kernel that traps (exit status 3, a DUE).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init hs "$1" "$2"

check "hs 50x50, 5 steps, pyramid 2" 0 "$bin" --check --size 50 --iterations 5
check "hs 37x37, 3 steps, pyramid 1" 0 "$bin" --check --size 37 --iterations 3 --pyramid 1
check "hs 512x512, 2 steps (default)" 0 "$bin" --check
check "hs missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/hs/hs.ptx >"$tmp/trap.ptx"
check "hs trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx" --size 50 --iterations 5
app_test_end
