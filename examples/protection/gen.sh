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
# Issue 15's schemes (gtx480, alloc):
# - Penny (Penny, ASPLOS'20): the register file under each of Penny's
#   detection codes in oracle mode (penny_parity, penny_hamming,
#   penny_secded), single-bit and adjacent-2 and -3 faults; the none, parity
#   and secded campaigns of the codes above are its baselines.
# - REFU (Redundant Execution with idle Functional Units): the functional
#   units' results (target fu), transient single-bit faults and a lane stuck
#   at 1, without REFU and with a replay buffer of 2 entries. The buffer's
#   size changes when a replay happens, not whether: every replayed fault is
#   detected at any B, so B = 2 (the default, the paper's best IPC but one)
#   stands for all four; study.sh measures the IPC of B = 1..4 (no
#   campaign needed). Add refu1 refu3 refu4 to REFU_SCHEMES to measure it.
# - The ISA extension (datapath duplication, raLoad/raStore/raSetP) and
#   Penny's compiled mode: their lists below are empty until flipsim has
#   them; then DUP_SCHEMES (with its baseline orig: faults on the original
#   registers only, as the paper's) and PENNY_SCHEMES' pennyc_ tokens
#   (regfile_schemes below) add them.
#
# APPS (the environment) narrows every application list to those named
# (for a quick check: APPS="vaddg hs" sh gen.sh -n 50 DIR), and PARTS the
# campaigns to some of codes (register file and shared memory), sawp,
# sharp, caches, penny, dup and refu (a study in steps: PARTS="penny dup
# refu" adds issue 15's campaigns to a database holding the others, whose
# none, parity and secded register-file campaigns are Penny's baselines).
#
# usage: sh gen.sh [-n INJECTIONS] [-b BUILD] OUTDIR
#        sh gen.sh -P SCHEME
#   -n      injections per campaign (default 500)
#   -b      the build folder whose examples/ holds the programs (default build)
#   -P      print the "protection" object of a register-file or REFU scheme
#           token (penny_parity, refu2...: study.sh's profiles use it)
set -eu

ALL_APPS="bfs ccp ge hs km lps lud ms nw pathf spg vaddg"
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
# Issue 15. A register-file scheme token is penny_EDC (oracle Penny),
# pennyc_EDC_STORAGE_PRUNING (compiled Penny, e.g. pennyc_parity_global_basic;
# PRUNING none, basic or optimal),
# dup_PROTECT_VARIANT (the ISA extension, e.g. dup_memory_ra) or orig (no
# protection, live sampling: dup's baseline, whose registers are all original).
PENNY_SCHEMES="penny_parity penny_hamming penny_secded"
PENNY_MODELS="single adj2 adj3"
DUP_SCHEMES="orig dup_memory_sw dup_setp_sw dup_all_sw dup_memory_ra dup_setp_ra dup_all_ra"
REFU_SCHEMES="none refu2"
REFU_MODELS="single stuck1"

model_json() {
	case $1 in
	single) printf '{"kind": "single"}' ;;
	adj2) printf '{"kind": "adjacent", "bits": 2}' ;;
	adj3) printf '{"kind": "adjacent", "bits": 3}' ;;
	multi2) printf '{"kind": "multi", "faults": 2}' ;;
	stuck1) printf '{"kind": "stuck_at", "value": 1}' ;;
	esac
}

# protection_json TARGET SCHEME: the campaign's "protection" object (SCHEME a
# code, an instruction-buffer scheme, sharp or a token named above)
protection_json() {
	if [ "$1" = ibuffer ]; then
		printf '{"ibuffer": {"scheme": "%s"}}' "$2"
	elif [ "$2" = sharp ]; then
		printf '{"sharp": {"request_queue": 16, "warp_table": 32}}'
	elif [ "${2%%_*}" = penny ]; then
		printf '{"penny": {"edc": "%s"}}' "${2#penny_}"
	elif [ "${2%%_*}" = pennyc ]; then
		set -- $(echo "$2" | tr _ ' ')
		printf '{"penny": {"edc": "%s", "mode": "compiled", "storage": "%s", "pruning": "%s"}}' "$2" "$3" "$4"
	elif [ "${2%%_*}" = dup ]; then
		set -- $(echo "$2" | tr _ ' ')
		printf '{"dup": {"protect": "%s", "variant": "%s"}}' "$2" "$3"
	elif [ "${2#refu}" != "$2" ]; then
		printf '{"refu": {"replay_buffer": %s}}' "${2#refu}"
	else
		printf '{"%s": {"code": "%s"}}' "$1" "$2"
	fi
}

usage() {
	echo "usage: sh $0 [-n INJECTIONS] [-b BUILD] OUTDIR | sh $0 -P SCHEME" >&2
	exit 2
}

n=500
build=
scheme=
while getopts n:b:P: opt; do
	case $opt in
	n) n=$OPTARG ;;
	b) build=$OPTARG ;;
	P) scheme=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
if [ -n "$scheme" ]; then
	[ $# -eq 0 ] || usage
	case $scheme in
	penny_* | pennyc_* | dup_* | refu[1-4]) protection_json regfile "$scheme"; echo; exit 0 ;;
	*) echo "$0: -P: expected penny_EDC, pennyc_EDC_STORAGE_PRUNING, dup_PROTECT_VARIANT or refuB, got '$scheme'" >&2; exit 2 ;;
	esac
fi
[ $# -eq 1 ] || usage
case $n in
'' | *[!0-9]* | 0*) echo "$0: -n: expected an injection count in 1..10000000, got '$n'" >&2; exit 2 ;;
esac
APPS=${APPS:-$ALL_APPS}
for app in $APPS; do
	case " $ALL_APPS " in
	*" $app "*) ;;
	*) echo "$0: APPS: expected some of '$ALL_APPS', got '$app'" >&2; exit 2 ;;
	esac
done
# only LIST: the applications of LIST that APPS names
only() {
	r=
	for app in $1; do
		case " $APPS " in *" $app "*) r="$r $app" ;; esac
	done
	echo "${r# }"
}
ALL_PARTS="codes sawp sharp caches penny dup refu"
PARTS=${PARTS:-$ALL_PARTS}
for p in $PARTS; do
	case " $ALL_PARTS " in
	*" $p "*) ;;
	*) echo "$0: PARTS: expected some of '$ALL_PARTS', got '$p'" >&2; exit 2 ;;
	esac
done
SMEM_APPS=$(only "$SMEM_APPS")
CACHE_APPS=$(only "$CACHE_APPS")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${build:-$root/build}" 2>/dev/null && pwd) || { echo "$0: -b: no such folder" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
case $build$root in
*'"'* | *'\'*) echo "$0: cannot name $build or $root in JSON (a quote or backslash)" >&2; exit 2 ;;
esac

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
		# duplication's faults land on the original registers' live words
		# (the paper's fault space); its baseline orig draws among the live
		# words too, having no replicas to leave out
		case $code in
		orig) printf '  "sampling": "live",\n' ;;
		dup_*) printf '  "sampling": "live",\n  "regs_subset": "original",\n' ;;
		esac
		case $target in
		ibuffer) printf '  "fields": ["instr"],\n' ;;
		l1d | l2) printf '  "fields": ["data"],\n' ;;
		esac
		printf '  "scope": "application",\n'
		printf '  "fault_model": %s,\n' "$(model_json "$model")"
		[ "$code" = none ] || [ "$code" = orig ] || printf '  "protection": %s,\n' "$(protection_json "$target" "$code")"
		printf '  "injections": %s\n' "$n"
		printf '}\n'
	} >"$out/$name.json"
}

# campaigns TARGET "SCHEMES" "MODELS" "APPS" [VARIANT]: a campaign of each
# scheme, model and application
count=0
campaigns() {
	for scheme in $2; do
		for model in $3; do
			for app in $4; do
				campaign "$app" "$1" "$scheme" "$model" ${5:+"$5"}
				count=$((count + 1))
			done
		done
	done
}

# part NAME: whether PARTS names it
part() {
	case " $PARTS " in *" $1 "*) return 0 ;; esac
	return 1
}

part codes && campaigns regfile "$CODES" "$MODELS" "$APPS"
part codes && campaigns smem "$CODES" "$MODELS" "$SMEM_APPS"
part sawp && campaigns ibuffer "$IB_SCHEMES" single "$APPS"
for variant in $IB_VARIANTS; do
	gpu_variant "$variant"
	part sawp && campaigns ibuffer "$IB_VARIANT_SCHEMES" single "$APPS" "$variant"
done
part sharp && campaigns regfile sharp single "$APPS"
for target in $CACHE_TARGETS; do
	part caches && campaigns "$target" "$CACHE_CODES" "$CACHE_MODELS" "$CACHE_APPS"
done
part penny && campaigns regfile "$PENNY_SCHEMES" "$PENNY_MODELS" "$APPS"
part dup && campaigns regfile "$DUP_SCHEMES" single "$APPS"
part refu && campaigns fu "$REFU_SCHEMES" "$REFU_MODELS" "$APPS"
echo "gen.sh: $count campaigns of $n injections in $out"
