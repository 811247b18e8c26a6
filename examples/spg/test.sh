#!/usr/bin/env bash
# test.sh BUILD TMPDIR — spg against its CPU reference (examples/README.md,
# "Adding an application"): 300 pairs of 999 floats (uneven grid-stride
# trip counts over pairs and elements), 5 pairs of 3 (fewer CTAs than the
# SDK's 128, most threads idle), the default input (GUFI's shape), a missing
# PTX file (exit status 2) and a kernel that traps (exit status 3).
set -u
bin=$1/examples/spg
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
	sed 's/^\tret;/\ttrap;/' examples/spg/spg.ptx >"$tmp/trap.ptx" || return 1
	"$bin" --ptx "$tmp/trap.ptx" --pairs 300 --n 999
	[ $? -eq 3 ]
}

check "spg 300x999" "$bin" --check --pairs 300 --n 999
check "spg 5x3" "$bin" --check --pairs 5 --n 3
check "spg 256x4096 (default)" "$bin" --check
check "spg missing PTX exits 2" bad_ptx
check "spg trapping kernel exits 3" due
[ "$failures" -eq 0 ]
