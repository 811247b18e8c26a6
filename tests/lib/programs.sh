# Shared by tests/pass/run.sh and tests/spill/run.sh: failure counting,
# output comparison and the list of every PTX program of the repository.
# The sourcing script sets root (the repository) and failed=0.

fail() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

# same_dumps NAME WHAT A B: every output A holds is in B, byte for byte.
same_dumps() {
	local f same=0
	for f in "$3"/*.bin; do
		if ! cmp -s "$f" "$4/$(basename "$f")"; then
			fail "$1" "$2: $(basename "$f") differs"
			same=1
		fi
	done
	return $same
}

# all_programs EXTRA...: every workload JSON (the conformance cases, the
# examples' and EXTRA), then every host program of examples/, into targets.
all_programs() {
	local d n
	for d in "$root"/tests/ptx/*/; do
		n=$(basename "$d")
		[ -f "$d/$n.json" ] && targets+=("$d/$n.json")
	done
	targets+=("$root/examples/vadd/vadd.json" "$root/examples/scalarprod/scalarprod.json" "$@")
	for d in "$root"/examples/*/; do
		[ -f "$d/app.mk" ] && [ -f "$d/$(basename "$d").c" ] && targets+=("$(basename "$d")")
	done
}

# app_start APP WHAT: a fresh $out/APP and the program's --check run
# there (base.out); fails and returns 1 when it is missing or fails (WHAT:
# which run it is, for the message). Sets dir and bin.
app_start() {
	dir=$out/$1
	bin=$build/examples/$1
	rm -rf "$dir"
	mkdir -p "$dir"
	if [ ! -x "$bin" ]; then
		fail "$1" "$bin is missing"
		return 1
	fi
	(cd "$root" && "$bin" --check >"$dir/base.out" 2>&1)
	local rc=$?
	if [ $rc != 0 ]; then
		fail "$1" "the $2 run fails (status $rc, see $dir/base.out)"
		return 1
	fi
}
