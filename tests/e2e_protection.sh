#!/usr/bin/env bash
# e2e_protection.sh — outcomes of protected campaigns once the simulator's
# codes act (simcore/prot.c: reads decode the corrupted words): single-bit
# faults in a SECDED register file are all masked, parity turns them into
# DUE parity_error, double adjacent faults are DUE ecc_uncorrectable unless
# interleaving spreads them over two codewords; the same on the caches'
# data arrays (simcore/cachefault.c); datapath duplication's detections
# (examples/campaigns/vadd-regfile-dup.json). Needs sqlite3 (skipped without it).
# Usage: tests/e2e_protection.sh BUILD. Prints PASS or FAIL per check; exits
# 1 if any check fails, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "e2e_protection.sh: no such directory: $1" >&2; exit 2; }
flipsim=$build/flipsim
# the checks are SQL over the results: without sqlite3 (.ci/run installs
# it) they are skipped, as e2e.sh skips its own SQL checks
command -v sqlite3 >/dev/null || { echo "SKIP e2e_protection.sh (no sqlite3 here)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-prot.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
failures=0

# run NAME MODEL PROTECTION: a 300-fault alloc-mode regfile campaign of
# vadd4k under that fault model and protection, into $tmp/NAME.db.
run() {
	printf '{"name": "%s", "workload": "%s/tests/engine/data/vadd4k.json", "target": "regfile", "regs": "alloc",\n "injections": 300, "seed": 11, "fault_model": %s, "protection": %s}\n' \
		"$1" "$root" "$2" "$3" >"$tmp/$1.json"
	"$flipsim" run "$tmp/$1.json" --db "$tmp/$1.db" -j 2 --quiet >/dev/null 2>"$tmp/$1.err" ||
		{ echo "FAIL $1: flipsim run: $(head -n 1 "$tmp/$1.err")"; failures=$((failures + 1)); }
}

# expect NAME DB SQL WANT: the query's one-line answer is WANT.
expect() {
	local got
	got=$(sqlite3 "$tmp/$2.db" "$3" 2>&1)
	if [ "$got" = "$4" ]; then echo "PASS $1"; else echo "FAIL $1: got '$got', expected '$4'"; failures=$((failures + 1)); fi
}

single='{"kind": "single"}'
pair='{"kind": "adjacent", "bits": 2}'

run secded "$single" '{"regfile": "secded"}'
expect "secded: single-bit faults fail nothing" secded "SELECT count(*) FROM experiments WHERE outcome != 'masked'" 0
expect "secded: masked as corrected, no_effect, early, dead or unused" secded \
	"SELECT count(*) FROM experiments WHERE reason NOT IN ('corrected', 'no_effect', 'early', 'dead', 'unused')" 0
expect "secded: some faults were read and corrected" secded \
	"SELECT count(*) > 0 FROM experiments WHERE reason = 'corrected' AND prot = 'corrected' AND prot_cycle > 0" 1
expect "secded: corrected is the protection table's count" secded \
	"SELECT corrected = (SELECT count(*) FROM experiments WHERE prot = 'corrected') FROM protection_summary" 1
expect "secded: no miscorrection, detection or undetected error of one bit" secded \
	"SELECT miscorrected + detected + undetected FROM protection_summary" 0

run parity "$single" '{"regfile": "parity"}'
expect "parity: single-bit faults are no SDC" parity "SELECT count(*) FROM experiments WHERE outcome = 'sdc'" 0
expect "parity: DUE parity_error appears" parity \
	"SELECT count(*) > 0 FROM experiments WHERE outcome = 'due' AND reason = 'parity_error' AND prot = 'detected'" 1
expect "parity: every DUE is detected" parity "SELECT due_avf = detected_avf FROM avf WHERE kernel = 'all'" 1

run secded-pair "$pair" '{"regfile": "secded"}'
expect "secded: adjacent pairs are DUE ecc_uncorrectable" secded-pair \
	"SELECT count(*) > 0 FROM experiments WHERE reason = 'ecc_uncorrectable' AND prot = 'detected'" 1
expect "secded: adjacent pairs are no SDC" secded-pair "SELECT count(*) FROM experiments WHERE outcome = 'sdc'" 0

run secded-pair-il2 "$pair" '{"regfile": "secded", "interleave": 2}'
expect "secded interleave 2: adjacent pairs are corrected" secded-pair-il2 \
	"SELECT count(*) FROM experiments WHERE outcome != 'masked'" 0

# run_cache NAME TARGET MODEL PROTECTION: the same on a cache's data
# array (stencil on the small-cache GPU, whose lines are read, evicted and
# written back).
run_cache() {
	printf '{"name": "%s", "workload": "%s/tests/engine/data/stencil.json", "gpu": "%s/tests/engine/data/small-cache-gpu.json",\n "target": "%s", "fields": ["data"], "injections": 300, "seed": 11, "fault_model": %s, "protection": %s}\n' \
		"$1" "$root" "$root" "$2" "$3" "$4" >"$tmp/$1.json"
	"$flipsim" run "$tmp/$1.json" --db "$tmp/$1.db" -j 2 --quiet >/dev/null 2>"$tmp/$1.err" ||
		{ echo "FAIL $1: flipsim run: $(head -n 1 "$tmp/$1.err")"; failures=$((failures + 1)); }
}

run_cache l2-secded l2 "$single" '{"l2": "secded"}'
expect "l2 secded: single-bit faults fail nothing" l2-secded "SELECT count(*) FROM experiments WHERE outcome != 'masked'" 0
expect "l2 secded: some faults were read and corrected" l2-secded \
	"SELECT count(*) > 0 FROM experiments WHERE reason = 'corrected' AND prot = 'corrected'" 1

run_cache l1d-parity l1d "$single" '{"l1d": "parity"}'
expect "l1d parity: single-bit faults are no SDC" l1d-parity "SELECT count(*) FROM experiments WHERE outcome = 'sdc'" 0
expect "l1d parity: DUE parity_error appears" l1d-parity \
	"SELECT count(*) > 0 FROM experiments WHERE outcome = 'due' AND reason = 'parity_error' AND prot = 'detected'" 1

run_cache l2-secded-pair l2 "$pair" '{"l2": "secded"}'
expect "l2 secded: adjacent pairs are DUE ecc_uncorrectable" l2-secded-pair \
	"SELECT count(*) > 0 FROM experiments WHERE reason = 'ecc_uncorrectable' AND prot = 'detected'" 1
expect "l2 secded: adjacent pairs are no SDC" l2-secded-pair "SELECT count(*) FROM experiments WHERE outcome = 'sdc'" 0

# Datapath duplication: examples/campaigns/vadd-regfile-dup.json with 300
# faults on vadd4k (its other keys as committed: regs_subset original,
# live sampling, dup all ra), and the same campaign unprotected.
dup_run() {
	python3 - "$root/examples/campaigns/vadd-regfile-dup.json" "$root/tests/engine/data/vadd4k.json" "$2" >"$tmp/$1.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c.update(workload=sys.argv[2], injections=300, seed=11)
if sys.argv[3] == "none":
    del c["protection"], c["regs_subset"]
print(json.dumps(c))
PY
	"$flipsim" run "$tmp/$1.json" --db "$tmp/$1.db" -j 2 --quiet >/dev/null 2>"$tmp/$1.err" ||
		{ echo "FAIL $1: flipsim run: $(head -n 1 "$tmp/$1.err")"; failures=$((failures + 1)); }
}
dup_run dup-ra dup
dup_run dup-none none
expect "dup ra: faults in original registers are detected as dup_mismatch" dup-ra \
	"SELECT count(*) > 100 FROM experiments WHERE outcome = 'due' AND reason = 'dup_mismatch'" 1
none_sdc=$(sqlite3 "$tmp/dup-none.db" "SELECT count(*) FROM experiments WHERE outcome = 'sdc'" 2>/dev/null)
expect "dup ra: fewer SDCs than unprotected (${none_sdc:-?})" dup-ra \
	"SELECT count(*) < ${none_sdc:-0} FROM experiments WHERE outcome = 'sdc'" 1
expect "dup: no dup_mismatch without it" dup-none "SELECT count(*) FROM experiments WHERE reason = 'dup_mismatch'" 0

[ "$failures" -eq 0 ] || exit 1
exit 0
