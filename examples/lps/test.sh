#!/usr/bin/env bash
# test.sh BUILD TMPDIR — lps against its CPU reference (examples/README.md,
# "Adding an application"): 37 x 13 x 9 in 3 sweeps (partial CTAs in x and
# y, u1 and u2 swapped between launches), the thinnest grids (NZ = 2, 1),
# the default input (GUFI's shape), a missing PTX file (exit status 2)
# and a kernel that traps (exit status 3, a DUE).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init lps "$1" "$2"

check "lps 37x13x9, 3 sweeps" 0 "$bin" --check --size 37x13x9 --repeat 3
check "lps 33x5x2" 0 "$bin" --check --size 33x5x2
check "lps 7x6x1, 2 sweeps" 0 "$bin" --check --size 7x6x1 --repeat 2
check "lps 100x100x100 (default)" 0 "$bin" --check
check "lps missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/lps/lps.ptx >"$tmp/trap.ptx"
check "lps trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx" --size 37x13x9
app_test_end
