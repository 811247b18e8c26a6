#!/usr/bin/env bash
# tests/cudart/nvcc.sh BUILD: a CUDA program built by nvcc runs on flipsim
# unchanged. examples/vadd/vadd_cuda.cu, built with `nvcc -cudart shared
# -arch=sm_75`, prints under `flipsim exec` what its simcore twin
# (build/tests/vadd_host) prints, and a register-file campaign on each gives
# the same outcomes for the same masks. Skipped, with a message, where nvcc
# is absent (the rest of the runtime's tests need none) or where the runtime
# is built with the sanitizers (nvcc's program is not).
set -euo pipefail
build=${1:-build}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$nvcc" ]; then
	echo "tests/cudart/nvcc.sh: SKIPPED: no nvcc (set NVCC or put it on PATH)"
	exit 0
fi
# (the symbol lists are read whole: `nm | grep -q` would end nm early by
# SIGPIPE, and pipefail would then make the test false)
syms=$( { nm -D "$build/libcudart.so.13"; nm -D "$build/flipsim"; nm "$build/flipsim"; } 2>/dev/null || true)
if [[ $syms == *__asan* ]]; then
	echo "tests/cudart/nvcc.sh: SKIPPED: $build/libcudart.so.13 is built with the sanitizers, nvcc's programs are not"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "tests/cudart/nvcc.sh: FAIL: $*"; exit 1; }

prog="$build/examples/vadd_cuda"
mkdir -p "$build/examples"
"$nvcc" -cudart shared -arch=sm_75 -o "$prog" examples/vadd/vadd_cuda.cu
want=$("$build/tests/vadd_host")
got=$("$build/flipsim" exec "$prog") || fail "flipsim exec $prog exited $?"
[ "$got" = "$want" ] || fail "vadd_cuda printed '$got', vadd_host '$want'"

# the same masks: the same seed, target and injection count on both
root=$(pwd)
campaign() { # NAME EXEC-JSON
	printf '{"name": "%s", "workload": {"exec": %s, "cwd": "%s"}, "target": "regfile", "injections": 300, "seed": 11}\n' \
		"$1" "$2" "$root" > "$tmp/$1.json"
	"$build/flipsim" run "$tmp/$1.json" --db "$tmp/$1.db" -j 2 > "$tmp/$1.log" 2>&1 ||
		{ cat "$tmp/$1.log"; fail "the campaign on $2 failed"; }
	# n, masked, sdc, due of the campaign's row of the avf table
	"$build/flipsim" report "$tmp/$1.db" --csv | awk -F, '$2 == "'"$1"'" && $4 == "all" { print $7, $8, $9, $10; exit }'
}
cuda=$(campaign cuda "[\"$root/$prog\"]")
host=$(campaign host "[\"$root/$build/tests/vadd_host\", \"examples/vadd/vadd.ptx\"]")
[ -n "$cuda" ] || fail "no avf row for the CUDA program's campaign"
[ "$cuda" = "$host" ] || fail "outcomes (n masked sdc due) differ: CUDA program $cuda, simcore program $host"
echo "tests/cudart/nvcc.sh: ok (vadd_cuda = vadd_host: output, and outcomes $cuda)"

# device printf, malloc/free and assert through the runtime
"$nvcc" -cudart shared -arch=sm_75 -o "$tmp/pa" tests/cudart/data/printf_assert.cu
got=$("$build/flipsim" exec "$tmp/pa") || fail "printf_assert exited $?"
want='thread 0 of block 0: 0.00
thread 1 of block 0: 1.50
thread 2 of block 0: 3.00
sync: 0 cudaSuccess
h[5] = 10, h[63] = 126'
[ "$got" = "$want" ] || fail "printf_assert printed '$got'"
set +e
got=$(LD_LIBRARY_PATH=$build "$tmp/pa" x 2>"$tmp/pa.err")
rc=$?
set -e
[ "$rc" = 3 ] && printf '%s\n' "$got" | grep -q "sync: 710 cudaErrorAssert" ||
	fail "a failed assert: exit $rc, printed '$got'"
grep -q "printf_assert.cu:19: void work(int \*, int): block: \[1,0,0\], thread: \[31,0,0\] Assertion \`n > 0\` failed." "$tmp/pa.err" ||
	fail "the assert message: $(head -2 "$tmp/pa.err")"
echo "tests/cudart/nvcc.sh: ok (printf, malloc and assert through the runtime)"

# __device__ function pointers and recursion through the runtime, in both
# register modes; too deep for the default stack, the launch fails
"$nvcc" -cudart shared -arch=sm_75 -o "$tmp/calls" tests/cudart/data/calls.cu
want='stack 1024
stack 8192
sync: 0 cudaSuccess
0: 10 0 100 -1426255600
7: 70 21 13 145805262
14: 24 42 103 48601733
21: 210 63 1 16200557
28: 38 84 121 -1426255600'
for regs in unalloc alloc; do
	got=$("$build/flipsim" exec --regs "$regs" "$tmp/calls") || fail "calls --regs $regs exited $?"
	[ "$got" = "$want" ] || fail "calls --regs $regs printed '$got'"
done
set +e
got=$("$build/flipsim" exec "$tmp/calls" x 2>"$tmp/calls.err")
rc=$?
set -e
[ "$rc" = 3 ] && printf '%s\n' "$got" | grep -q "sync: 714 cudaErrorHardwareStackError" &&
	grep -q "stack_overflow" "$tmp/calls.err" || fail "a stack overflow: exit $rc, printed '$got'"
echo "tests/cudart/nvcc.sh: ok (function pointers and recursion through the runtime)"

# texture and surface objects against the program's own host reference
# (tests/cudart/data/textures.cu), then a .trap surface write out of range
"$nvcc" -cudart shared -arch=sm_75 -Wno-deprecated-declarations -o "$tmp/tx" tests/cudart/data/textures.cu
got=$("$build/flipsim" exec "$tmp/tx") || fail "textures exited $?: $(printf '%s\n' "$got" | head -5)"
printf '%s\n' "$got" | grep -q "^textures: [0-9]* checks, 0 mismatches, last error cudaSuccess$" ||
	fail "textures printed '$(printf '%s\n' "$got" | head -5)'"
set +e
got=$(LD_LIBRARY_PATH=$build "$tmp/tx" trap 2>&1)
set -e
printf '%s\n' "$got" | grep -q "^trap: 700 cudaErrorIllegalAddress$" || fail "a .trap surface write: '$got'"
echo "tests/cudart/nvcc.sh: ok (textures and surfaces: $(printf '%s\n' "$got" | sed -n 's/^textures: \([0-9]*\) checks.*/\1/p') checks)"

# the texture cache as a fault target on the same program: forking each
# experiment at its cycle (with early termination) gives what re-simulating
# it from cycle 0 gives, experiment by experiment
cat >"$tmp/tc.json" <<JSON
{"name": "textures-texcache", "workload": {"exec": ["$tmp/tx"], "cwd": "$PWD"},
 "target": "texcache", "injections": 200, "seed": 5, "sampling": "live"}
JSON
"$build/flipsim" run "$tmp/tc.json" --db "$tmp/fork.db" -j 2 >"$tmp/tc.out" 2>&1 ||
	fail "texcache campaign (fork): $(tail -3 "$tmp/tc.out")"
"$build/flipsim" run "$tmp/tc.json" --db "$tmp/sim.db" -j 2 --no-fork --no-early >"$tmp/tc.out" 2>&1 ||
	fail "texcache campaign (--no-fork): $(tail -3 "$tmp/tc.out")"
if command -v sqlite3 >/dev/null; then
	got=$(sqlite3 "$tmp/fork.db" "ATTACH '$tmp/sim.db' AS s; SELECT count(*), sum(f.outcome IS NOT s.outcome OR
		f.reason IS NOT s.reason OR f.cycles IS NOT s.cycles), sum(f.reason <> 'unused') FROM experiments f
		JOIN s.experiments s USING (idx)")
	IFS='|' read -r n diff used <<<"$got"
	[ "$n" = 200 ] && [ "$diff" = 0 ] && [ "$used" -gt 0 ] ||
		fail "texcache: fork against re-simulation: $got (experiments|differing|in use)"
	echo "tests/cudart/nvcc.sh: ok (texcache: fork-at-cycle equals re-simulation, $used of $n in use)"
else
	echo "tests/cudart/nvcc.sh: texcache fork comparison skipped (no sqlite3)"
fi
