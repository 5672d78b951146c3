#!/usr/bin/env bash
# A one-node Slurm cluster for the launcher tests, entirely inside DIR:
#   slurm_cluster.sh start DIR   writes DIR/slurm.conf (free ports, this host
#                                as the only node), starts slurmctld and slurmd,
#                                waits until the node is idle; prints the config path
#   slurm_cluster.sh stop DIR    shuts both daemons down (scontrol shutdown),
#                                then kills what is left: the daemons by their
#                                pid files, stray slurmstepd by their SLURM_CONF
# Needs root, slurm-wlm and munge (munged is started if no daemon answers and
# left running: it is the machine's, shared by every cluster on it).
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi
dir=$(cd "$dir" && pwd)
conf="$dir/slurm.conf"

die() { echo "slurm_cluster: $*" >&2; exit 1; }

listening_ports() {
  # Local ports in state LISTEN (0A), from /proc/net/tcp and tcp6.
  awk 'FNR > 1 && $4 == "0A" { split($2, a, ":"); print strtonum("0x" a[2]) }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

free_port() {
  local busy port
  busy=" $(listening_ports | tr '\n' ' ') $* "
  for _ in $(seq 200); do
    port=$((17000 + RANDOM % 2900))
    [[ "$busy" == *" $port "* ]] || { echo "$port"; return; }
  done
  die "no free port found"
}

ensure_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
  [[ -f /etc/munge/munge.key ]] || mungekey -c >/dev/null
  mkdir -p /run/munge
  chown munge:munge /run/munge
  munged --force
  for _ in $(seq 50); do
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
    sleep 0.1
  done
  die "munged does not answer"
}

kill_by_pidfile() {
  local file=$1 pid
  [[ -f "$file" ]] || return 0
  pid=$(cat "$file" 2>/dev/null || true)
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  grep -q slurm "/proc/$pid/comm" 2>/dev/null || return 0 # gone, or the pid is someone else's now
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 30); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}

start() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (slurmd starts tasks as any user)"
  for p in slurmctld slurmd srun sinfo scontrol munge munged; do
    command -v "$p" >/dev/null || die "$p is not installed (apt-get install slurm-wlm munge)"
  done
  ensure_munge
  local node ctld_port slurmd_port
  node=$(hostname -s)
  ctld_port=$(free_port)
  slurmd_port=$(free_port "$ctld_port")
  mkdir -p "$dir/state" "$dir/spool"
  # FirstJobId varies per cluster: under srun the core's MASTER_PORT is
  # 15000 + job id % 15000, and another cluster on this machine counts from 1 too.
  cat > "$conf" <<CONF
ClusterName=sbtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
FirstJobId=$((1000 + RANDOM % 10000))
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  export SLURM_CONF="$conf"
  slurmctld -f "$conf" || die "slurmctld did not start (see $dir/slurmctld.log)"
  slurmd -f "$conf" || die "slurmd did not start (see $dir/slurmd.log)"
  for _ in $(seq 150); do
    if [[ $(sinfo -h -N -o %t 2>/dev/null) == idle ]]; then
      echo "$conf"
      return
    fi
    sleep 0.1
  done
  die "the node is not idle after 15 s: $(sinfo -N 2>&1 | tail -n 1)"
}

stop() {
  [[ -f "$conf" ]] || return 0
  SLURM_CONF="$conf" timeout 10 scontrol shutdown >/dev/null 2>&1 || true
  kill_by_pidfile "$dir/slurmd.pid"
  kill_by_pidfile "$dir/slurmctld.pid"
  # A step still tearing down when its slurmd went away outlives it: its
  # slurmstepd and tasks carry this cluster's config in their environment
  # (tasks also a step id; srun and the test itself do not).
  local p env comm
  for p in /proc/[0-9]*; do
    env=$( { tr '\0' '\n' < "$p/environ"; } 2>/dev/null) || continue
    grep -qxF "SLURM_CONF=$conf" <<< "$env" || continue
    comm=$(cat "$p/comm" 2>/dev/null || true)
    if [[ "$comm" == slurmstepd ]] || grep -q '^SLURM_STEP_ID=' <<< "$env"; then
      kill -KILL "${p#/proc/}" 2>/dev/null || true
    fi
  done
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) die "unknown command $cmd (start or stop)" ;;
esac
