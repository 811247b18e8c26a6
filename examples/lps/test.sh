#!/usr/bin/env bash
# test.sh BUILD TMPDIR — lps against its CPU reference (examples/README.md,
# "Adding an application"): 37 x 13 x 9 in 3 sweeps (partial CTAs in x and
# y, u1 and u2 swapped between launches), the thinnest grids (NZ = 2, 1),
# the default input (GUFI's shape), a missing PTX file (exit status 2)
# and a kernel that traps (exit status 3, a DUE).
set -u
bin=$1/examples/lps
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
	sed 's/^\tret;/\ttrap;/' examples/lps/lps.ptx >"$tmp/trap.ptx" || return 1
	"$bin" --ptx "$tmp/trap.ptx" --size 37x13x9
	[ $? -eq 3 ]
}

check "lps 37x13x9, 3 sweeps" "$bin" --check --size 37x13x9 --repeat 3
check "lps 33x5x2" "$bin" --check --size 33x5x2
check "lps 7x6x1, 2 sweeps" "$bin" --check --size 7x6x1 --repeat 2
check "lps 100x100x100 (default)" "$bin" --check
check "lps missing PTX exits 2" bad_ptx
check "lps trapping kernel exits 3" due
[ "$failures" -eq 0 ]
