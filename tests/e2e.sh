#!/usr/bin/env bash
# e2e.sh — end-to-end checks of the flipsim CLI: help and version, usage
# errors, bad inputs (exit 2), DUEs of the simulated program (exit 3), --dump
# and --stats; then the examples' own checks (examples/check.sh).
# Usage: tests/e2e.sh BUILD, where BUILD holds the flipsim binary.
# Prints PASS or FAIL per check; exits 1 if any check fails, 2 on bad usage.
# Fixtures: tests/campaigns/data/ (e2e/ holds the kernels and their .cu).
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "e2e.sh: no such directory: $1" >&2; exit 2; }
flipsim=$build/flipsim
[ -x "$flipsim" ] || { echo "e2e.sh: no flipsim binary in $build" >&2; exit 2; }
cd "$root" || exit 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-e2e.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

data=tests/campaigns/data
e2e=$data/e2e
failures=0
passes=0

pass() { echo "PASS $1"; passes=$((passes + 1)); }
fail() {
	echo "FAIL $1"
	[ -s "$tmp/out" ] && sed 's/^/    stdout: /' "$tmp/out" | head -n 20
	[ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -n 20
	failures=$((failures + 1))
}

# check NAME STATUS OUT ERR CMD...: runs CMD; wants exit status STATUS, the
# text OUT in stdout and ERR in stderr (an empty OUT or ERR is not checked).
# A failing status must come with a stderr whose first line starts
# "flipsim: ".
check() {
	local name=$1 want=$2 outf=$3 errf=$4 why=""
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	[ "$got" -eq "$want" ] || why="exit status $got, expected $want"
	if [ -n "$outf" ] && ! grep -qF -- "$outf" "$tmp/out"; then
		why="${why:+$why; }stdout lacks \"$outf\""
	fi
	if [ -n "$errf" ] && ! grep -qF -- "$errf" "$tmp/err"; then
		why="${why:+$why; }stderr lacks \"$errf\""
	fi
	if [ "$want" -ne 0 ] && ! head -n 1 "$tmp/err" | grep -q '^flipsim: '; then
		why="${why:+$why; }stderr does not start with \"flipsim: \""
	fi
	if [ -z "$why" ]; then pass "$name"; else fail "$name: $why"; fi
}

# size_is NAME FILE BYTES
size_is() {
	local got
	got=$(wc -c <"$2" 2>/dev/null | tr -d ' ')
	if [ "$got" = "$3" ]; then pass "$1"; else : >"$tmp/out"; : >"$tmp/err"; fail "$1: $2 holds '${got:-no file}' bytes, expected $3"; fi
}

# ---- help and version -------------------------------------------------------
check "--help" 0 "usage: flipsim COMMAND" "" "$flipsim" --help
check "--help lists exit statuses" 0 "3  the simulated program ended in a DUE" "" "$flipsim" --help
check "--version" 0 "flipsim " "" "$flipsim" --version
if "$flipsim" --help | grep -q worker; then fail "--help hides the internal worker command"; else pass "--help hides the internal worker command"; fi
check "the worker command still answers" 0 "usage: flipsim worker" "" "$flipsim" worker --help
check "exec --help" 0 "--cycle-budget N" "" "$flipsim" exec --help
check "exec --help lists presets" 0 "gtx480" "" "$flipsim" exec --help

# ---- usage errors -------------------------------------------------------------
check "no command" 2 "" "try 'flipsim --help'" "$flipsim"
check "unknown command" 2 "" "unknown command 'frobnicate'" "$flipsim" frobnicate
check "unknown top-level option" 2 "" "unknown option '--frob'" "$flipsim" --frob
check "exec: unknown option" 2 "" "unknown option '--frob'" "$flipsim" exec "$e2e/ok.json" --frob
check "exec: usage hint" 2 "" "try 'flipsim exec --help'" "$flipsim" exec "$e2e/ok.json" --frob
check "exec: missing workload" 2 "" "missing the workload" "$flipsim" exec
check "exec: extra argument" 2 "" "unexpected argument 'more.json'" "$flipsim" exec "$e2e/ok.json" more.json
check "exec: --gpu without value" 2 "" "option '--gpu' needs a value" "$flipsim" exec "$e2e/ok.json" --gpu
check "exec: bad --cycle-budget" 2 "" "expected a non-negative integer, got '12x'" "$flipsim" exec "$e2e/ok.json" --cycle-budget 12x
check "exec: negative --cycle-budget" 2 "" "got '-5'" "$flipsim" exec "$e2e/ok.json" --cycle-budget=-5
check "exec: overflowing --cycle-budget" 2 "" "expected a non-negative integer" "$flipsim" exec "$e2e/ok.json" --cycle-budget 18446744073709551616
check "exec: --stats takes no value" 2 "" "takes no value" "$flipsim" exec "$e2e/ok.json" --stats=yes
check "exec: bad --regs" 2 "" "option '--regs': expected 'ptx', 'alloc' or 'unalloc', got 'sass'" "$flipsim" exec "$e2e/ok.json" --regs sass
check "exec: --regs without value" 2 "" "option '--regs' needs a value" "$flipsim" exec "$e2e/ok.json" --regs
check "profile: bad --regs" 2 "" "expected 'ptx', 'alloc' or 'unalloc', got 'x'" "$flipsim" profile examples/vadd/vadd.json --regs x
check "profile: a .ptx with --regs unalloc" 2 "" "a PTX file gives the register table, of ptx or alloc mode" "$flipsim" profile examples/vadd/vadd.ptx --regs unalloc
check "profile: a .ptx gives its register table" 0 "registers per thread" "" "$flipsim" profile examples/vadd/vadd.ptx
check "profile: bad PTX in alloc mode" 2 "" "$e2e/bad.ptx:13:" "$flipsim" profile "$e2e/bad.ptx" --regs alloc

# ---- bad input: exit 2 ------------------------------------------------------
check "missing workload file" 2 "" "nonexistent.json: cannot read" "$flipsim" exec "$tmp/nonexistent.json"
check "JSON syntax error names file:line:col" 2 "" "bad_syntax.json:4:11:" "$flipsim" exec "$data/bad_syntax.json"
check "unknown key" 2 "" "at \$: unknown key 'tolerances'" "$flipsim" exec "$data/bad_unknown_top.json"
check "unknown buffer names the JSON path" 2 "" "at \$.launches[0].args[2]: unknown buffer 'q'" "$flipsim" exec "$data/bad_arg_unknown_buffer.json"
check "bad PTX names the .ptx file and line" 2 "" "$e2e/bad.ptx:13:" "$flipsim" exec "$e2e/bad_ptx.json"
check "unknown kernel" 2 "" "no kernel 'nosuch'" "$flipsim" exec "$e2e/unknown_kernel.json"
check "launch too large" 2 "" "at \$.launches[0]: kernel 'trapper'" "$flipsim" exec "$e2e/too_big.json"
check "wrong argument count" 2 "" "takes 2 parameters, the workload passes 1" "$flipsim" exec "$e2e/arg_count.json"
check "wrong scalar size" 2 "" "i64 is 8 bytes, but parameter 1 of kernel 'oob' is 4 bytes" "$flipsim" exec "$e2e/arg_size.json"
check "an integer for an .f32 parameter" 2 "" "at \$.launches[0].args[1]: parameter 1 of kernel 'typed', typed_f, is .f32: it takes a floating-point {\"f32\": ...}, not {\"i32\": 2}" \
	"$flipsim" exec "$e2e/arg_int_for_f32.json"
check "scalars of compatible kinds" 0 "ok" "" "$flipsim" exec "$e2e/arg_types_ok.json"
check "unknown GPU" 2 "" "unknown GPU 'gtx999' (known: " "$flipsim" exec "$e2e/ok.json" --gpu gtx999
check "bad GPU file names the JSON path" 2 "" "at \$.latency.fp32: expected an integer in 1..100000" "$flipsim" exec "$e2e/ok.json" --gpu "$data/gpu_latency_range.json"
check "GPU file syntax error" 2 "" "gpu_syntax.json:3:17:" "$flipsim" exec "$e2e/ok.json" --gpu "$data/gpu_syntax.json"
check "alloc mode: more registers than max_regs_per_thread are spilled" 0 "e2e_ok on gtx480 (alloc registers): ok" "" \
	"$flipsim" exec "$e2e/ok.json" --regs alloc --gpu "$data/gpu_maxregs8.json"
check "ptx mode (alloc's machine): more registers than max_regs_per_thread are spilled" 0 "e2e_ok on gtx480: ok" "" \
	"$flipsim" exec "$e2e/ok.json" --gpu "$data/gpu_maxregs8.json"
check "alloc mode: what spilling cannot fit is refused" 2 "" \
	"needs 4 registers per thread after allocation and spilling 9 registers; gtx480 allows 3 (max_regs_per_thread) and nothing more can be spilled" \
	"$flipsim" exec "$e2e/ok.json" --regs alloc --gpu "$data/gpu_maxregs3.json"
check "unalloc mode applies no max_regs_per_thread" 0 "e2e_ok on gtx480 (unalloc registers): ok" "" "$flipsim" exec "$e2e/ok.json" --regs unalloc --gpu "$data/gpu_maxregs8.json"

# ---- DUEs of the simulated program: exit 3 -----------------------------------
check "out-of-bounds store is illegal_address" 3 "" "illegal_address" "$flipsim" exec "$e2e/oob.json"
check "DUE names the kernel" 3 "" "in kernel 'oob'" "$flipsim" exec "$e2e/oob.json"
check "DUE names a C++ kernel demangled" 3 "" "in kernel 'faraway(unsigned int*)'" "$flipsim" exec "$e2e/mangled_due.json"
check "profile of a DUE in a C++ kernel" 3 "" "in kernel 'faraway(unsigned int*)'" "$flipsim" profile "$e2e/mangled_due.json"
if grep -q '^faraway  *0 ' "$tmp/out" && ! grep -q '_Z' "$tmp/out"; then pass "profile shows a C++ kernel demangled"
else fail "profile shows a C++ kernel demangled"; fi
check "trap" 3 "" "DUE trap" "$flipsim" exec "$e2e/trap.json"
# device printf and assert (assert.cu): the text on stdout, CUDA's message
# on stderr, DUE assert naming the call's PTX line
check "printf reaches stdout" 3 "block 1 starts" "" "$flipsim" exec "$e2e/assert.json"
check "assert is a DUE" 3 "" "DUE assert in kernel 'checked' (cycle" "$flipsim" exec "$e2e/assert.json"
check "assert prints CUDA's message" 3 "" "assert.cu:11: void checked(const int *, int *): block: [1,0,0], thread: [6,0,0] Assertion \`v[i] >= 0\` failed." "$flipsim" exec "$e2e/assert.json"
check "assert names the call's line" 3 "" "(PTX line 106)" "$flipsim" exec "$e2e/assert.json"
check "printf: --dump writes printf.txt" 0 "" "" "$flipsim" exec tests/ptx/printf_fmt/printf_fmt.json --dump "$tmp/pf"
if [ "$(head -n 1 "$tmp/pf/printf.txt" 2>/dev/null)" = "A 0 59771 59771 e97b E97B 573 [a] flipsim|-5765" ] &&
	[ "$(wc -l <"$tmp/pf/printf.txt")" -eq 720 ]; then
	pass "printf.txt starts with thread 0's first line"
else
	fail "printf.txt starts with thread 0's first line"
fi
check "infinite loop with --cycle-budget is timeout" 3 "" "timeout" "$flipsim" exec "$e2e/spin.json" --cycle-budget 100000
check "DUE still honours --stats" 3 "\"status\": \"illegal_address\"" "illegal_address" "$flipsim" exec "$e2e/oob.json" --stats
check "DUE --stats has the due object" 3 "\"due\": {" "" "$flipsim" exec "$e2e/oob.json" --stats
check "DUE with --dump" 3 "" "trap" "$flipsim" exec "$e2e/trap.json" --dump "$tmp/due-dump"
if [ -z "$(ls -A "$tmp/due-dump" 2>/dev/null)" ]; then pass "DUE --dump writes nothing"; else fail "DUE --dump writes nothing: $(ls "$tmp/due-dump")"; fi

# ---- a successful run ---------------------------------------------------------
check "summary" 0 "e2e_ok on gtx480: ok" "" "$flipsim" exec "$e2e/ok.json"
check "--dump" 0 "" "" "$flipsim" exec "$e2e/ok.json" --dump "$tmp/dump/nested"
size_is "--dump out32.bin size (1000 x u32)" "$tmp/dump/nested/out32.bin" 4000
size_is "--dump out64.bin size (1000 x u64)" "$tmp/dump/nested/out64.bin" 8000
if [ ! -e "$tmp/dump/nested/unused.bin" ]; then pass "--dump writes only outputs"; else fail "--dump writes only outputs"; fi
# The last of two launches passed $iter = 1, so out32[i] = i.
last=$(od -An -tu4 -j 3996 -N 4 "$tmp/dump/nested/out32.bin" 2>/dev/null | tr -d ' ')
if [ "$last" = "999" ]; then pass "--dump contents (\$iter)"; else fail "--dump contents: out32[999] = '$last', expected 999"; fi
: >"$tmp/file"
check "--dump into a file's path fails with 1" 1 "" "cannot create directory" "$flipsim" exec "$e2e/ok.json" --dump "$tmp/file/sub"
# --dump overwrite policy (README "exec"): an earlier dump is replaced, through
# a temporary renamed into place; links, non-regular files and other files are
# refused (exit 2) before anything is written.
check "--dump again replaces the earlier dump" 0 "" "" "$flipsim" exec "$e2e/ok.json" --dump "$tmp/dump/nested"
if [ "$(ls -A "$tmp/dump/nested" | tr '\n' ' ')" = "out32.bin out64.bin " ]; then pass "--dump leaves no temporary files"
else : >"$tmp/out"; : >"$tmp/err"; fail "--dump leaves no temporary files: $(ls -A "$tmp/dump/nested")"; fi
mkdir -p "$tmp/planted"
ln -s "$tmp/elsewhere" "$tmp/planted/out64.bin"
check "--dump refuses a planted symlink" 2 "" "planted/out64.bin is a symbolic link" "$flipsim" exec "$e2e/ok.json" --dump "$tmp/planted"
if [ ! -e "$tmp/elsewhere" ] && [ -L "$tmp/planted/out64.bin" ] && [ ! -e "$tmp/planted/out32.bin" ]; then
	pass "--dump writes nothing through or beside a symlink"
else : >"$tmp/out"; : >"$tmp/err"; fail "--dump writes nothing through or beside a symlink: $(ls -lA "$tmp/planted")"; fi
mkdir -p "$tmp/foreign/out32.bin"
check "--dump refuses a directory in the way" 2 "" "out32.bin exists and is not a regular file" "$flipsim" exec "$e2e/ok.json" --dump "$tmp/foreign"
rmdir "$tmp/foreign/out32.bin"
printf 'precious\n' >"$tmp/foreign/out32.bin"
check "--dump refuses another file" 2 "" "out32.bin exists and is not an earlier dump of this buffer (9 bytes, the dump has 4000)" \
	"$flipsim" exec "$e2e/ok.json" --dump "$tmp/foreign"
if [ "$(cat "$tmp/foreign/out32.bin")" = precious ]; then pass "--dump leaves another file untouched"
else : >"$tmp/out"; : >"$tmp/err"; fail "--dump leaves another file untouched"; fi
{ printf 'SQLite format 3\0'; head -c 3984 /dev/zero; } >"$tmp/foreign/out32.bin"
check "--dump refuses an SQLite database of the dump's size" 2 "" "not an earlier dump" "$flipsim" exec "$e2e/ok.json" --dump "$tmp/foreign"
if head -c 15 "$tmp/foreign/out32.bin" | grep -q '^SQLite format 3$'; then pass "--dump leaves the database untouched"
else : >"$tmp/out"; : >"$tmp/err"; fail "--dump leaves the database untouched"; fi
# an output initialised from DIR/<name>.bin: dumping over the input is refused
mkdir -p "$tmp/inplace"
head -c 4000 /dev/zero >"$tmp/inplace/out32.bin"
sed -e "s|\"e2e.ptx\"|\"$root/$e2e/e2e.ptx\"|" \
	-e 's|"out32": {"type": "u32", "count": 1000}|"out32": {"type": "u32", "count": 1000, "init": {"file": "out32.bin"}}|' \
	"$e2e/ok.json" >"$tmp/inplace/w.json"
check "--dump refuses to replace the workload's init file" 2 "" "out32.bin is the init file of buffer 'out32'" \
	"$flipsim" exec "$tmp/inplace/w.json" --dump "$tmp/inplace"

check "--stats" 0 "\"status\": \"ok\"" "" "$flipsim" exec "$e2e/ok.json" --stats
for key in workload gpu regs cycles clock_mhz warp_instructions thread_instructions ipc sim_seconds \
	sim_cpu_seconds status launches kernel grid block registers_per_thread shared_per_cta ctas_per_sm \
	limiter occupancy start_cycle end_cycle memory l1_hits l1_misses l2_sector_hits dram_sector_reads \
	dram_sector_writebacks const_hits const_misses tex_hits tex_misses unit_busy_cycles alu sfu fp64 ldst; do
	if grep -qF "\"$key\":" "$tmp/out"; then pass "--stats has \"$key\""; else fail "--stats has \"$key\""; fi
done
if [ "$(grep -c '"kernel": "fill"' "$tmp/out")" = "2" ]; then pass "--stats lists each repeat"; else fail "--stats lists each repeat"; fi
check "--stats in unalloc mode: 28 registers" 0 "\"registers_per_thread\": 28" "" "$flipsim" exec "$e2e/ok.json" --regs unalloc --stats
check "--stats in ptx mode: 11 registers (allocated)" 0 "\"registers_per_thread\": 11" "" "$flipsim" exec "$e2e/ok.json" --stats
# ptx mode runs alloc mode's machine: the same statistics but the mode's name
"$flipsim" exec "$e2e/ok.json" --stats | grep -v '"regs"\|sim_seconds\|sim_cpu_seconds' >"$tmp/stats-ptx" 2>&1
"$flipsim" exec "$e2e/ok.json" --stats --regs alloc | grep -v '"regs"\|sim_seconds\|sim_cpu_seconds' >"$tmp/stats-alloc" 2>&1
if [ -s "$tmp/stats-ptx" ] && cmp -s "$tmp/stats-ptx" "$tmp/stats-alloc"; then pass "ptx and alloc modes: identical --stats"
else fail "ptx and alloc modes: identical --stats"; fi
check "--regs alloc --stats" 0 "\"regs\": \"alloc\"" "" "$flipsim" exec "$e2e/ok.json" --regs alloc --stats
check "--regs alloc: 11 registers" 0 "\"registers_per_thread\": 11" "" "$flipsim" exec "$e2e/ok.json" --regs alloc --stats
check "--regs alloc summary" 0 "e2e_ok on gtx480 (alloc registers): ok" "" "$flipsim" exec "$e2e/ok.json" --regs=alloc
check "--regs alloc --dump" 0 "" "" "$flipsim" exec "$e2e/ok.json" --regs alloc --dump "$tmp/dump-alloc"
for f in out32 out64; do
	if cmp -s "$tmp/dump/nested/$f.bin" "$tmp/dump-alloc/$f.bin"; then pass "--regs alloc: $f.bin equals ptx mode's"
	else fail "--regs alloc: $f.bin equals ptx mode's"; fi
done

for gpu in gtx480 tesla_c2050 quadro_fx5800 v100 h100; do
	check "--gpu $gpu" 0 "e2e_ok on $gpu: ok" "" "$flipsim" exec "$e2e/ok.json" --gpu "$gpu"
done
check "--gpu FILE" 0 "e2e_ok on h100: ok" "" "$flipsim" exec "$e2e/ok.json" --gpu campaigns/gpus/h100.json
# Presets are inside the binary: they work from any directory.
check "presets from another directory" 0 "on v100: ok" "" \
	sh -c 'cd "$1" && "$2" exec "$3" --gpu v100' sh "$tmp" "$flipsim" "$root/$e2e/ok.json"

# ---- campaigns: run, status, report, sample-size, profile ------------------------
camp=tests/engine/data/vadd4k-regfile.json
check "sample-size 99%/3% is 1844" 0 "1844" "" "$flipsim" sample-size --confidence 0.99 --margin 0.03
check "sample-size 95%/1% is 9604" 0 "9604" "" "$flipsim" sample-size --confidence 95% --margin 1%
check "sample-size finite population" 0 "370" "" "$flipsim" sample-size --confidence 0.95 --margin 0.05 --population 10000
check "sample-size without margin" 2 "" "--confidence and --margin are required" "$flipsim" sample-size --confidence 0.95
check "sample-size bad value" 2 "" "expected a value in (0, 1)" "$flipsim" sample-size --confidence 1.5 --margin 0.01
check "profile" 0 "df_reg" "" "$flipsim" profile examples/vadd/vadd.json
check "profile digests" 0 "fnv1a" "" "$flipsim" profile examples/scalarprod/scalarprod.json
# ptxas is optional: with FLIPSIM_PTXAS empty the table says n/a.
check "profile --regs alloc" 0 "alloc registers" "" "$flipsim" profile examples/vadd/vadd.json --regs alloc
check "profile --regs alloc without ptxas" 0 "vadd                                 32     10    n/a          n/a" "" \
	env FLIPSIM_PTXAS= "$flipsim" profile examples/vadd/vadd.json --regs alloc
check "profile --regs alloc: regs column" 0 " 10 " "" env FLIPSIM_PTXAS= "$flipsim" profile examples/vadd/vadd.json --regs alloc
check "profile K.ptx: every kernel" 0 "spin                                 18      5    n/a" "" \
	env FLIPSIM_PTXAS= "$flipsim" profile "$e2e/e2e.ptx" --regs alloc
if ptxas_path=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null); then
	check "profile --regs alloc with ptxas ($ptxas_path)" 0 "ptxas: $ptxas_path" "" "$flipsim" profile examples/vadd/vadd.json --regs alloc
	if grep -Eq '^vadd +32 +10 +[0-9]+ +[0-9.]+$' "$tmp/out"; then pass "profile: ptxas count"; else fail "profile: ptxas count"; fi
else
	echo "SKIP profile with ptxas (no ptxas here)"
fi
check "run a campaign" 0 "AVF" "" "$flipsim" run "$camp" --db "$tmp/r.db" -j 2 --quiet
check "run again resumes with nothing to do" 0 "vadd4k-regfile" "0 to run, resumed" "$flipsim" run "$camp" --db "$tmp/r.db" -j 2
check "status" 0 "600/600" "" "$flipsim" status "$tmp/r.db"
check "report text" 0 "FIT per structure" "" "$flipsim" report "$tmp/r.db"
check "report csv" 0 "campaign_id,campaign,target" "" "$flipsim" report "$tmp/r.db" --csv
check "report json" 0 '"avf"' "" "$flipsim" report "$tmp/r.db" --json
# Shards and merge (README "Campaigns on many machines"): three shards of the
# campaign above, merged in two steps (one part twice), give its report.
for i in 0 1 2; do
	check "run shard $i/3" 0 "" "shard $i of 3: 200 of them" "$flipsim" run "$camp" --db "$tmp/s$i.db" --shard "$i/3" -j 2
done
check "status of a shard database" 0 "shard 1 of 3 (run on" "" "$flipsim" status "$tmp/s1.db"
check "status of a shard: its share" 0 "200/200" "" "$flipsim" status "$tmp/s1.db"
check "merge two shards" 0 "s0.db: 1 campaign (1 new), 200 experiments (200 new)" "" \
	"$flipsim" merge "$tmp/m.db" "$tmp/s0.db" "$tmp/s1.db"
check "status of a partial merge" 0 "0 (200/200) 1 (200/200); missing: 2" "" "$flipsim" status "$tmp/m.db"
check "merge the last shard, and one again" 0 "s1.db: 1 campaign (0 new), 200 experiments (0 new)" "" \
	"$flipsim" merge "$tmp/m.db" "$tmp/s2.db" "$tmp/s1.db"
check "status: every shard in" 0 "; all in" "" "$flipsim" status "$tmp/m.db"
check "status --json: shards" 0 '"missing": []' "" "$flipsim" status "$tmp/m.db" --json
for fmt in "" --json --csv; do
	# shellcheck disable=SC2086
	"$flipsim" report "$tmp/r.db" $fmt >"$tmp/rep-one" 2>&1
	# shellcheck disable=SC2086
	"$flipsim" report "$tmp/m.db" $fmt >"$tmp/rep-merged" 2>&1
	if [ -s "$tmp/rep-one" ] && cmp -s "$tmp/rep-one" "$tmp/rep-merged"; then pass "report ${fmt:-text} of the merged shards = the single run's"
	else diff "$tmp/rep-one" "$tmp/rep-merged" >"$tmp/out"; : >"$tmp/err"; fail "report ${fmt:-text} of the merged shards = the single run's"; fi
done
sed -e 's/"seed": *[0-9]*/"seed": 99/' -e "s|\"vadd4k.json\"|\"$root/tests/engine/data/vadd4k.json\"|" "$camp" >"$tmp/seed99.json"
check "run a shard of another definition" 0 "" "" "$flipsim" run "$tmp/seed99.json" --db "$tmp/x.db" --shard 0/3 -j 2 --quiet
check "merge refuses another campaign of the same name" 2 "" "is not the campaign 'vadd4k-regfile' already merged" \
	"$flipsim" merge "$tmp/m.db" "$tmp/x.db"
check "run: bad --shard" 2 "" "--shard: expected I/N" "$flipsim" run "$camp" --shard 3/3
check "run: a shard database needs its --shard" 2 "" "add --shard 1/3" "$flipsim" run "$camp" --db "$tmp/s1.db"
check "run: another shard in a shard database" 2 "" "runs shard 1 of 3 in this database" \
	"$flipsim" run "$camp" --db "$tmp/s1.db" --shard 2/3
check "merge: one database" 2 "" "missing the databases to merge" "$flipsim" merge "$tmp/m.db"
check "merge: a missing part" 2 "" "nosuch.db: no such file" "$flipsim" merge "$tmp/m.db" "$tmp/nosuch.db"
# The campaign queue and its daemon (README "A campaign queue and its daemon").
q=$tmp/queue
mkdir -p "$q"
mkq() { # NAME SEED INJECTIONS: a small campaign file in $q
	sed -e "s/\"seed\": *[0-9]*/\"seed\": $2/" -e "s/\"name\": \"vadd4k-regfile\"/\"name\": \"$1\"/" \
		-e "s/\"injections\": *[0-9]*/\"injections\": $3/" -e "s|\"vadd4k.json\"|\"$root/tests/engine/data/vadd4k.json\"|" \
		"$camp" >"$q/$1.json"
}
mkq q1 1 30
mkq q2 2 30
mkq q3 3 30
mkq q4 4 10000 # seconds of work: the status loop below must see it running
check "submit refuses a bad campaign, queueing nothing" 2 "" "1 of 2 campaigns are not valid; nothing was queued" \
	"$flipsim" submit "$q/r.db" "$q/q1.json" tests/campaigns/data/campaign/bad_unknown_key.json
check "submit" 0 "q2: queued as entry 2" "" "$flipsim" submit "$q/r.db" "$q/q1.json" "$q/q2.json"
check "submit a queued campaign again" 0 "q1: already queued as entry 1" "" "$flipsim" submit "$q/r.db" "$q/q1.json"
check "status shows the queue" 0 "queue: 2 queued, 0 running, 0 done, 0 failed" "" "$flipsim" status "$q/r.db"
check "status: no daemon yet" 0 "daemon: none runs" "" "$flipsim" status "$q/r.db"
check "daemon runs the queue and exits" 0 "q2 (entry 2): done" "" "$flipsim" daemon "$q/r.db" -j 2
check "status: the queue is done" 0 "queue: 0 queued, 0 running, 2 done, 0 failed" "" "$flipsim" status "$q/r.db"
check "status: its campaigns finished" 0 " finished " "" "$flipsim" status "$q/r.db"
check "daemon --follow --detach" 0 "flipsim daemon: pid" "" "$flipsim" daemon "$q/r.db" --follow --poll 0.2 --detach -j 2 \
	--on-done "echo \$FLIPSIM_EVENT \$FLIPSIM_CAMPAIGN >>'$q/hook'"
check "a second daemon on the database is refused" 2 "" "a daemon already runs it" "$flipsim" daemon "$q/r.db"
check "status names the daemon" 0 "serves the queue" "" "$flipsim" status "$q/r.db"
check "submit to the running daemon" 0 "q3: queued as entry 3" "" "$flipsim" submit "$q/r.db" "$q/q3.json"
# a campaign whose workload is gone when the daemon starts it fails; the next runs
sed "s|$root/tests/engine/data/vadd4k.json|$q/gone.json|" "$q/q1.json" | sed 's/"name": "q1"/"name": "qgone"/' >"$q/qgone.json"
cp tests/engine/data/vadd4k.json "$q/gone.json"
sed -i "s|\"ptx\": *\"|\"ptx\": \"$root/tests/engine/data/|" "$q/gone.json"
check "submit one that will fail" 0 "qgone: queued" "" "$flipsim" submit "$q/r.db" "$q/qgone.json"
rm -f "$q/gone.json"
for _ in $(seq 300); do
	"$flipsim" status "$q/r.db" 2>/dev/null | grep -q "queue: 0 queued, 0 running" && break
	sleep 0.2
done
check "the daemon ran what was submitted" 0 "queue: 0 queued, 0 running, 3 done, 1 failed" "" "$flipsim" status "$q/r.db"
if grep -qx "failed qgone" "$q/hook" 2>/dev/null && grep -q "^done" "$q/hook"; then pass "--on-done ran for the failure and the empty queue"
else echo "hook: $(cat "$q/hook" 2>&1)" >"$tmp/out"; : >"$tmp/err"; fail "--on-done ran for the failure and the empty queue"; fi
check "stop" 0 "stopped the daemon of" "" "$flipsim" stop "$q/r.db"
check "stop with no daemon" 0 "no daemon runs" "" "$flipsim" stop "$q/r.db"
check "the log has the daemon's story" 0 "stopped by signal 15" "" cat "$q/r.db.log"
# killed with SIGKILL mid-campaign: the next daemon resumes it
check "submit a longer campaign" 0 "q4: queued" "" "$flipsim" submit "$q/r.db" "$q/q4.json"
check "daemon --detach for it" 0 "flipsim daemon: pid" "" "$flipsim" daemon "$q/r.db" --detach -j 2
for _ in $(seq 200); do
	"$flipsim" status "$q/r.db" --json 2>/dev/null | grep -q '"name": "q4".*"state": "running", "done": [1-9]' && break
	sleep 0.1
done
kill -9 "$(cut -d' ' -f1 "$q/r.db.daemon")" 2>/dev/null
sleep 0.5
check "status after SIGKILL: the entry stays running, no daemon" 0 "daemon: none runs" "" "$flipsim" status "$q/r.db"
check "a new daemon resumes it" 0 "q4 (entry 5): resumed" "" "$flipsim" daemon "$q/r.db" -j 2
check "every experiment once" 0 " 10000/10000 " "" "$flipsim" status "$q/r.db"
check "daemon: --log without --detach" 2 "" "--log goes with --detach" "$flipsim" daemon "$q/r.db" --log x.log
check "daemon: bad --poll" 2 "" "--poll: expected seconds" "$flipsim" daemon "$q/r.db" --poll 0
check "submit: missing campaign" 2 "" "missing campaign file" "$flipsim" submit "$q/r.db"
check "run without campaign" 2 "" "missing campaign file" "$flipsim" run --db "$tmp/r.db"
check "run bad -j" 2 "" "-j: expected a number of workers" "$flipsim" run "$camp" -j 0
check "run bad campaign" 2 "" "unknown key" "$flipsim" run tests/campaigns/data/campaign/bad_unknown_key.json --db "$tmp/r2.db"
check "run checks every campaign before running any" 2 "" "1 of 2 campaigns are not valid; nothing was run" \
	"$flipsim" run "$camp" tests/campaigns/data/campaign/bad_unknown_key.json --db "$tmp/r3.db"
if [ ! -e "$tmp/r3.db" ]; then pass "a refused run leaves no database"; else fail "a refused run leaves no database"; fi
# a host program as the workload (README "Host programs as workloads")
root=$(pwd)
check "profile a host program" 0 "exit status 0" "" "$flipsim" profile "$build/examples/iterate" examples/iterate/iterate.ptx
check "profile --ib-similarity of a host program" 0 "ib similarity, application (" "" \
	"$flipsim" profile --ib-similarity "$build/examples/iterate" examples/iterate/iterate.ptx
check "profile --ib-similarity of a .ptx file" 2 "" "--ib-similarity takes a workload JSON or a program" \
	"$flipsim" profile --ib-similarity examples/vadd/vadd.ptx
check "profile a program off the simcore API" 2 "" "without simulating anything" "$flipsim" profile /bin/echo hi
check "profile a missing program" 2 "" "not an executable file" "$flipsim" profile ./no-such-program
check "profile a program failing before any launch" 2 "" "exited with status 2" "$flipsim" profile "$build/examples/iterate" "$tmp/no-such.ptx"
if [ ! -s "$tmp/out" ]; then pass "profile prints no empty table for it"; else fail "profile prints no empty table for it"; fi
printf '{"name": "iterate-e2e", "workload": {"exec": ["%s", "examples/iterate/iterate.ptx"], "cwd": "%s"},\n "target": "simt", "injections": 150, "seed": 3}\n' \
	"$build/examples/iterate" "$root" >"$tmp/iterate.json"
check "run a host-program campaign" 0 "iterate-e2e" "" "$flipsim" run "$tmp/iterate.json" --db "$tmp/h.db" -j 2 --quiet
check "host-program campaign resumes" 0 "" "0 to run, resumed" "$flipsim" run "$tmp/iterate.json" --db "$tmp/h.db" -j 2
check "host-program campaign status" 0 "150/150" "" "$flipsim" status "$tmp/h.db"
printf '{"workload": {"exec": ["/bin/false"]}, "target": "regfile"}\n' >"$tmp/false.json"
check "a failing fault-free program" 2 "" "exited with status 1" "$flipsim" run "$tmp/false.json" --db "$tmp/h2.db"

# ---- protection (README "Campaign JSON", key "protection") -----------------------
printf '{"regfile": {"code": "secded"}, "smem": {"code": "secded"}}\n' >"$tmp/prot.json"
printf '{"regfile": {"code": "secded"}, "interleave": 2}\n' >"$tmp/prot-il.json"
printf '{"regfile": {"code": "secdd"}}\n' >"$tmp/prot-bad.json"
check "exec --help names --protection" 0 "--protection P.json" "" "$flipsim" exec --help
check "profile --help names --protection" 0 "--protection P.json" "" "$flipsim" profile --help
check "exec --protection" 0 "e2e_ok on gtx480: ok" "" "$flipsim" exec "$e2e/ok.json" --protection "$tmp/prot.json"
check "exec --protection=FILE" 0 "e2e_ok on gtx480: ok" "" "$flipsim" exec "$e2e/ok.json" --protection="$tmp/prot.json"
check "exec: bad --protection file" 2 "" "prot-bad.json: at \$.regfile.code: expected a code name" \
	"$flipsim" exec "$e2e/ok.json" --protection "$tmp/prot-bad.json"
check "exec: missing --protection file" 2 "" "no-such.json: cannot read" "$flipsim" exec "$e2e/ok.json" --protection "$tmp/no-such.json"
check "exec: --protection needs a value" 2 "" "option '--protection' needs a value" "$flipsim" exec "$e2e/ok.json" --protection
printf '{"pred": "parity"}\n' >"$tmp/prot-pred.json"
check "exec: pred code in ptx mode" 2 "" "prot-pred.json: at \$: pred codes protect the physical predicate words" \
	"$flipsim" exec "$e2e/ok.json" --protection "$tmp/prot-pred.json"
check "exec: pred code in alloc mode" 0 "ok" "" "$flipsim" exec "$e2e/ok.json" --regs alloc --protection "$tmp/prot-pred.json"
check "exec: interleave in ptx mode" 2 "" "prot-il.json: at \$: interleave 2: ptx mode's virtual registers" \
	"$flipsim" exec "$e2e/ok.json" --protection "$tmp/prot-il.json"
check "exec: interleave in alloc mode" 0 "ok" "" "$flipsim" exec "$e2e/ok.json" --regs alloc --protection "$tmp/prot-il.json"
check "profile --protection" 0 "df_reg" "" "$flipsim" profile --protection "$tmp/prot.json" examples/vadd/vadd.json
# a fault-free run never meets a corrupted word: the protected machine's
# cycles and outputs are the unprotected one's
"$flipsim" profile examples/vadd/vadd.json --regs alloc | grep -E '^(application|output) ' >"$tmp/plain.prof"
"$flipsim" profile examples/vadd/vadd.json --regs alloc --protection "$tmp/prot-il.json" | grep -E '^(application|output) ' \
	>"$tmp/prot.prof"
if [ -s "$tmp/plain.prof" ] && cmp -s "$tmp/plain.prof" "$tmp/prot.prof"; then pass "profile: protection changes no golden cycle or output"
else : >"$tmp/out"; : >"$tmp/err"; fail "profile: protection changes no golden cycle or output"; fi
check "profile: bad --protection file" 2 "" "prot-bad.json: at \$.regfile.code" \
	"$flipsim" profile --protection "$tmp/prot-bad.json" examples/vadd/vadd.json
check "profile a host program --protection" 0 "exit status 0" "" \
	"$flipsim" profile --protection "$tmp/prot.json" "$build/examples/iterate" examples/iterate/iterate.ptx
printf '{"name": "vadd4k-secded", "workload": "%s/tests/engine/data/vadd4k.json", "target": "regfile", "regs": "alloc",\n "injections": 100, "seed": 7, "protection": {"regfile": {"code": "secded"}, "interleave": 2}}\n' \
	"$root" >"$tmp/prot-camp.json"
check "run a protected campaign" 0 "Protection: the codes" "" "$flipsim" run "$tmp/prot-camp.json" --db "$tmp/p.db" -j 2 --quiet
check "report: the protection table" 0 "regfile secded, interleave 2  100" "" "$flipsim" report "$tmp/p.db"
check "report --json: protection_summary" 0 '"codes": "regfile secded, interleave 2"' "" "$flipsim" report "$tmp/p.db" --json
check "report: no protection table without protection" 0 "" "" "$flipsim" report "$tmp/r.db"
if grep -q "Protection" "$tmp/out"; then fail "report: unprotected campaigns show no protection table"
else pass "report: unprotected campaigns show no protection table"; fi
printf '{"name": "iterate-secded", "workload": {"exec": ["%s", "examples/iterate/iterate.ptx"], "cwd": "%s"},\n "target": "regfile", "regs": "alloc", "injections": 40, "seed": 3, "protection": {"regfile": "secded"}}\n' \
	"$build/examples/iterate" "$root" >"$tmp/iterate-prot.json"
check "run a protected host-program campaign" 0 "regfile secded" "" "$flipsim" run "$tmp/iterate-prot.json" --db "$tmp/hp.db" -j 2 --quiet
printf '{"workload": "%s/tests/engine/data/vadd4k.json", "target": "regfile", "regs": "alloc",\n "fault_model": {"kind": "zero_value"}, "protection": {"regfile": "parity"}}\n' \
	"$root" >"$tmp/prot-zero.json"
check "run: zero_value on a protected target" 2 "" "\"zero_value\" is not modelled on a protected regfile" \
	"$flipsim" run "$tmp/prot-zero.json" --db "$tmp/pz.db"
if command -v sqlite3 >/dev/null; then
	if sqlite3 "$tmp/p.db" "SELECT count(prot), count(prot_cycle), count(*) FROM experiments" >"$tmp/out" 2>"$tmp/err" &&
		grep -Eq '^[0-9]+\|[0-9]+\|100$' "$tmp/out"; then pass "the experiments store prot and prot_cycle"
	else fail "the experiments store prot and prot_cycle"; fi
else
	echo "SKIP the experiments' prot columns (no sqlite3 here)"
fi

printf 'not a database, just text\n' >"$tmp/text.db"
check "report on a non-database" 2 "" "not an SQLite file" "$flipsim" report "$tmp/text.db"
check "status on a missing file" 2 "" "" "$flipsim" status "$tmp/missing.db"
check "run into a non-database" 2 "" "text.db" "$flipsim" run "$camp" --db "$tmp/text.db"
if cmp -s "$tmp/text.db" <(printf 'not a database, just text\n'); then
	pass "a non-database is left untouched"
else
	fail "a non-database is left untouched"
fi

# ---- the GUFI study (examples/campaigns/gufi/, make study) ---------------------
gufi=examples/campaigns/gufi
# The committed campaigns are what gen.sh writes (paths aside: copies
# elsewhere name the programs absolutely).
if sh "$gufi/gen.sh" -b "$root/build" "$tmp/gufi" >"$tmp/out" 2>"$tmp/err"; then
	sed -i -e "s|\"$root/build/examples/|\"../../../build/examples/|" -e "s|\"cwd\": \"$root\"|\"cwd\": \"../../..\"|" "$tmp/gufi"/*.json
	if diff -r -x '*.sh' "$gufi" "$tmp/gufi" >"$tmp/out" 2>&1 && [ "$(ls "$gufi"/*.json | wc -l)" -eq 55 ]; then
		pass "gufi/gen.sh writes the 55 committed campaigns"
	else
		fail "gufi/gen.sh writes the 55 committed campaigns"
	fi
else
	fail "gufi/gen.sh runs"
fi
# The 7 shared-memory campaigns are the applications whose kernels use shared memory.
users=""
for app in bfs ccp ge hs km lps lud ms nw pathf spg vaddg; do
	if "$flipsim" profile "$build/examples/$app" 2>/dev/null |
		awk '$1 == "kernel" {t = 1; next} t && NF == 12 && $10 > 0 {s = 1} END {exit !s}'; then
		users="$users $app"
	fi
done
smem=$(cd "$gufi" && ls ./*-smem.json | sed 's|^\./||; s|-smem\.json$||' | tr '\n' ' ')
if [ "$users" = " $(echo $smem)" ]; then pass "gufi smem campaigns are the shared-memory users:$users"
else : >"$tmp/out"; : >"$tmp/err"; fail "gufi smem campaigns ($smem) are the shared-memory users ($users)"; fi
# make study's machinery on 3 campaigns of 4 injections.
study() { STUDY_DIR="$tmp/study" JOBS=2 sh "$gufi/study.sh" "$build" "$@"; }
check "study: 3 campaigns" 0 "Study: 3 campaigns, 2 applications, 3 structures" "" \
	study 4 vaddg-regfile-ptx vaddg-ibuffer-valid spg-smem
for want in "Outcomes per structure and application" "AVF per structure and application" \
	"FIT per structure and for the GPU" "GPU ptx" "IPC/FIT per application" "AVF per kernel (GUFI Table IV)" \
	"  VecAdd  " "  scalarProdGPU  "; do
	if grep -qF -- "$want" "$tmp/out"; then pass "study prints \"$want\""; else fail "study prints \"$want\""; fi
done
if ! grep -q '_Z' "$tmp/out"; then pass "study shows kernels demangled"; else fail "study shows kernels demangled"; fi
if [ -s "$tmp/study/study-4.txt" ] && [ -s "$tmp/study/run-4.log" ]; then pass "study keeps its report and log"
else fail "study keeps its report and log"; fi
check "study: status" 0 "4/4" "" "$flipsim" status "$tmp/study/study-4.db"
if [ "$(grep -c ' 4/4 ' "$tmp/out")" = 3 ]; then pass "study: 3 campaigns done"; else fail "study: 3 campaigns done"; fi
check "study: again resumes" 0 "Study: 3 campaigns" "0 to run, resumed" study 4 vaddg-regfile-ptx vaddg-ibuffer-valid spg-smem
if [ "$(grep -c '0 to run, resumed' "$tmp/err")" = 3 ]; then pass "study: all 3 resumed"; else fail "study: all 3 resumed"; fi
check "report --study --json" 0 '"study_gpu"' "" "$flipsim" report "$tmp/study/study-4.db" --study --json
check "report --study --csv" 0 "workload,gpu,structure," "" "$flipsim" report "$tmp/study/study-4.db" --study --csv
check "report --study: unknown option" 2 "" "unknown option '--figures'" "$flipsim" report "$tmp/study/study-4.db" --study --figures
check "report --csv --json" 2 "" "--csv and --json exclude each other" "$flipsim" report "$tmp/study/study-4.db" --csv --json
# study.sh refuses bad input before running anything (exit 2).
for bad in "4 nosuch-campaign|no campaign 'nosuch-campaign'" "0|expected a count" "12x|expected a count" \
	"4 ../vadd-regfile|is not a campaign name"; do
	args=${bad%%|*} msg=${bad#*|}
	# shellcheck disable=SC2086
	study $args >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" -eq 2 ] && grep -qF -- "$msg" "$tmp/err"; then pass "study.sh $args: exit 2"
	else fail "study.sh $args: exit $got, stderr lacks \"$msg\""; fi
done

# ---- the build: one job per CPU unless -j says otherwise (README "Set-up") --------
mkflags() { env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -pnq "$@" all 2>/dev/null | grep '^MAKEFLAGS'; }
if mkflags | grep -q -- " -j$(nproc)\b"; then pass "make builds with one job per CPU"
else : >"$tmp/out"; : >"$tmp/err"; fail "make builds with one job per CPU: $(mkflags)"; fi
if mkflags -j1 | grep -q -- " -j1\b"; then pass "make -j1 stays serial"
else : >"$tmp/out"; : >"$tmp/err"; fail "make -j1 stays serial: $(mkflags -j1)"; fi

echo "e2e: $passes passed, $failures failed"

# ---- the examples -------------------------------------------------------------
if [ -f examples/check.sh ] && [ -z "${E2E_SKIP_EXAMPLES:-}" ]; then
	if bash examples/check.sh "$build"; then
		echo "PASS examples/check.sh"
	else
		echo "FAIL examples/check.sh"
		failures=$((failures + 1))
	fi
fi

[ "$failures" -eq 0 ] || exit 1
exit 0
