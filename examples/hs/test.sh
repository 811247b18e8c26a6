#!/usr/bin/env bash
# test.sh BUILD TMPDIR — hs against its CPU reference (examples/README.md,
# "Adding an application"): a 50 x 50 chip in 5 steps (three launches, the
# last one a partial pyramid; 50 is no multiple of the 12-cell blocks), a
# pyramid of 1, the default input (GUFI's shape), a missing PTX file (exit
# status 2) and a kernel that traps (exit status 3, a DUE).
set -u
bin=$1/examples/hs
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
	sed 's/^\tret;/\ttrap;/' examples/hs/hs.ptx >"$tmp/trap.ptx" || return 1
	"$bin" --ptx "$tmp/trap.ptx" --size 50 --iterations 5
	[ $? -eq 3 ]
}

check "hs 50x50, 5 steps, pyramid 2" "$bin" --check --size 50 --iterations 5
check "hs 37x37, 3 steps, pyramid 1" "$bin" --check --size 37 --iterations 3 --pyramid 1
check "hs 512x512, 2 steps (default)" "$bin" --check
check "hs missing PTX exits 2" bad_ptx
check "hs trapping kernel exits 3" due
[ "$failures" -eq 0 ]
