#!/usr/bin/env bash
# Passes over the lowered code on every PTX program of the repository
# (DESIGN.md, "Passes over the lowered code"): each workload JSON (the
# conformance cases of tests/ptx and the examples) and each host program
# of examples/ (the GUFI applications, --check) runs as loaded (alloc
# mode: the host programs' ptx mode allocates too) and
# after each diagnostic pass (FLIPSIM_PASS=nop-leaders, nop-all, dup, and the
# protections' transforms: penny, penny-optimal, protect-dup-*); the
# outputs must be byte-identical and the nop passes must issue more
# warp-instructions (exactly twice as many for nop-all where control flow
# does not depend on timing: tests/simcore/test_pass.c checks that; a
# spinning atomic loop, as in tests/ptx/atomics, may iterate differently,
# and cycles may even drop as memory accesses shift, as in local_mem).
# A workload's (a program's) PTX is also written back (flipsim profile --emit-ptx) as
# loaded and after each pass, and that PTX, loaded without a pass, must
# give the same outputs again (a program runs it through --ptx) (and, emitted untransformed, the same
# warp-instructions).
# Usage: tests/pass/run.sh BUILDDIR [workload.json | app ...]
set -u
if [ $# -lt 1 ]; then
	echo "usage: $0 BUILDDIR [workload.json | app ...]" >&2
	exit 2
fi
build=$1
shift
flipsim=$build/flipsim
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/pass
# protect-dup-P-V: datapath duplication (protection dup, DESIGN.md
# "Datapath duplication and resilient instructions"), the six variants
# (the ra ones emitted in flipsim's ".ra" spelling of the resilient words)
dups="protect-dup-memory-sw protect-dup-setp-sw protect-dup-all-sw protect-dup-memory-ra protect-dup-setp-ra protect-dup-all-ra"
passes=${PASSES:-"nop-leaders nop-all dup penny penny-optimal penny-shared penny-auto $dups"}
passed=0
failed=0
. "$root/tests/lib/programs.sh"
# refused ERRFILE: datapath duplication refused a program with calls, a
# pass or Penny's compiler refused recursive or indirect calls, or a launch
# refused because Penny's shared checkpoints (penny-shared) no longer fit a
# CTA (the emitted PTX too: its pragma states them), as documented
# (DESIGN.md): not a failure (the nop passes' counts are then not compared)
refused() {
	grep -q "does not follow values through calls\|does not transform recursive or indirect calls\|for Penny's checkpoints in shared memory" "$1"
}

# A number from flipsim exec --stats: the first "key": value.
stat() { sed -n "s/^  \"$2\": \([0-9]*\),*$/\1/p" "$1" | head -n 1; }

run_json() {
	local json=$1 name
	name=$(basename "$json" .json)
	local dir=$out/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	if ! "$flipsim" exec "$json" --regs alloc --stats --dump "$dir/base" >"$dir/base.stats" 2>"$dir/base.err"; then
		fail "$name" "the untransformed run fails (see $dir/base.err)"
		return
	fi
	local ok=1 p
	for p in $passes; do
		if ! FLIPSIM_PASS=$p "$flipsim" exec "$json" --regs alloc --stats --dump "$dir/$p" >"$dir/$p.stats" 2>"$dir/$p.err"; then
			refused "$dir/$p.err" && continue
			fail "$name" "pass $p: the run fails (see $dir/$p.err)"
			ok=0
			continue
		fi
		same_dumps "$name" "pass $p" "$dir/base" "$dir/$p" || ok=0
	done
	# the emitted PTX of each variant, run in its own copy of the workload
	for p in base $passes; do
		local pv=$p
		[ $p = base ] && pv=
		if ! FLIPSIM_PASS=$pv "$flipsim" profile --emit-ptx --regs alloc "$json" >"$dir/$p.ptx" 2>"$dir/$p.emit.err"; then
			refused "$dir/$p.emit.err" && continue
			fail "$name" "emit $p: flipsim profile --emit-ptx fails (see $dir/$p.emit.err)"
			ok=0
			continue
		fi
		# (not jq: it rounds integers beyond 2^53)
		python3 -c 'import json, sys; w = json.load(open(sys.argv[1])); w["ptx"] = sys.argv[2]; print(json.dumps(w))' \
			"$json" "$p.ptx" >"$dir/$p.emit.json"
		if ! "$flipsim" exec "$dir/$p.emit.json" --regs alloc --stats --dump "$dir/$p.emitted" >"$dir/$p.emitted.stats" \
			2>"$dir/$p.emitted.err"; then
			refused "$dir/$p.emitted.err" && continue
			fail "$name" "emit $p: the emitted PTX does not run (see $dir/$p.emitted.err)"
			ok=0
			continue
		fi
		same_dumps "$name" "emit $p" "$dir/base" "$dir/$p.emitted" || ok=0
	done
	if [ $ok = 1 ] && [ "$(stat "$dir/base.stats" warp_instructions)" != "$(stat "$dir/base.emitted.stats" warp_instructions)" ]; then
		fail "$name" "the emitted PTX issues $(stat "$dir/base.emitted.stats" warp_instructions) warp-instructions, the original $(stat "$dir/base.stats" warp_instructions)"
		ok=0
	fi
	if [ $ok = 1 ] && [ -s "$dir/nop-leaders.stats" ] && [ -s "$dir/nop-all.stats" ]; then
		local w0 w1 w2
		w0=$(stat "$dir/base.stats" warp_instructions)
		w1=$(stat "$dir/nop-leaders.stats" warp_instructions)
		w2=$(stat "$dir/nop-all.stats" warp_instructions)
		if [ "$w1" -le "$w0" ] || [ "$w2" -le "$w1" ]; then
			fail "$name" "warp-instructions: base $w0, nop-leaders $w1, nop-all $w2"
			ok=0
		fi
	fi
	passed_if "$name" $ok
}

run_app() {
	local app=$1 dir bin rc ok=1 p
	app_start "$app" untransformed || return
	for p in $passes; do
		(cd "$root" && FLIPSIM_PASS=$p "$bin" --check >"$dir/$p.out" 2>&1)
		rc=$?
		[ $rc != 0 ] && refused "$dir/$p.out" && continue
		if [ $rc != 0 ] || ! cmp -s "$dir/base.out" "$dir/$p.out"; then
			fail "$app" "pass $p: status $rc or output differs (see $dir/$p.out)"
			ok=0
		fi
	done
	# the program on its PTX written back, as loaded and after each pass
	for p in base $passes; do
		local pv=$p
		[ $p = base ] && pv=
		if ! FLIPSIM_PASS=$pv "$flipsim" profile --emit-ptx --regs alloc "$root/examples/$app/$app.ptx" \
			>"$dir/$p.ptx" 2>"$dir/$p.emit.err"; then
			refused "$dir/$p.emit.err" && continue
			fail "$app" "emit $p: flipsim profile --emit-ptx fails (see $dir/$p.emit.err)"
			ok=0
			continue
		fi
		(cd "$root" && "$bin" --check --ptx "$dir/$p.ptx" >"$dir/$p.emitted.out" 2>&1)
		rc=$?
		[ $rc != 0 ] && refused "$dir/$p.emitted.out" && continue
		if [ $rc != 0 ] || ! cmp -s "$dir/base.out" "$dir/$p.emitted.out"; then
			fail "$app" "emit $p: status $rc or output differs (see $dir/$p.emitted.out)"
			ok=0
		fi
	done
	passed_if "$app" $ok
}

targets=("$@")
run_targets
echo "$passed passed, $failed failed"
[ $failed = 0 ]
