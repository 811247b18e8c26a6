#!/bin/sh
# gen.sh — writes the protection study's campaigns: GUFI's future work
# (its section VI: "an injection campaign for single-bit transient faults
# will result in all faults Masked ... multiple (double, triple, etc.) bit
# faults ... to see how many stay uncorrected") on GUFI's applications. For
# each application, the register file (alloc mode, as GUFI's sass figures)
# and, for the 7 that use it, shared memory, under no code, parity (33,32),
# SECDED (39,32) and DECTED (45,32), with single-bit faults and adjacent
# faults of 2 and 3 bits (one codeword: no interleaving) and two single-bit
# faults at two cycles (multi 2); and SAWP's
# experiment (Tan et al., CF'13, section 5.1): the instruction buffer's
# instruction words, single-bit faults, under no protection, parity, a
# private ECC per entry, SAWP_fs (12 shared ECCs), SAWP (4, threshold 4) and
# SAWP_min; gtx480. SAWP's variants: the instruction buffer with one entry
# per warp (the paper's geometry; gtx480 with ib_entries 1) and the GTO
# scheduler (gtx480's is LRR), each under none, SAWP_fs, SAWP and SAWP_min.
# The caches' data arrays: the L1 and the L2 of 3 applications under no
# code, parity and SECDED, single-bit and adjacent-2 faults (field data).
# The two GPUs are written under OUTDIR/gpus (gpu-ib1.json, gpu-gto.json).
# And SHARP's (Tan et al., CF'13, section 5.2): the register file,
# single-bit faults, under SHARP (the none and secded campaigns above are
# its baselines); gtx480.
#
# usage: sh gen.sh [-n INJECTIONS] [-b BUILD] OUTDIR
#   -n      injections per campaign (default 500)
#   -b      the build folder whose examples/ holds the programs (default build)
set -eu

APPS="bfs ccp ge hs km lps lud ms nw pathf spg vaddg"
SMEM_APPS="hs lps lud ms nw pathf spg"
CODES="none parity secded dected"
MODELS="single adj2 adj3 multi2"
IB_SCHEMES="none parity ecc sawp_fs sawp sawp_min"
IB_VARIANT_SCHEMES="none sawp_fs sawp sawp_min"
IB_VARIANTS="ib1 gto"
CACHE_APPS="hs lud pathf"
CACHE_TARGETS="l1d l2"
CACHE_CODES="none parity secded"
CACHE_MODELS="single adj2"

usage() {
	echo "usage: sh $0 [-n INJECTIONS] [-b BUILD] OUTDIR" >&2
	exit 2
}

n=500
build=
while getopts n:b: opt; do
	case $opt in
	n) n=$OPTARG ;;
	b) build=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
case $n in
'' | *[!0-9]* | 0*) echo "$0: -n: expected an injection count in 1..10000000, got '$n'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${build:-$root/build}" 2>/dev/null && pwd) || { echo "$0: -b: no such folder" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
case $build$root in
*'"'* | *'\'*) echo "$0: cannot name $build or $root in JSON (a quote or backslash)" >&2; exit 2 ;;
esac

model_json() {
	case $1 in
	single) printf '{"kind": "single"}' ;;
	adj2) printf '{"kind": "adjacent", "bits": 2}' ;;
	adj3) printf '{"kind": "adjacent", "bits": 3}' ;;
	multi2) printf '{"kind": "multi", "faults": 2}' ;;
	esac
}

# protection_json TARGET CODE: the campaign's "protection" object
protection_json() {
	if [ "$1" = ibuffer ]; then
		printf '{"ibuffer": {"scheme": "%s"}}' "$2"
	elif [ "$2" = sharp ]; then
		printf '{"sharp": {"request_queue": 16, "warp_table": 32}}'
	else
		printf '{"%s": {"code": "%s"}}' "$1" "$2"
	fi
}

# gpu_variant VARIANT: gtx480 with one instruction-buffer entry per warp
# (ib1) or the GTO scheduler (gto), as OUTDIR/gpu-VARIANT.json
gpu_variant() {
	mkdir -p "$out/gpus"
	case $1 in
	ib1) edit='s/"ib_entries": 2,/"ib_entries": 1,/' ;;
	gto) edit='s/"scheduler": "lrr",/"scheduler": "gto",/' ;;
	esac
	sed -e "$edit" -e "s/\"name\": \"gtx480\",/\"name\": \"gtx480-$1\",/" "$root/campaigns/gpus/gtx480.json" \
		>"$out/gpus/gpu-$1.json"
	grep -q "\"name\": \"gtx480-$1\"" "$out/gpus/gpu-$1.json" || { echo "$0: cannot derive gpu-$1.json" >&2; exit 1; }
}

# campaign APP TARGET CODE MODEL [VARIANT]
campaign() {
	app=$1 target=$2 code=$3 model=$4 variant=${5:-}
	name=$app-$target-$code-$model${variant:+-$variant}
	{
		printf '{\n'
		printf '  "name": "%s",\n' "$name"
		printf '  "workload": {"exec": ["%s/examples/%s"], "cwd": "%s"},\n' "$build" "$app" "$root"
		printf '  "gpu": "%s",\n' "$([ -n "$variant" ] && echo "gpus/gpu-$variant.json" || echo gtx480)"
		printf '  "regs": "alloc",\n'
		printf '  "target": "%s",\n' "$target"
		case $target in
		ibuffer) printf '  "fields": ["instr"],\n' ;;
		l1d | l2) printf '  "fields": ["data"],\n' ;;
		esac
		printf '  "scope": "application",\n'
		printf '  "fault_model": %s,\n' "$(model_json "$model")"
		[ "$code" = none ] || printf '  "protection": %s,\n' "$(protection_json "$target" "$code")"
		printf '  "injections": %s\n' "$n"
		printf '}\n'
	} >"$out/$name.json"
}

count=0
for code in $CODES; do
	for model in $MODELS; do
		for app in $APPS; do
			campaign "$app" regfile "$code" "$model"
			count=$((count + 1))
		done
		for app in $SMEM_APPS; do
			campaign "$app" smem "$code" "$model"
			count=$((count + 1))
		done
	done
done
for scheme in $IB_SCHEMES; do
	for app in $APPS; do
		campaign "$app" ibuffer "$scheme" single
		count=$((count + 1))
	done
done
for variant in $IB_VARIANTS; do
	gpu_variant "$variant"
	for scheme in $IB_VARIANT_SCHEMES; do
		for app in $APPS; do
			campaign "$app" ibuffer "$scheme" single "$variant"
			count=$((count + 1))
		done
	done
done
for app in $APPS; do
	campaign "$app" regfile sharp single
	count=$((count + 1))
done
for target in $CACHE_TARGETS; do
	for code in $CACHE_CODES; do
		for model in $CACHE_MODELS; do
			for app in $CACHE_APPS; do
				campaign "$app" "$target" "$code" "$model"
				count=$((count + 1))
			done
		done
	done
done
echo "gen.sh: $count campaigns of $n injections in $out"
