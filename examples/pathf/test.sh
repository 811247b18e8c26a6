#!/usr/bin/env bash
# test.sh BUILD TMPDIR — pathf against its CPU reference (examples/README.md,
# "Adding an application"): 1000 columns and 50 rows at a pyramid of 7
# (seven launches, the last a partial pyramid; 1000 is no multiple of the
# 242-column blocks), a grid narrower than one CTA, the widest pyramid
# (127: two columns per CTA), the default input (GUFI's shape), a missing
# PTX file (exit status 2) and a kernel that traps (exit status 3).
set -u
bin=$1/examples/pathf
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
	sed 's/^\tret;/\ttrap;/' examples/pathf/pathf.ptx >"$tmp/trap.ptx" || return 1
	"$bin" --ptx "$tmp/trap.ptx" --cols 1000 --rows 50 --pyramid 7
	[ $? -eq 3 ]
}

check "pathf 1000x50, pyramid 7" "$bin" --check --cols 1000 --rows 50 --pyramid 7
check "pathf 100x30, pyramid 20" "$bin" --check --cols 100 --rows 30
check "pathf 1000x300, pyramid 127" "$bin" --check --cols 1000 --rows 300 --pyramid 127
check "pathf 10000x100, pyramid 20 (default)" "$bin" --check
check "pathf missing PTX exits 2" bad_ptx
check "pathf trapping kernel exits 3" due
[ "$failures" -eq 0 ]
