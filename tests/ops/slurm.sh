#!/usr/bin/env bash
# Runs the Slurm example of docs/scale-out.md on a real, private, single-node Slurm that this
# script starts (munged, slurmctld, slurmd in a scratch folder, on free ports) and stops at the
# end, even on failure. The shards run as a job array (docs/scale-out/simulate.sbatch), the
# merge as a dependent job (merge.sbatch, afterok), submitted by docs/scale-out/submit.sh; one
# shard is requeued while it runs. The merged report must be the bytes of one `simulate`.
# Usage: slurm.sh SOURCE_DIR RULEBOOK_EXECUTABLE. Exits 77 (skipped) unless root with Slurm and
# munge installed: .ci/install-deps installs them, so CI runs it.
set -euo pipefail

source_dir=$(cd "$1" && pwd)
rulebook=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
games=${RULEBOOK_SLURM_GAMES:-800}
tasks=4

skip() {
  echo "SKIP: $*"
  exit 77
}

# docs/scale-out.md quotes the scripts this test submits, whole (checked even when skipped).
doc=$(cat "$source_dir/docs/scale-out.md")
for script in simulate.sbatch merge.sbatch submit.sh; do
  text=$(cat "$source_dir/docs/scale-out/$script")
  [[ "$doc" == *"$text"* ]] || {
    echo "FAIL: docs/scale-out.md does not quote docs/scale-out/$script as it is" >&2
    exit 1
  }
done
[ "$(id -u)" -eq 0 ] || skip "needs root to start munged and the Slurm daemons"
for command in munged slurmctld slurmd sbatch scontrol squeue sinfo ss; do
  command -v "$command" >/dev/null 2>&1 || skip "'$command' is not installed (apt-get install slurmctld slurmd slurm-client munge)"
done
id munge >/dev/null 2>&1 && [ -r /etc/munge/munge.key ] || skip "munge has no user or no key"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/rulebook-slurm.XXXXXX")
chmod 755 "$scratch"

# Stops what this script started, by the pids in the pid files, and waits for it to go.
stop_daemons() {
  local pid_file pid
  for pid_file in "$scratch/slurmd.pid" "$scratch/slurmctld.pid" "$scratch/munge/munged.pid"; do
    [ -s "$pid_file" ] || continue
    pid=$(cat "$pid_file")
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
finish() {
  local status=$?
  stop_daemons
  if [ "$status" -ne 0 ] && [ "$status" -ne 77 ]; then
    echo "--- failed; logs follow (scratch folder $scratch kept)" >&2
    tail -n 30 "$scratch"/*.log "$scratch"/work/results/*.out 2>/dev/null >&2 || true
  else
    rm -rf "$scratch"
  fi
  exit "$status"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Waits up to $1 seconds for the command that follows to succeed.
wait_for() {
  local seconds=$1
  shift
  for _ in $(seq $((seconds * 5))); do
    "$@" && return 0
    sleep 0.2
  done
  return 1
}

# A TCP port nobody listens on (Slurm binds its ports itself, so a race is possible but rare).
used_ports=$(ss -Htan | awk '{ n = split($4, a, ":"); print a[n] }')
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 40000))
    grep -qx "$port" <<<"$used_ports" || break
  done
  used_ports+=$'\n'"$port"
  echo "$port"
}

# munged on its own socket, so that a munged already running (or none) is left alone.
mkdir -p "$scratch/munge"
chown munge:munge "$scratch/munge"
chmod 711 "$scratch/munge"
socket="$scratch/munge/munge.socket"
runuser -u munge -- munged --socket="$socket" --pid-file="$scratch/munge/munged.pid" \
  --log-file="$scratch/munge/munged.log" --seed-file="$scratch/munge/munged.seed" ||
  fail "munged did not start"
wait_for 10 test -S "$socket" || fail "munged made no socket"

host=$(hostname -s)
cpus=$(nproc)
memory=$(($(awk '/^MemTotal/ { print int($2 / 1024) }' /proc/meminfo) / 2))
mkdir -p "$scratch/state" "$scratch/spool"
export SLURM_CONF="$scratch/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=rulebooktest
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$scratch/state
SlurmdSpoolDir=$scratch/spool
SlurmctldPidFile=$scratch/slurmctld.pid
SlurmdPidFile=$scratch/slurmd.pid
SlurmctldLogFile=$scratch/slurmctld.log
SlurmdLogFile=$scratch/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
KillWait=2
NodeName=$host CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
node_idle() { [ "$(sinfo -h -n "$host" -o %T 2>/dev/null)" = idle ]; }
wait_for 30 node_idle || fail "the node did not become idle: $(sinfo 2>&1)"

# The example's layout: rulesets/ beside results/, `rulebook` on the PATH (sbatch passes the
# environment on to the jobs).
work="$scratch/work"
mkdir -p "$work/rulesets"
cp "$source_dir/rulesets/clusterfk.rules" "$work/rulesets/"
cd "$work"
export PATH="$(dirname "$rulebook"):$PATH"
export GAMES=$games
read -r array merge < <(bash "$source_dir/docs/scale-out/submit.sh" --array=0-$((tasks - 1)) --cpus-per-task=1)
echo "array job $array, merge job $merge, $games games in $tasks shards"

# Requeue shard 1 while it runs: Slurm kills it (SIGTERM; simulate saves the games played,
# marked interrupted) and runs it again from the start, which replaces that file.
job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | awk 'NR == 1' | cut -d= -f2; }
shard_running() { [ "$(job_state "${array}_1")" = RUNNING ]; }
wait_for 60 shard_running || fail "shard 1 never ran: $(scontrol show job "${array}_1" 2>&1)"
sleep 0.5
scontrol requeue "${array}_1" || fail "scontrol requeue failed"
echo "requeued shard 1"

merge_done() {
  local state
  state=$(job_state "$merge")
  case "$state" in
    COMPLETED) return 0 ;;
    FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY) fail "the merge job ended $state: $(cat results/merge.out 2>&1)" ;;
  esac
  # Slurm holds a requeued job for two minutes (its begin time); let it start now.
  if scontrol show job "${array}_1" 2>/dev/null | grep -q 'JobState=PENDING Reason=BeginTime'; then
    scontrol update jobid="${array}_1" StartTime=now >/dev/null || fail "cannot move the requeued shard's begin time"
  fi
  return 1
}
wait_for 120 merge_done || fail "the merge job did not finish: $(scontrol show job "$merge" 2>&1)"

restarts=$(scontrol show job "${array}_1" | grep -o 'Restarts=[0-9]*' | cut -d= -f2)
[ "${restarts:-0}" -ge 1 ] || fail "shard 1 was not restarted (Restarts=${restarts:-none})"
# The task's output is appended to (--open-mode=append): the killed run's last words come first.
grep -q 'terminated (SIGTERM)' "results/slurm-${array}_1.out" ||
  fail "shard 1 was not killed while it ran: $(cat "results/slurm-${array}_1.out")"
for i in $(seq 0 $((tasks - 1))); do
  grep -q "shard $i of $tasks" "results/part-$i.txt" || fail "shard $i's report does not say so"
done

rulebook simulate rulesets/clusterfk.rules --games "$games" --players 6 --seed 7 --jobs "$cpus" >one-run.txt
cmp results/all.txt one-run.txt || fail "the merged report differs from one run's: $(diff results/all.txt one-run.txt)"
rulebook merge results/all.json >all-again.txt
cmp all-again.txt one-run.txt || fail "merging the saved sum again gives another report"

# One shard rerun alone, as the script's comment says, gives the same statistics.
mv results/part-2.json results/part-2.first.json
SHARDS=$tasks sbatch --wait --array=2 --cpus-per-task=1 "$source_dir/docs/scale-out/simulate.sbatch" >/dev/null ||
  fail "rerunning shard 2 alone failed: $(tail -n 5 results/slurm-*_2.out)"
cmp results/part-2.json results/part-2.first.json || fail "shard 2 rerun alone saved other statistics"
echo "ok: the merged report of $tasks shards (shard 1 requeued after $restarts restart(s)) is one run's, byte for byte"
