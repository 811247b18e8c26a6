#!/usr/bin/env bash
# Register spilling on every PTX program of the repository (DESIGN.md,
# "Spilling"): each workload JSON (the conformance cases of tests/ptx, the
# examples' and tests/spill/spill80.json) runs in unalloc mode and then in
# alloc mode with the register limit forced low (FLIPSIM_MAX_REGS=N for each
# N of SPILL_LIMITS, default "24 16"); the outputs must be byte-identical,
# and the run must stay within N registers per thread or be refused with the
# spill refusal (a kernel whose unspillable registers alone exceed N). Each
# host program of examples/ (the GUFI applications, --check, which run ptx
# mode) runs the same way against its own unlimited run. A run that spilled
# nothing at a limit below its kernels' registers is a failure too.
# Usage: tests/spill/run.sh BUILDDIR [workload.json | app ...]
set -u
if [ $# -lt 1 ]; then
	echo "usage: $0 BUILDDIR [workload.json | app ...]" >&2
	exit 2
fi
build=$1
shift
flipsim=$build/flipsim
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/spill
limits=${SPILL_LIMITS:-24 16}
passed=0
failed=0
refused=0
spilled=0
counters="passed failed spilled refused" # what run_targets sums over the targets
. "$root/tests/lib/programs.sh"

# The largest "registers_per_thread" and the spilled registers of a --stats file.
max_regs() { sed -n 's/^ *"registers_per_thread": \([0-9]*\),*$/\1/p' "$1" | sort -n | tail -n 1; }
spills() { sed -n 's/^ *"registers": \([0-9]*\),*$/\1/p' "$1" | awk '{s += $1} END {print s + 0}'; }

run_json() {
	local json=$1 name
	name=$(basename "$json" .json)
	local dir=$out/$name
	rm -rf "$dir"
	mkdir -p "$dir"
	if ! "$flipsim" exec "$json" --regs unalloc --dump "$dir/base" >"$dir/base.out" 2>&1; then
		fail "$name" "the unalloc run fails (see $dir/base.out)"
		return
	fi
	"$flipsim" exec "$json" --regs alloc --stats >"$dir/full.stats" 2>"$dir/full.err"
	local full ok=1 l
	full=$(max_regs "$dir/full.stats")
	for l in $limits; do
		if ! FLIPSIM_MAX_REGS=$l "$flipsim" exec "$json" --regs alloc --stats --dump "$dir/$l" >"$dir/$l.stats" \
			2>"$dir/$l.err"; then
			if grep -q "nothing more can be spilled" "$dir/$l.err"; then
				refused=$((refused + 1))
				continue
			fi
			fail "$name" "limit $l: the run fails (see $dir/$l.err)"
			ok=0
			continue
		fi
		same_dumps "$name" "limit $l" "$dir/base" "$dir/$l" || ok=0
		local r s
		r=$(max_regs "$dir/$l.stats")
		s=$(spills "$dir/$l.stats")
		if [ -n "$r" ] && [ "$r" -gt "$l" ]; then
			fail "$name" "limit $l: $r registers per thread"
			ok=0
		fi
		if [ -n "$full" ] && [ "$full" -gt "$l" ] && [ "$s" = 0 ]; then
			fail "$name" "limit $l: $full registers unspilled, nothing spilled"
			ok=0
		fi
		[ "$s" != 0 ] && spilled=$((spilled + 1))
	done
	passed_if "$name" $ok
}

run_app() {
	local app=$1 dir bin rc ok=1 l
	app_start "$app" unlimited || return
	for l in $limits; do
		(cd "$root" && FLIPSIM_MAX_REGS=$l "$bin" --check >"$dir/$l.out" 2>&1)
		rc=$?
		if [ $rc != 0 ] && grep -q "nothing more can be spilled" "$dir/$l.out"; then
			refused=$((refused + 1))
			continue
		fi
		if [ $rc != 0 ] || ! cmp -s "$dir/base.out" "$dir/$l.out"; then
			fail "$app" "limit $l: status $rc or output differs (see $dir/$l.out)"
			ok=0
		fi
	done
	passed_if "$app" $ok
}

targets=("$@")
run_targets "$root/tests/spill/spill80.json"
echo "$passed passed, $failed failed ($spilled runs spilled, $refused refused: unspillable registers over the limit)"
[ $failed = 0 ]
