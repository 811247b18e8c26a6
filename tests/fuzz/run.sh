#!/bin/sh
# run.sh BUILD SECONDS HARNESS... — runs each libFuzzer harness of
# tests/fuzz/ for SECONDS, one after another, single-process, from the
# committed examples and the regression inputs, then prints executions and
# coverage for each. Findings land in BUILD/fuzz/artifacts/HARNESS/.
# Design: tests/fuzz/README.md.
set -eu
build=$1 seconds=$2
shift 2
root=$(pwd)

# seeds HARNESS DIR: copy the harness's seed inputs into DIR
seeds() {
	case $1 in
	ptx) find examples tests/ptx tests/campaigns/data tests/engine/data -name '*.ptx' ;;
	workload) grep -l '"ptx" *:' $(find examples tests -name '*.json') ;;
	campaign) grep -l '"workload" *:' $(find examples tests -name '*.json') ;;
	esac | sort -u | while read -r f; do
		cp "$f" "$2/$(echo "$f" | tr / _)"
	done
	if [ -d "tests/fuzz/regress/$1" ]; then
		cp tests/fuzz/regress/"$1"/* "$2"/ 2>/dev/null || true
	fi
}

summary=""
for h in "$@"; do
	corpus=$build/fuzz/corpus/$h seed=$build/fuzz/seed/$h art=$build/fuzz/artifacts/$h
	rm -rf "$seed" "$art.prev"
	[ ! -d "$art" ] || mv "$art" "$art.prev" # findings of the run before, kept once
	mkdir -p "$corpus" "$seed" "$art"
	seeds "$h" "$seed"
	log=$build/fuzz/$h.log
	echo "fuzz_$h: $(ls "$seed" | wc -l) seeds, $seconds s, log in $log"
	dict=""
	case $h in workload | campaign) dict=-dict=tests/fuzz/json.dict ;; esac
	rc=0
	FLIPSIM_ROOT=$root "$build/fuzz/fuzz_$h" -max_total_time="$seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$art/" $dict \
		"$corpus" "$seed" >"$log" 2>&1 || rc=$?
	execs=$(grep -a '^stat::number_of_executed_units:' "$log" | tail -1 | tr -cd 0-9)
	done_line=$(grep -aE '^#[0-9]+[[:space:]].*cov: ' "$log" | tail -1 | tr -cd '[:print:]')
	cov=$(echo "$done_line" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$done_line" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$done_line" | sed -n 's/.*corp: \([^ ]*\).*/\1/p')
	line="fuzz_$h: rc=$rc execs=${execs:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?}"
	[ "$rc" -eq 0 ] || line="$line FINDING: $(ls "$art" | tr '\n' ' ')"
	echo "$line"
	summary="$summary$line
"
	# per-file coverage of the corpus the run ended with
	case $h in
	ptx) want='^simcore/(ptx_lex|ptx_parse|regalloc|cfg|sm|gpu|mem)\.c' ;;
	workload) want='^campaigns/camp_(workload|gpu)\.c' ;;
	campaign) want='^campaigns/camp_(campaign|workload|gpu)\.c' ;;
	esac
	FLIPSIM_ROOT=$root "$build/fuzz/fuzz_$h" -runs=0 -print_coverage=1 $dict "$corpus" 2>&1 |
		awk -v want="$want" -f tests/fuzz/coverage.awk | sort >"$build/fuzz/$h.cov"
	cat "$build/fuzz/$h.cov"
	summary="$summary$(cat "$build/fuzz/$h.cov")
"
done
printf '\nmake fuzz summary (%s s each):\n%s' "$seconds" "$summary"
case $summary in *FINDING*) exit 1 ;; esac
