#!/usr/bin/env bash
# PTX conformance suite runner: for each case directory under tests/ptx (one
# holding ref.c and a workload JSON), builds and runs the C reference, runs the
# workload on flipsim in every register mode and compares every expected output
# (and printf.txt, the device printf text, when the reference writes one)
# byte for byte: unalloc mode against the reference, alloc and ptx modes against unalloc.
# Usage: tests/ptx/run.sh FLIPSIM BUILDDIR [case...]   (see tests/ptx/README.md)
set -u

if [ $# -lt 2 ]; then
	echo "usage: $0 FLIPSIM BUILDDIR [case...]" >&2
	exit 2
fi
flipsim=$1
builddir=$2
shift 2

here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
limit=${PTX_TIMEOUT:-120}		# seconds per flipsim run
timeout_cmd=()
if command -v timeout >/dev/null 2>&1; then
	timeout_cmd=(timeout "$limit")
fi

# The workload JSON of a case: <case>.json, else the only *.json in the folder.
case_json() {
	local dir=$1 name=$2
	if [ -f "$dir/$name.json" ]; then
		echo "$dir/$name.json"
		return 0
	fi
	local found=("$dir"/*.json)
	if [ ${#found[@]} -eq 1 ] && [ -f "${found[0]}" ]; then
		echo "${found[0]}"
		return 0
	fi
	return 1
}

cases=()
if [ $# -gt 0 ]; then
	cases=("$@")
else
	for dir in "$here"/*/; do
		dir=${dir%/}
		name=${dir##*/}
		if [ -f "$dir/ref.c" ] && case_json "$dir" "$name" >/dev/null; then
			cases+=("$name")
		fi
	done
fi

passed=0
failed=0
fail() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

for name in ${cases[@]+"${cases[@]}"}; do
	name=${name%/}
	name=${name##*/}
	dir=$here/$name
	out=$builddir/ptx/$name
	if [ ! -f "$dir/ref.c" ]; then
		fail "$name" "no such case ($dir/ref.c missing)"
		continue
	fi
	if ! json=$(case_json "$dir" "$name"); then
		fail "$name" "no workload JSON in $dir"
		continue
	fi
	rm -rf "$out"
	mkdir -p "$out/expected" "$out/got"

	if ! "$cc" -std=c11 -O2 -Wall -Wextra -Werror -frounding-math -I "$here" \
		"$dir/ref.c" -lm -o "$out/ref" >"$out/ref-build.log" 2>&1; then
		fail "$name" "ref.c does not compile (see $out/ref-build.log)"
		continue
	fi
	if ! "$out/ref" "$out/expected" >"$out/ref.log" 2>&1; then
		fail "$name" "ref exited with status $? (see $out/ref.log)"
		continue
	fi
	expected=("$out"/expected/*.bin)
	if [ ! -f "${expected[0]}" ]; then
		fail "$name" "ref wrote no .bin files"
		continue
	fi
	# printf.txt: what the kernels print, compared with the dump's
	[ -f "$out/expected/printf.txt" ] && expected+=("$out/expected/printf.txt")

	# Every register mode: unalloc must match the reference, alloc and ptx
	# (alloc's machine) must match unalloc bit for bit (and so the
	# reference too).
	reason=
	for regs in unalloc alloc ptx; do
		got_dir=$out/got
		[ "$regs" = unalloc ] || got_dir=$out/got-$regs
		mkdir -p "$got_dir"
		${timeout_cmd[@]+"${timeout_cmd[@]}"} "$flipsim" exec "$json" --regs "$regs" --dump "$got_dir" \
			>"$out/flipsim-$regs.log" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			if [ $rc -eq 124 ] && [ ${#timeout_cmd[@]} -gt 0 ]; then
				reason="flipsim exec --regs $regs timed out after ${limit}s (see $out/flipsim-$regs.log)"
			else
				reason="flipsim exec --regs $regs exited with status $rc (see $out/flipsim-$regs.log)"
			fi
			break
		fi
		for exp in "${expected[@]}"; do
			bin=${exp##*/}
			ref=$exp
			what="the reference"
			if [ "$regs" != unalloc ]; then
				ref=$out/got/$bin
				what="unalloc mode"
			fi
			got=$got_dir/$bin
			if [ ! -f "$got" ]; then
				reason="$bin missing from flipsim's dump (--regs $regs)"
				break
			fi
			exp_size=$(wc -c <"$ref")
			got_size=$(wc -c <"$got")
			if [ "$exp_size" -ne "$got_size" ]; then
				reason="$bin is $got_size bytes with --regs $regs, expected $exp_size"
				break
			fi
			if ! diff_at=$(cmp "$ref" "$got" 2>&1); then
				# "A B differ: byte N, line M" -> N (1-based)
				byte=${diff_at#*byte }
				byte=${byte%%,*}
				case $byte in
				''|*[!0-9]*) reason="$bin differs (--regs $regs vs $what)" ;;
				*) reason="$bin differs from byte offset $((byte - 1)) (--regs $regs vs $what)" ;;
				esac
				break
			fi
		done
		[ -z "$reason" ] || break
	done
	if [ -n "$reason" ]; then
		fail "$name" "$reason"
		continue
	fi
	echo "PASS $name"
	passed=$((passed + 1))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
