#!/usr/bin/env bash
# tests/slurm/run.sh BUILD (`make slurm-test`): examples/slurm on a real
# Slurm. Installs Debian's slurm-wlm and munge when missing, starts munged,
# slurmctld and slurmd on this machine with a throw-away configuration in a
# temporary folder (its own ports, key, sockets, spool and logs), submits a
# campaign as a job array of 4 shards and the dependent merge job with
# examples/slurm/submit.sh, waits for both, and checks the merged database
# against a single-machine run of the same campaign: the same report, byte
# for byte, and every shard in. Stops everything it started, whatever
# happens. Exit 0 when every check passed, 1 otherwise, 2 on bad usage.
set -u

if [ $# -ne 1 ]; then
	echo "usage: $0 BUILD" >&2
	exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "slurm-test: no such directory: $1" >&2; exit 2; }
flipsim=$build/flipsim
[ -x "$flipsim" ] || { echo "slurm-test: no flipsim in $build" >&2; exit 2; }

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
	! command -v munged >/dev/null; then
	echo "slurm-test: installing slurm-wlm and munge" >&2
	$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq slurm-wlm munge >/dev/null ||
		{ echo "slurm-test: cannot install slurm-wlm and munge" >&2; exit 1; }
fi
export PATH=$PATH:/usr/sbin

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flipsim-slurm.XXXXXX") || exit 2
chmod 755 "$tmp"
pids=()
stop_all() {
	[ -n "${SLURM_CONF:-}" ] && scancel --quiet --user="$(id -un)" >/dev/null 2>&1
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${pids[@]}"; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
		kill -9 "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap stop_all EXIT
failures=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; failures=$((failures + 1)); }
show_logs() {
	for f in "$tmp"/log/*.log "$tmp"/out/*.log; do
		[ -f "$f" ] && { echo "--- $f"; tail -n 15 "$f"; }
	done
}

# ---- munge, with its own key and socket ------------------------------------------
mkdir -p "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/out"
chmod 711 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none && chmod 400 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
	--pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" \
	>"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/socket" ] && break; sleep 0.2; done
if [ -S "$tmp/munge/socket" ]; then pass "munged started"; else fail "munged started"; show_logs; exit 1; fi

# ---- slurmctld and slurmd on this host, free ports -----------------------------
host=$(hostname -s)
user=$(id -un)
cpus=$(nproc)
free_port() { # a TCP port nothing listens on, from a range
	local p
	for p in $(shuf -i 20000-40000 -n 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
	done
	echo 36817
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$slurmd_port" = "$ctld_port" ] && slurmd_port=$((ctld_port + 1))
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=flipsim-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 60); do
	if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then up=1; break; fi
	sleep 0.5
done
if [ -n "$up" ]; then pass "slurmctld and slurmd up (node $(sinfo -h -o '%N %t'))"
else fail "slurmctld and slurmd up"; show_logs; exit 1; fi

# ---- the campaign: 4 shards and the merge, then the same on one machine --------
sed "s|\"vadd4k.json\"|\"$root/tests/engine/data/vadd4k.json\"|; s|\"injections\": *[0-9]*|\"injections\": 240|" \
	"$root/tests/engine/data/vadd4k-regfile.json" >"$tmp/campaign.json"
if ids=$(FLIPSIM=$flipsim bash "$root/examples/slurm/submit.sh" "$tmp/campaign.json" 4 "$tmp/out" \
	--cpus-per-task=1 2>"$tmp/log/submit.log"); then
	pass "submit.sh: $ids"
else
	fail "submit.sh"; cat "$tmp/log/submit.log"; exit 1
fi
done_=""
for _ in $(seq 600); do # 5 minutes at most
	if [ -z "$(squeue -h -u "$user" 2>/dev/null)" ]; then done_=1; break; fi
	sleep 0.5
done
if [ -n "$done_" ]; then pass "the array and the merge job ended"; else fail "the array and the merge job ended"; show_logs; exit 1; fi
for i in 0 1 2 3; do
	if [ -s "$tmp/out/part-$i.db" ]; then pass "shard $i wrote part-$i.db"; else fail "shard $i wrote part-$i.db"; fi
done
if [ -s "$tmp/out/merged.db" ] && grep -q "all in" "$tmp/out/merge.log"; then
	pass "the merge job merged every shard"
else
	fail "the merge job merged every shard"; show_logs
fi
"$flipsim" run "$tmp/campaign.json" --db "$tmp/single.db" -j 2 --quiet >/dev/null 2>"$tmp/log/single.log" ||
	fail "the single-machine run"
"$flipsim" report "$tmp/single.db" >"$tmp/single.txt" 2>&1
"$flipsim" report "$tmp/out/merged.db" >"$tmp/merged.txt" 2>&1
if [ -s "$tmp/single.txt" ] && cmp -s "$tmp/single.txt" "$tmp/merged.txt"; then
	pass "report of the merged shards = the single-machine run's"
else
	fail "report of the merged shards = the single-machine run's"; diff "$tmp/single.txt" "$tmp/merged.txt" | head -20
fi
if "$flipsim" status "$tmp/out/merged.db" | grep -q " 240/240 "; then pass "status: 240/240"
else fail "status: 240/240"; "$flipsim" status "$tmp/out/merged.db"; fi

echo "slurm-test: $([ $failures -eq 0 ] && echo "all passed" || echo "$failures failed")"
[ $failures -eq 0 ]
