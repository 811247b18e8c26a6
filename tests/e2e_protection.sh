#!/usr/bin/env bash
# e2e_protection.sh — outcomes of protected campaigns once the simulator's
# codes act (simcore/prot.c: reads decode the corrupted words): single-bit
# faults in a SECDED register file are all masked, parity turns them into
# DUE parity_error, double adjacent faults are DUE ecc_uncorrectable unless
# interleaving spreads them over two codewords; the same on the caches'
# data arrays (simcore/cachefault.c); Penny (simcore/penny.c) rolls back
# on what its parity detects, and its example campaign's report counts the
# rollbacks; the protection study's scripts (examples/protection/: gen.sh,
# runs.sql, penny.sql, summary.sql) write and read what they should;
# datapath duplication's detections (examples/campaigns/vadd-regfile-dup.json).
# Needs sqlite3 (skipped without it).
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

# Penny (oracle): parity as a detection code with rollback; two adjacent
# bits escape parity (as unprotected), not SECDED used to detect
run penny-pair "$pair" '{"penny": {"edc": "parity"}}'
expect "penny parity: adjacent pairs go undetected, some SDC" penny-pair \
	"SELECT count(*) > 0 FROM experiments WHERE outcome = 'sdc' AND prot = 'undetected'" 1
run penny-secded-pair "$pair" '{"penny": {"edc": "secded"}}'
expect "penny secded: adjacent pairs fail nothing" penny-secded-pair \
	"SELECT count(*) FROM experiments WHERE outcome != 'masked'" 0

# the example campaign: every single-bit fault masked, those read by a
# rollback counted as recovered in the report's protection table
ex=vadd-regfile-penny
"$flipsim" run "$root/examples/campaigns/$ex.json" --db "$tmp/$ex.db" -j 2 --quiet >/dev/null 2>"$tmp/$ex.err" ||
	{ echo "FAIL $ex: flipsim run: $(head -n 1 "$tmp/$ex.err")"; failures=$((failures + 1)); }
expect "penny example: single-bit faults fail nothing" $ex "SELECT count(*) FROM experiments WHERE outcome != 'masked'" 0
expect "penny example: rollbacks are masked as recovered" $ex \
	"SELECT count(*) > 100 AND count(*) = sum(reason = 'recovered') FROM experiments WHERE prot = 'recovered'" 1
rec=$(sqlite3 "$tmp/$ex.db" "SELECT count(*) FROM experiments WHERE prot = 'recovered'")
# the protection table's row: the one with the campaign's protection object
row=$("$flipsim" report "$tmp/$ex.db" --csv 2>&1 | grep "^1,$ex,regfile,.*\"\"penny\"\":{\"\"edc\"\":\"\"parity\"\"")
if [ "$(echo "$row" | wc -l)" = 1 ] && [ "$(echo "$row" | cut -d, -f10)" = "$rec" ]; then
	echo "PASS penny example: the report's protection table counts its $rec rollbacks"
else
	echo "FAIL penny example: the report's protection row is '$row', expected $rec recovered"
	failures=$((failures + 1))
fi

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

# REFU (examples/campaigns/vadd-fu-refu.json): FU faults on replayed ALU
# instructions are DUE refu_mismatch at their replay; what stays SDC hit an
# instruction REFU does not replay (ld, mov, cvta: prot uncovered), and
# the protection table names REFU.
"$flipsim" run "$root/examples/campaigns/vadd-fu-refu.json" --db "$tmp/refu.db" -j 2 --quiet >/dev/null 2>"$tmp/refu.err" ||
	{ echo "FAIL refu: flipsim run: $(head -n 1 "$tmp/refu.err")"; failures=$((failures + 1)); }
expect "refu: DUE refu_mismatch appears, detected, after the fault" refu \
	"SELECT count(*) > 0 FROM experiments WHERE reason = 'refu_mismatch' AND prot = 'detected' AND prot_cycle > 0" 1
expect "refu: every SDC hit an instruction REFU does not replay" refu \
	"SELECT count(*) FROM experiments WHERE outcome = 'sdc' AND NOT (json_extract(site, '\$.insn') LIKE 'ld.%' OR json_extract(site, '\$.insn') LIKE 'mov.%' OR json_extract(site, '\$.insn') LIKE 'cvta.%')" 0
expect "refu: the faults on ld, mov or cvta are prot uncovered, every SDC among them" refu \
	"SELECT count(*) > 0 AND sum(outcome = 'sdc') = (SELECT count(*) FROM experiments WHERE outcome = 'sdc') FROM experiments WHERE prot = 'uncovered'" 1
expect "refu: the protection table names REFU and counts detected and uncovered" refu \
	"SELECT codes = 'refu 2' AND detected > 0 AND uncovered > 0 AND detected_due = detected FROM protection_summary" 1
expect "refu: refu_mismatch only on replayed instructions" refu \
	"SELECT count(*) FROM experiments WHERE reason = 'refu_mismatch' AND (json_extract(site, '\$.insn') LIKE 'ld.%' OR json_extract(site, '\$.insn') LIKE 'mov.%' OR json_extract(site, '\$.insn') LIKE 'cvta.%')" 0

# The protection study's scripts (examples/protection/): gen.sh writes
# issue 15's campaigns and narrows to APPS; runs.sql's views pool a scheme
# against its baseline; penny.sql and summary.sql run over a small database
# of two campaigns named as gen.sh names them.
study=$root/examples/protection
if sh "$study/gen.sh" -n 7 -b "$build" "$tmp/gen" >"$tmp/gen.out" 2>&1; then
	n_all=$(ls "$tmp/gen" | grep -c '\.json$')
	n_penny=$(ls "$tmp/gen" | grep -c -- '-regfile-penny_\(parity\|hamming\|secded\)-\(single\|adj2\|adj3\)\.json$')
	n_refu=$(ls "$tmp/gen" | grep -c -- '-fu-\(none\|refu2\)-\(single\|stuck1\)\.json$')
	n_dup=$(ls "$tmp/gen" | grep -c -- '-regfile-\(orig\|dup_\(memory\|setp\|all\)_\(sw\|ra\)\)-single\.json$')
	if [ "$n_all" = 760 ] && [ "$n_penny" = 108 ] && [ "$n_refu" = 48 ] && [ "$n_dup" = 84 ] && grep -q "^gen.sh: 760 campaigns" "$tmp/gen.out"; then
		echo "PASS study gen.sh: 760 campaigns, 108 Penny, 48 REFU, 84 duplication"
	else
		echo "FAIL study gen.sh: $n_all campaigns, $n_penny Penny, $n_refu REFU, $n_dup duplication (expected 760, 108, 48, 84)"
		failures=$((failures + 1))
	fi
else
	echo "FAIL study gen.sh runs: $(head -n 1 "$tmp/gen.out")"
	failures=$((failures + 1))
fi
if APPS="vaddg ge" sh "$study/gen.sh" -n 7 -b "$build" "$tmp/gen2" >/dev/null 2>&1 &&
	[ "$(ls "$tmp/gen2" | grep -c '\.json$')" = 102 ] && ! ls "$tmp/gen2" | grep -qv '^\(vaddg\|ge\)-\|^gpus$'; then
	echo "PASS study gen.sh: APPS narrows to its applications"
else
	echo "FAIL study gen.sh: APPS=\"vaddg ge\" should write their 102 campaigns alone"
	failures=$((failures + 1))
fi
APPS="vaddg nope" sh "$study/gen.sh" -n 7 -b "$build" "$tmp/gen3" >/dev/null 2>"$tmp/gen3.err"
st=$?
if [ "$st" = 2 ] && grep -q "APPS: expected some of .*got 'nope'" "$tmp/gen3.err"; then
	echo "PASS study gen.sh: an unknown application in APPS is refused (exit 2)"
else
	echo "FAIL study gen.sh: APPS with nope exits $st: $(head -n 1 "$tmp/gen3.err")"
	failures=$((failures + 1))
fi
if [ "$(sh "$study/gen.sh" -P refu3)" = '{"refu": {"replay_buffer": 3}}' ] &&
	[ "$(sh "$study/gen.sh" -P penny_hamming)" = '{"penny": {"edc": "hamming"}}' ] &&
	! sh "$study/gen.sh" -P secded >/dev/null 2>&1; then
	echo "PASS study gen.sh -P: a scheme token's protection object"
else
	echo "FAIL study gen.sh -P"
	failures=$((failures + 1))
fi
for c in none penny_parity; do
	prot=$(sh "$study/gen.sh" -P "$c" 2>/dev/null || echo '{}')
	printf '{"name": "vadd4k-regfile-%s-single", "workload": "%s/tests/engine/data/vadd4k.json", "target": "regfile", "regs": "alloc",\n "injections": 200, "seed": 5, "fault_model": {"kind": "single"}, "protection": %s}\n' \
		"$c" "$root" "$prot" >"$tmp/study-$c.json"
done
if "$flipsim" run "$tmp/study-none.json" "$tmp/study-penny_parity.json" --db "$tmp/study.db" -j 2 --quiet >/dev/null 2>"$tmp/study.err"; then
	# expect_views NAME SQL WANT: as expect, after runs.sql's views
	expect_views() {
		local got
		got=$({ cat "$study/runs.sql"; echo "$2;"; } | sqlite3 "$tmp/study.db" 2>&1)
		if [ "$got" = "$3" ]; then echo "PASS $1"; else echo "FAIL $1: got '$got', expected '$3'"; failures=$((failures + 1)); fi
	}
	expect_views "study runs.sql: names parsed (app, target, scheme, model, gpu, baseline)" \
		"SELECT group_concat(app || ' ' || target || ' ' || scheme || ' ' || model || ' ' || gpu || ' ' || baseline, ', ') FROM (SELECT * FROM runs ORDER BY scheme)" \
		"vadd4k regfile none single gtx480 none, vadd4k regfile penny_parity single gtx480 none"
	expect_views "study runs.sql: Penny pooled against none, its AVF reduction Katz's or the rule of three" \
		"SELECT p.n = 200 AND p.base_n = 200 AND p.recovered = (SELECT count(*) FROM experiments WHERE campaign_id = 2 AND prot = 'recovered')
		   AND p.base_sdc + p.base_due = (SELECT count(*) FROM experiments WHERE campaign_id = 1 AND outcome != 'masked')
		   AND p.avf_red = CASE WHEN p.sdc + p.due = 0 THEN printf('100.0 [%.1f, 100.0]', 100 * (1 - (3.0 / 200) / ((p.base_sdc + p.base_due) / 200.0))) ELSE p.avf_red END
		   AND p.base_sdc + p.base_due > 0 AND p.recovered > 0 FROM pooled p WHERE scheme = 'penny_parity'" 1
	# penny.sql's rows as sqlite3's list mode prints them: Penny-parity
	# masks every single-bit fault (AVF 0, none unrecoverable, a reduction
	# of 100 %), and its recovery latency counts the recovered runs
	sed 's/^\.mode markdown/.mode list/; s/^\.headers on/.headers off/' "$study/penny.sql" >"$tmp/penny-list.sql"
	cat "$study/runs.sql" "$tmp/penny-list.sql" | sqlite3 "$tmp/study.db" >"$tmp/penny.out" 2>&1
	rec=$(sqlite3 "$tmp/study.db" "SELECT count(*) FROM experiments WHERE campaign_id = 2 AND prot = 'recovered' AND outcome = 'masked'")
	if grep -q '^single|penny_parity|1|0\.00|\[0\.00, [0-9.]*\]|0\.00|0\.00|[0-9.]*|0\.00|0\.00|0\.00|0\.00|0|100\.0 \[' "$tmp/penny.out" &&
		grep -q "^single|penny_parity|$rec|0|" "$tmp/penny.out" && grep -q '^single|none|1|' "$tmp/penny.out"; then
		echo "PASS study penny.sql: Penny-parity's row and its recovery latency"
	else
		echo "FAIL study penny.sql: $(tr '\n' ' ' <"$tmp/penny.out")"
		failures=$((failures + 1))
	fi
	cat "$study/runs.sql" "$study/summary.sql" | sqlite3 "$tmp/study.db" >"$tmp/summary.out" 2>&1
	if grep -q '^| Penny, parity EDC, oracle *| regfile *| penny_parity *|.*| 1 *| 100\.0 \[' "$tmp/summary.out" &&
		grep -q '^| REFU, B = 2 *| fu *| - *|.*| 0 *| not in this database' "$tmp/summary.out"; then
		echo "PASS study summary.sql: a measured scheme's row and one not in the database"
	else
		echo "FAIL study summary.sql: $(head -c 600 "$tmp/summary.out")"
		failures=$((failures + 1))
	fi
else
	echo "FAIL study: flipsim run: $(head -n 1 "$tmp/study.err")"
	failures=$((failures + 1))
fi

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
