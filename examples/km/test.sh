#!/usr/bin/env bash
# test.sh — km against its CPU reference (examples/README.md, "Adding an
# application"). Usage: bash examples/km/test.sh BUILD TMPDIR, from the
# repository root. Prints PASS/FAIL per check; exits 1 if one failed.
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init km "$1" "$2"
check "km 300 points x 8 features, 4 clusters" 0 "$bin" --check --points 300 --features 8 --clusters 4
check "km 777 points x 3 features, 9 clusters, seed 2" 0 "$bin" --check --points 777 --features 3 --clusters 9 --seed 2
check "km 1000 points x 34 features (default)" 0 "$bin" --check
check "km bad usage" 2 "$bin" --points 3 --clusters 5
check "km missing PTX" 2 "$bin" --ptx "$tmp/none.ptx"
# A trap before the first kernel's first parameter load: the simulated
# program stops with a DUE, which the program reports with exit status 3.
sed '0,/^\tld\.param/s//\ttrap;\n\tld.param/' examples/km/km.ptx >"$tmp/km-trap.ptx"
check "km DUE (trap)" 3 "$bin" --ptx "$tmp/km-trap.ptx"
app_test_end
