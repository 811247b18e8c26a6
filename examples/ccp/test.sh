#!/usr/bin/env bash
# test.sh BUILD TMPDIR — ccp against its CPU reference (examples/README.md,
# "Adding an application"): a small plane with an odd atom count (the
# kernel's unrolled-by-two atom loop then runs its remainder), the default
# input (GUFI's shape), a missing PTX file (exit status 2) and a kernel
# that traps (exit status 3, a DUE).
set -u
bin=$1/examples/ccp
tmp=$2
failures=0
mkdir -p "$tmp" || exit 1

check() { # NAME CMD...: PASS with the verdict line, or FAIL with the output
	local name=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then
		echo "PASS $name: $(tail -n 1 "$tmp/out")"
	else
		echo "FAIL $name (exit status $?)"
		sed 's/^/    /' "$tmp/out"
		failures=$((failures + 1))
	fi
}

bad_ptx() { # exit status 2 for an unreadable PTX file
	"$bin" --ptx "$tmp/none.ptx"
	[ $? -eq 2 ]
}

due() { # exit status 3 and the DUE on stderr when the kernel traps
	sed 's/^\tret;/\ttrap;/' examples/ccp/ccp.ptx >"$tmp/trap.ptx" || return 1
	"$bin" --ptx "$tmp/trap.ptx" --grid 2x4 --atoms 7
	[ $? -eq 3 ]
}

check "ccp 256x32, 7 atoms" "$bin" --check --grid 2x4 --atoms 7
check "ccp 1024x256, 40 atoms (default)" "$bin" --check
check "ccp missing PTX exits 2" bad_ptx
check "ccp trapping kernel exits 3" due
[ "$failures" -eq 0 ]
