#!/bin/sh
# study.sh — runs GUFI's study (the campaigns of this folder) into one
# database and prints its tables; `make study` calls it. README.md of the
# repository, "The GUFI study", says what the tables mean.
#
# usage: sh study.sh BUILD INJECTIONS [CAMPAIGN...]
#   BUILD       the build folder (flipsim and examples/ programs)
#   INJECTIONS  per campaign: 2000 runs the committed files; another count
#               runs copies gen.sh writes into STUDY_DIR/campaigns-N
#   CAMPAIGN    names (e.g. vaddg-regfile-ptx) to run only those; default all
# Environment: JOBS, worker processes (default: flipsim's, the CPUs);
# STUDY_DIR, where results go (default BUILD/study); DRIVER, simcore
# (default: the programs on simcore's API) or cuda (their CUDA versions,
# BUILD/examples/APP_cuda from make cuda-apps, on flipsim's CUDA runtime
# BUILD/libcudart.so.13; the same kernels, so the same masks give the same
# outcomes).
# Results: STUDY_DIR/study-N.db (run again to resume), the report in
# STUDY_DIR/study-N.txt, flipsim run's own output in STUDY_DIR/run-N.log;
# with DRIVER=cuda, study-N-cuda.db, .txt and run-N-cuda.log.
# Exit status: 0; flipsim run's status when a campaign failed (the tables of
# the others are printed all the same); 2 bad usage.
set -u

usage() {
	echo "usage: sh $0 BUILD INJECTIONS [CAMPAIGN...]" >&2
	exit 2
}
[ $# -ge 2 ] || usage
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "study.sh: no such folder: $1" >&2; exit 2; }
n=$2
shift 2
flipsim=$build/flipsim
[ -x "$flipsim" ] || { echo "study.sh: no flipsim in $build (run make first)" >&2; exit 2; }
case $n in
'' | *[!0-9]* | 0*) echo "study.sh: INJECTIONS: expected a count in 1..10000000, got '$n'" >&2; exit 2 ;;
esac
driver=${DRIVER:-simcore}
case $driver in
simcore) tag=$n ;;
cuda)
	tag=$n-cuda
	[ -f "$(dirname "$(readlink -f "$flipsim")")/libcudart.so.13" ] || {
		echo "study.sh: DRIVER=cuda: no libcudart.so.13 beside $flipsim (flipsim's CUDA runtime; run make)" >&2
		exit 2
	}
	for app in bfs ccp ge hs km lps lud ms nw pathf spg vaddg; do
		[ -x "$build/examples/${app}_cuda" ] || {
			echo "study.sh: DRIVER=cuda: no $build/examples/${app}_cuda (make cuda-apps, which needs nvcc)" >&2
			exit 2
		}
	done
	;;
*) echo "study.sh: DRIVER: expected simcore or cuda, got '$driver'" >&2; exit 2 ;;
esac
case ${JOBS:-1} in
'' | *[!0-9]* | 0*) echo "study.sh: JOBS: expected a number of workers, got '${JOBS:-}'" >&2; exit 2 ;;
esac

out=${STUDY_DIR:-$build/study}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
if [ "$n" = 2000 ] && [ "$build" = "$root/build" ] && [ "$driver" = simcore ]; then
	dir=$here
else
	dir=$out/campaigns-$tag
	sh "$here/gen.sh" -n "$n" -b "$build" -d "$driver" "$dir" >/dev/null || exit 2
fi

# The campaign files, all of them or the ones named; a name that is not a
# campaign of the study is an error before anything runs.
files=
count=0
if [ $# -eq 0 ]; then
	for f in "$dir"/*.json; do
		files="$files $f"
		count=$((count + 1))
	done
else
	for name in "$@"; do
		case $name in
		*/* | '') echo "study.sh: '$name' is not a campaign name (e.g. vaddg-regfile-ptx)" >&2; exit 2 ;;
		esac
		[ -f "$dir/$name.json" ] || {
			echo "study.sh: no campaign '$name' in the study (the names: ls $here/*.json)" >&2
			exit 2
		}
		files="$files $dir/$name.json"
		count=$((count + 1))
	done
fi

db=$out/study-$tag.db
log=$out/run-$tag.log
echo "study: $count campaigns of $n injections into $db (flipsim run's report: $log)"
start=$(date +%s)
# Campaign paths hold no blanks: gen.sh names them, under BUILD and this folder.
# shellcheck disable=SC2086
"$flipsim" run $files --db "$db" ${JOBS:+-j "$JOBS"} >"$log"
status=$?
end=$(date +%s)
secs=$((end - start))
echo "study: flipsim run ended with status $status after $secs s"
"$flipsim" report "$db" --study | tee "$out/study-$tag.txt"
[ "$status" -eq 0 ] || exit "$status"
