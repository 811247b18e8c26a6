#!/usr/bin/env bash
# test.sh BUILD TMPDIR — pathf against its CPU reference (examples/README.md,
# "Adding an application"): 1000 columns and 50 rows at a pyramid of 7
# (seven launches, the last a partial pyramid; 1000 is no multiple of the
# 242-column blocks), a grid narrower than one CTA, the widest pyramid
# (127: two columns per CTA), the default input (GUFI's shape), a missing
# PTX file (exit status 2) and a kernel that traps (exit status 3).
set -u
. "$(dirname "$0")/../common/test-lib.sh"
app_test_init pathf "$1" "$2"

check "pathf 1000x50, pyramid 7" 0 "$bin" --check --cols 1000 --rows 50 --pyramid 7
check "pathf 100x30, pyramid 20" 0 "$bin" --check --cols 100 --rows 30
check "pathf 1000x300, pyramid 127" 0 "$bin" --check --cols 1000 --rows 300 --pyramid 127
check "pathf 10000x100, pyramid 20 (default)" 0 "$bin" --check
check "pathf missing PTX exits 2" 2 "$bin" --ptx "$tmp/none.ptx"
sed 's/^\tret;/\ttrap;/' examples/pathf/pathf.ptx >"$tmp/trap.ptx"
check "pathf trapping kernel exits 3" 3 "$bin" --ptx "$tmp/trap.ptx" --cols 1000 --rows 50 --pyramid 7
app_test_end
