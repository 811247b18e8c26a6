#!/usr/bin/env bash
# submit.sh CAMPAIGN.json SHARDS OUTDIR [SBATCH-OPTION...]: a flipsim
# campaign on a Slurm cluster (examples/slurm/README.md). Submits a job
# array of SHARDS tasks (shard.sbatch; one shard each, into
# OUTDIR/part-I.db) and a merge job (merge.sbatch; OUTDIR/merged.db) that
# starts when every task has ended well (--dependency=afterok). Options
# after OUTDIR go to both sbatch calls (--partition, --time, --account ...);
# --cpus-per-task sets each shard's workers. FLIPSIM names the flipsim to
# run (default: the one on PATH, else this checkout's build/flipsim).
# Prints the two job ids. OUTDIR must be on a file system every node sees.
set -euo pipefail

if [ $# -lt 3 ]; then
	echo "usage: $0 CAMPAIGN.json SHARDS OUTDIR [SBATCH-OPTION...]" >&2
	exit 2
fi
campaign=$1 shards=$2 out=$3
shift 3
case $shards in
'' | *[!0-9]* | 0) echo "submit.sh: SHARDS must be a positive number, got '$shards'" >&2; exit 2 ;;
esac
[ -f "$campaign" ] || { echo "submit.sh: no such campaign file: $campaign" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
flipsim=${FLIPSIM:-$(command -v flipsim || echo "$here/../../build/flipsim")}
[ -x "$flipsim" ] || { echo "submit.sh: no flipsim at $flipsim (set FLIPSIM)" >&2; exit 2; }
flipsim=$(cd "$(dirname "$flipsim")" && pwd)/$(basename "$flipsim")
campaign=$(cd "$(dirname "$campaign")" && pwd)/$(basename "$campaign")
mkdir -p "$out"
out=$(cd "$out" && pwd)
array=$(sbatch --parsable --array="0-$((shards - 1))" --output="$out/shard-%a.log" "$@" \
	"$here/shard.sbatch" "$campaign" "$out" "$flipsim")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" --output="$out/merge.log" "$@" \
	"$here/merge.sbatch" "$out" "$flipsim")
merge=${merge%%;*}
echo "array $array ($shards shards), merge $merge; results: $out/merged.db"
