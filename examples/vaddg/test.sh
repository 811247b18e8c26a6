#!/usr/bin/env bash
# test.sh BUILD TMPDIR — vaddg against its CPU reference (examples/README.md,
# "Adding an application"): 1000 and 1 elements (a partial CTA), 52224
# (whole CTAs only), the default input (GUFI's shape), a missing PTX
# file (exit status 2) and a kernel that traps (exit status 3).
set -u
bin=$1/examples/vaddg
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
	sed 's/^\tret;/\ttrap;/' examples/vaddg/vaddg.ptx >"$tmp/trap.ptx" || return 1
	"$bin" --ptx "$tmp/trap.ptx" --n 1000
	[ $? -eq 3 ]
}

check "vaddg 1000" "$bin" --check --n 1000
check "vaddg 1" "$bin" --check --n 1
check "vaddg 52224" "$bin" --check --n 52224
check "vaddg 52000 (default)" "$bin" --check
check "vaddg missing PTX exits 2" bad_ptx
check "vaddg trapping kernel exits 3" due
[ "$failures" -eq 0 ]
