#!/bin/sh
# gen.sh — writes GUFI's 55 campaigns (paper section VI): for each of the 12
# applications the register file in ptx and in alloc mode, the SIMT stacks'
# active masks and the instruction buffers' valid bits, and shared memory for
# the 7 applications that use it; GUFI mode 2, single-bit faults, gtx480.
# The committed files here are this script's output with no arguments; run it
# again after changing it, and commit what it writes (README.md, "gen.sh").
#
# usage: sh gen.sh [-n INJECTIONS] [-b BUILD] [-d DRIVER] [OUTDIR]
#   -n      injections per campaign (default 2000, GUFI's)
#   -b      the build folder whose examples/ holds the programs (default build)
#   -d      simcore (default): the programs on simcore's API, examples/APP;
#           cuda: their CUDA versions, examples/APP_cuda (make cuda-apps),
#           which run the same kernels on flipsim's CUDA runtime. The
#           campaigns keep their names; cuda needs an OUTDIR (the committed
#           files are simcore's).
#   OUTDIR  where to write (default: this folder). Files written elsewhere name
#           the programs by absolute path; each is the same campaign (same name,
#           same resolved configuration) as the committed file when N is 2000
#           and BUILD is build.
set -eu

# The applications, and those that share data through shared memory (their
# `flipsim profile` smem/CTA column is non-zero; the other five use none).
APPS="bfs ccp ge hs km lps lud ms nw pathf spg vaddg"
SMEM_APPS="hs lps lud ms nw pathf spg"
# Register mode of the campaigns on the other structures: alloc, as GUFI ran
# them in sass mode (its Figures 5-7), so that the GPU's FIT of the alloc
# register file and the others comes from one simulated machine (register
# allocation changes occupancy and timing, hence what these structures hold).
OTHER_REGS=alloc

usage() {
	echo "usage: sh $0 [-n INJECTIONS] [-b BUILD] [-d simcore|cuda] [OUTDIR]" >&2
	exit 2
}

n=2000
build=
driver=simcore
while getopts n:b:d: opt; do
	case $opt in
	n) n=$OPTARG ;;
	b) build=$OPTARG ;;
	d) driver=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
case $n in
'' | *[!0-9]* | 0*) echo "$0: -n: expected an injection count in 1..10000000, got '$n'" >&2; exit 2 ;;
esac
[ "$n" -le 10000000 ] || { echo "$0: -n: expected an injection count in 1..10000000, got '$n'" >&2; exit 2; }
case $driver in
simcore) suffix= ;;
cuda) suffix=_cuda ;;
*) echo "$0: -d: expected simcore or cuda, got '$driver'" >&2; exit 2 ;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [ -n "$build" ]; then
	abs=$(cd "$build" 2>/dev/null && pwd) || { echo "$0: -b: no such folder: $build" >&2; exit 2; }
	build=$abs
fi
out=${1:-$here}
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ "$driver" = cuda ] && [ "$out" = "$here" ]; then
	echo "$0: -d cuda: name an OUTDIR (the campaigns in $here are the simcore programs')" >&2
	exit 2
fi
if [ "$out" = "$here" ] && { [ -z "$build" ] || [ "$build" = "$root/build" ]; }; then
	prog=../../../build/examples
	cwd=../../..
else
	prog=${build:-$root/build}/examples
	cwd=$root
fi
# The paths go into JSON strings as they are.
case $prog$cwd in
*'"'* | *'\'*) echo "$0: cannot name $prog or $cwd in JSON (a quote or backslash)" >&2; exit 2 ;;
esac

# campaign APP NAME REGS TARGET [FIELD]
campaign() {
	app=$1 name=$2 regs=$3 target=$4 field=${5:-}
	{
		printf '{\n'
		printf '  "name": "%s",\n' "$name"
		printf '  "workload": {"exec": ["%s/%s%s"], "cwd": "%s"},\n' "$prog" "$app" "$suffix" "$cwd"
		printf '  "gpu": "gtx480",\n'
		printf '  "regs": "%s",\n' "$regs"
		printf '  "target": "%s",\n' "$target"
		[ -z "$field" ] || printf '  "fields": ["%s"],\n' "$field"
		printf '  "scope": "application",\n'
		printf '  "injections": %s\n' "$n"
		printf '}\n'
	} >"$out/$name.json"
}

count=0
for app in $APPS; do
	campaign "$app" "$app-regfile-ptx" ptx regfile
	campaign "$app" "$app-regfile-alloc" alloc regfile
	campaign "$app" "$app-simt-mask" "$OTHER_REGS" simt mask
	campaign "$app" "$app-ibuffer-valid" "$OTHER_REGS" ibuffer valid
	count=$((count + 4))
done
for app in $SMEM_APPS; do
	campaign "$app" "$app-smem" "$OTHER_REGS" smem
	count=$((count + 1))
done
echo "gen.sh: $count campaigns of $n injections in $out"
