# Shared by tests/pass/run.sh and tests/spill/run.sh: failure counting,
# output comparison and the list of every PTX program of the repository.
# The sourcing script sets root (the repository), passed=0 and failed=0,
# and defines run_json and run_app.

fail() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

# same_dumps NAME WHAT A B: every output A holds is in B, byte for byte.
same_dumps() {
	local f same=0
	for f in "$3"/*.bin "$3"/*.txt; do # outputs, and printf.txt when the kernels print
		[ -e "$f" ] || continue
		if ! cmp -s "$f" "$4/$(basename "$f")"; then
			fail "$1" "$2: $(basename "$f") differs"
			same=1
		fi
	done
	return $same
}

# all_programs EXTRA...: every workload JSON (the conformance cases, the
# examples' and EXTRA), then every host program of examples/ (or, when
# PROGRAMS_APPS is set, the ones it names: make asan runs two), into targets.
all_programs() {
	local d n
	for d in "$root"/tests/ptx/*/; do
		n=$(basename "$d")
		[ -f "$d/$n.json" ] && targets+=("$d/$n.json")
	done
	targets+=("$root/examples/vadd/vadd.json" "$root/examples/scalarprod/scalarprod.json" "$@")
	for d in "$root"/examples/*/; do
		n=$(basename "$d")
		[ -n "${PROGRAMS_APPS:-}" ] && [[ " $PROGRAMS_APPS " != *" $n "* ]] && continue
		[ -f "$d/app.mk" ] && [ -f "$d/$n.c" ] && targets+=("$n")
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

# passed_if NAME OK: counts NAME as passed when OK is 1.
passed_if() {
	if [ "$2" = 1 ]; then
		echo "PASS $1"
		passed=$((passed + 1))
	fi
}

# run_targets TARGET... EXTRA: run_json on each workload JSON, run_app on
# each host program; with no TARGET, on all_programs EXTRA. The targets run
# TEST_JOBS at a time (default: the CPUs), each in a subshell logging into
# $out/.log/N; the logs are then printed in the targets' order and the
# counters the sourcing script names in `counters` (default "passed
# failed") summed from each log's last line.
run_targets() {
	local t i=0 n=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)} c line
	[ ${#targets[@]} -eq 0 ] && all_programs "$@"
	local names=${counters:-passed failed}
	rm -rf "$out/.log"
	mkdir -p "$out/.log"
	for t in "${targets[@]}"; do
		while [ "$(jobs -rp | wc -l)" -ge "$n" ]; do
			wait -n
		done
		(
			for c in $names; do eval "$c=0"; done
			case $t in
			*.json) run_json "$t" ;;
			*) run_app "$t" ;;
			esac
			line="#counts"
			for c in $names; do line="$line ${!c}"; done
			echo "$line"
		) >"$out/.log/$i" 2>&1 &
		i=$((i + 1))
	done
	wait
	for ((t = 0; t < i; t++)); do
		grep -v '^#counts' "$out/.log/$t"
		line=$(grep '^#counts' "$out/.log/$t" | tail -n 1)
		if [ -z "$line" ]; then
			echo "FAIL target $t: its run ended without its counts (see $out/.log/$t)"
			failed=$((failed + 1))
			continue
		fi
		set -- $line
		shift
		for c in $names; do
			printf -v "$c" '%d' $((${!c} + $1))
			shift
		done
	done
}
