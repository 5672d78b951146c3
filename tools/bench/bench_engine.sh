#!/usr/bin/env bash
# Engine benchmark (issue: bench model vocab 1024, dim 256, 8 layers, 4 heads,
# seq 64, micro-batch 8 per rank, every block a unit + root, one compute
# thread per rank). Runs, alternately, ROUNDS times each: the core at W=1
# unsharded (--reference), W=2 sharded in fp32 and with bf16 parameters (and
# W=1 with bf16 parameters, beside PyTorch 2.x's bf16 peers), and
# its PyTorch peers on the same model, optimizer and batch
# (bench_torch_peer.py: Debian's PyTorch 1.13 in one process and DDP over
# Gloo at W=2; the project environment's PyTorch 2.x in one process, and
# FSDP2's fully_shard over Gloo at W=2, fp32 and with bf16 parameters and an
# fp32 reduction, the bf16 one also at W=1); prints median
# step times and the issue's ratios, of the pooled medians and paired within
# each round (median and range over the rounds: the host's load drifts
# between rounds, less within one). Each round also runs two unsharded W=1
# cores at once, independently: the cost of two busy cores on this host,
# against which W=2's own overhead is read; the slower of the two is the
# slower core's W=1 step, the pace a synchronous W=2 step cannot beat. Each
# round starts by timing every core alone (core_speed.py: the cores of a
# shared VM change speed independently).
# usage: tools/bench/bench_engine.sh [BUILD_DIR] [ROUNDS] [STEPS]
# PEERS=0 leaves the PyTorch peers out; PEERS2=0 only the PyTorch 2.x ones
# (TORCH2_PYTHON: its interpreter, the project's .venv by default).
# PyTorch's bf16 products are slow on CPUs without AVX-512 BF16 (scalar
# kernels, about 60x its fp32 here), so its bf16 peers run BF16_STEPS steps
# (8 by default; the first 5 are not timed). BASELINE=OTHER_BUILD_DIR runs that
# build's core in the same rounds too (before/after, side by side). GLOO=1
# adds the core at W=2 with SB_SHM=0 (Gloo instead of shared memory); SLEEP=1
# the core at W=2 with SB_SHM_SPIN_US=0 (its waits sleep at once); ATEN=1
# the core at W=1, W=2 and W=2 bf16 with ATen's GELU, layer norm, loss and
# products (SB_GELU=reference SB_LAYER_NORM=reference SB_CROSS_ENTROPY=reference
# SB_LINEAR=reference: the core's own kernels against ATen's, same binary,
# same rounds).
set -euo pipefail
BIN=${1:-build}/bin
ROUNDS=${2:-3}
STEPS=${3:-30}
PEERS=${PEERS:-1}
PEERS2=${PEERS2:-$PEERS}
BF16_STEPS=${BF16_STEPS:-8}
GLOO=${GLOO:-0}
SLEEP=${SLEEP:-0}
ATEN=${ATEN:-0}
BASE_BIN=${BASELINE:+$BASELINE/bin}
PYTHON=/usr/bin/python3 # Debian's, which sees python3-torch
here=$(cd "$(dirname "$0")" && pwd)
TORCH2_PYTHON=${TORCH2_PYTHON:-$here/../../.venv/bin/python}
if [[ $PEERS2 == 1 && ! -x $TORCH2_PYTHON ]]; then
  echo "no PyTorch 2.x at $TORCH2_PYTHON (scripts/install-deps.sh makes it; or TORCH2_PYTHON=..., or PEERS2=0)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((31000 + RANDOM % 2000))

# OpenBLAS 0.3.21 does not know recent CPU models and falls back to its
# SSE3 "Prescott" kernels (4x slower matrix products here); name the kernel
# set the CPU supports, for the core and the peers alike.
blasCore=$(OPENBLAS_VERBOSE=2 "$BIN/shardbench-core" --version 2>&1 | sed -n 's/^Core: //p')
if [[ -z ${OPENBLAS_CORETYPE:-} && $blasCore == Prescott ]]; then
  if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
  echo "OpenBLAS did not recognise this CPU: OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset}" >&2
fi

plan() { # name procs extra...
  local name=$1 procs=$2; shift 2
  "$BIN/shardbench-cli" plan --preset transformer --vocab 1024 --dim 256 --layers 8 --heads 4 --max-seq 64 --seq 64 \
    --batch 8 --procs-per-node "$procs" --steps "$STEPS" "$@" -o "$work/$name.json" >/dev/null
}

steps() { # core stdout files...: "step_ms comm_ms round" of each step > 5
  round=$round python3 - "$@" <<'PY'
import json, os, sys
for path in sys.argv[1:]:
    for line in open(path):
        if not line.startswith("@sb "): continue
        e = json.loads(line[4:])
        if e["type"] == "step" and e["step"] > 5:
            print(e["step_ms"], e["comm_exposed_ms"], os.environ["round"])
PY
}

aten() { SB_GELU=reference SB_LAYER_NORM=reference SB_CROSS_ENTROPY=reference SB_LINEAR=reference "$@"; } # the core's own kernels off

run() { # [bin] name world extra-core-args... ; appends "step_ms comm_ms round" lines (steps > 5) to $work/$name.txt
  local bin=$BIN
  if [[ $1 == base ]]; then bin=$BASE_BIN; shift; fi
  local name=$1 world=$2 out=$1; shift 2
  [[ $bin == "$BASE_BIN" && $bin != "$BIN" ]] && out=base-$name
  local pids=()
  for r in $(seq 0 $((world - 1))); do
    RANK=$r WORLD_SIZE=$world LOCAL_RANK=$r LOCAL_WORLD_SIZE=$world MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SB_THREADS=1 \
      "$bin/shardbench-core" --plan "$work/$name.json" "$@" >"$work/$out.out$r" 2>/dev/null &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  port=$((port + 1))
  steps "$work/$out.out0" >>"$work/$out.txt"
}

pair() { # two unsharded W=1 cores at once, each on its own: what two busy cores cost this host
  local pids=()
  for i in 0 1; do
    RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$((port + i)) SB_THREADS=1 \
      "$BIN/shardbench-core" --plan "$work/fp32-w1.json" --reference >"$work/pair.out$i" 2>/dev/null &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  port=$((port + 2))
  steps "$work/pair.out0" "$work/pair.out1" >>"$work/pair-w1.txt"
  steps "$work/pair.out0" >>"$work/pair-w1-a.txt"
  steps "$work/pair.out1" >>"$work/pair-w1-b.txt"
}

cores() { # "round core GFLOP/s" of each core alone, before the round
  OMP_NUM_THREADS=1 "$PYTHON" "$here/core_speed.py" 1 | sed "s/^core /$round /" >>"$work/cores.txt"
}

peer() { # name world plan [python mode steps]: a PyTorch peer, "step_ms nan round" lines
  local name=$1 world=$2 planName=$3 python=${4:-$PYTHON} mode=${5:-plain} steps=${6:-$STEPS}
  OMP_NUM_THREADS=1 "$python" "$here/bench_torch_peer.py" "$work/$planName.json" "$world" "$steps" "$port" "$mode" |
    sed "s/\$/ nan $round/" >>"$work/$name.txt"
  port=$((port + 1))
}

plan fp32-w1 1
plan fp32-w2 2
plan bf16-w2 2 --param-dtype bf16 --reduce-dtype fp32
plan bf16-w1 1 --param-dtype bf16 --reduce-dtype fp32
plan gloo-fp32-w2 2
plan sleep-fp32-w2 2
plan aten-fp32-w1 1
plan aten-fp32-w2 2
plan aten-bf16-w2 2 --param-dtype bf16 --reduce-dtype fp32
for round in $(seq 1 "$ROUNDS"); do
  cores
  run fp32-w1 1 --reference
  pair
  [[ $PEERS == 1 ]] && peer torch-w1 1 fp32-w1
  run fp32-w2 2
  [[ $PEERS == 1 ]] && peer ddp-w2 2 fp32-w2
  run bf16-w2 2
  if [[ $PEERS2 == 1 ]]; then
    peer torch2-w1 1 fp32-w1 "$TORCH2_PYTHON" plain
    peer fsdp2-w2 2 fp32-w2 "$TORCH2_PYTHON" fsdp2
    run bf16-w1 1
    peer fsdp2-bf16-w1 1 bf16-w1 "$TORCH2_PYTHON" fsdp2 "$BF16_STEPS"
    peer fsdp2-bf16-w2 2 bf16-w2 "$TORCH2_PYTHON" fsdp2 "$BF16_STEPS"
  fi
  [[ $GLOO == 1 ]] && SB_SHM=0 run gloo-fp32-w2 2
  [[ $SLEEP == 1 ]] && SB_SHM_SPIN_US=0 run sleep-fp32-w2 2
  if [[ $ATEN == 1 ]]; then
    aten run aten-fp32-w1 1 --reference
    aten run aten-fp32-w2 2
    aten run aten-bf16-w2 2
  fi
  if [[ -n $BASE_BIN ]]; then
    run base fp32-w1 1 --reference
    run base fp32-w2 2
    run base bf16-w2 2
  fi
done

python3 - "$work" "$PEERS" "${BASE_BIN:+1}" "$GLOO" "$SLEEP" "$ATEN" "$PEERS2" <<'PY'
import math, statistics, sys, os
work, peers, base, gloo, sleep = sys.argv[1], sys.argv[2] == "1", sys.argv[3] == "1", sys.argv[4] == "1", sys.argv[5] == "1"
aten, peers2 = sys.argv[6] == "1", sys.argv[7] == "1"
rounds = {}  # configuration -> {round: median step ms}
def load(n):
    rows = [tuple(map(float, l.split())) for l in open(os.path.join(work, n + ".txt"))]
    comm = [r[1] for r in rows if not math.isnan(r[1])]
    rounds[n] = {k: statistics.median(r[0] for r in rows if r[2] == k) for k in {r[2] for r in rows}}
    return statistics.median(r[0] for r in rows), (statistics.median(comm) if comm else None), len(rows)
def paired(a, b):
    """The ratio a/b of the two configurations' medians within each round: the
    host's load drifts over minutes, and the configurations of one round ran
    within a minute of each other. Median and range over the rounds."""
    per = sorted(rounds[a][k] / rounds[b][k] for k in rounds[a] if k in rounds[b])
    return f"per round {statistics.median(per):.3f} ({per[0]:.3f}-{per[-1]:.3f})"
def row(label, r, tokens):
    comm = "-" if r[1] is None else f"{r[1]:.1f}"
    print(f"| {label} | {r[0]:.1f} | {comm} | {tokens / (r[0] / 1000):.0f} | {r[2]} |")
w1, w2, b2 = load("fp32-w1"), load("fp32-w2"), load("bf16-w2")
print("| configuration | median step ms | median exposed comm ms | tokens/s (all ranks) | steps |")
print("|---|---|---|---|---|")
row("core W=1 unsharded fp32 (--reference)", w1, 512)
p1 = load("pair-w1")
row("two core W=1 processes at once (each)", p1, 1024)
load("pair-w1-a"), load("pair-w1-b")
# Per round, the slower of the two processes: the slower core's W=1 step.
rounds["pair-w1-slower"] = {k: max(rounds["pair-w1-a"][k], rounds["pair-w1-b"][k]) for k in rounds["pair-w1-a"]}
if peers:
    t1, d2 = load("torch-w1"), load("ddp-w2")
    row("PyTorch 1.13 W=1 fp32", t1, 512)
row("core W=2 sharded fp32", w2, 1024)
if peers:
    row("PyTorch 1.13 DDP W=2 fp32 (Gloo)", d2, 1024)
row("core W=2 sharded bf16 params, fp32 reduce", b2, 1024)
if peers2:
    t2, f2, b1, fb1, fb2 = load("torch2-w1"), load("fsdp2-w2"), load("bf16-w1"), load("fsdp2-bf16-w1"), load("fsdp2-bf16-w2")
    row("PyTorch 2.x W=1 fp32", t2, 512)
    row("PyTorch 2.x FSDP2 W=2 fp32 (Gloo)", f2, 1024)
    row("core W=1 bf16 params, fp32 reduce", b1, 512)
    row("PyTorch 2.x FSDP2 W=1 bf16 params, fp32 reduce", fb1, 512)
    row("PyTorch 2.x FSDP2 W=2 bf16 params, fp32 reduce (Gloo)", fb2, 1024)
if gloo:
    g2 = load("gloo-fp32-w2")
    row("core W=2 sharded fp32, Gloo (SB_SHM=0)", g2, 1024)
if sleep:
    s2 = load("sleep-fp32-w2")
    row("core W=2 sharded fp32, waits sleeping (SB_SHM_SPIN_US=0)", s2, 1024)
if aten:
    aw1, aw2, ab2 = load("aten-fp32-w1"), load("aten-fp32-w2"), load("aten-bf16-w2")
    row("core W=1 unsharded fp32, ATen's GELU, layer norm, loss and products", aw1, 512)
    row("core W=2 sharded fp32, ATen's GELU, layer norm, loss and products", aw2, 1024)
    row("core W=2 sharded bf16, ATen's GELU, layer norm, loss and products", ab2, 1024)
if base:
    bw1, bw2, bb2 = load("base-fp32-w1"), load("base-fp32-w2"), load("base-bf16-w2")
    row("baseline core W=1 unsharded fp32", bw1, 512)
    row("baseline core W=2 sharded fp32", bw2, 1024)
    row("baseline core W=2 sharded bf16", bb2, 1024)
print()
if base:
    print(f"core / baseline: W=1 {w1[0] / bw1[0]:.3f}, W=2 {w2[0] / bw2[0]:.3f}, bf16 W=2 {b2[0] / bb2[0]:.3f}")
    print(f"baseline W=2 / W=1 {bw2[0] / bw1[0]:.3f}, bf16 speed-up {bw2[0] / bb2[0]:.2f}x")
if aten:
    print(f"own kernels / ATen's: W=1 {paired('fp32-w1', 'aten-fp32-w1')}; W=2 {paired('fp32-w2', 'aten-fp32-w2')}; "
          f"bf16 W=2 {paired('bf16-w2', 'aten-bf16-w2')}")
    print(f"with ATen's kernels: W=1 / PyTorch W=1 " + (f"{paired('aten-fp32-w1', 'torch-w1')}" if peers else "-") +
          f"; bf16 speed-up {aw2[0] / ab2[0]:.2f}x")
if peers:
    print(f"core W=1 / PyTorch W=1: {w1[0] / t1[0]:.3f}  (goal <= 0.92); {paired('fp32-w1', 'torch-w1')}")
    print(f"core W=2 / DDP W=2:     {w2[0] / d2[0]:.3f}  (goal <= 0.95); {paired('fp32-w2', 'ddp-w2')}")
if peers2:
    print(f"core W=1 / PyTorch 2.x W=1, fp32:              {w1[0] / t2[0]:.3f}  (goal <= 0.85); {paired('fp32-w1', 'torch2-w1')}")
    print(f"core W=2 / FSDP2 W=2, fp32:                    {w2[0] / f2[0]:.3f}  (goal <= 0.80); {paired('fp32-w2', 'fsdp2-w2')}")
    print(f"core W=1 / PyTorch 2.x FSDP2 W=1, bf16:        {b1[0] / fb1[0]:.3f}  (goal <= 0.85); {paired('bf16-w1', 'fsdp2-bf16-w1')}")
    print(f"core W=2 / FSDP2 W=2, bf16:                    {b2[0] / fb2[0]:.3f}  (goal <= 0.80); {paired('bf16-w2', 'fsdp2-bf16-w2')}")
    print(f"core bf16 / PyTorch 2.x fp32 (its faster dtype on this CPU): W=1 {paired('bf16-w1', 'torch2-w1')}; "
          f"W=2 {paired('bf16-w2', 'fsdp2-w2')}")
if gloo:
    print(f"core W=2 shared memory / Gloo: {w2[0] / g2[0]:.3f}")
if sleep:
    print(f"core W=2 spinning / sleeping waits: {w2[0] / s2[0]:.3f}; {paired('fp32-w2', 'sleep-fp32-w2')}")
print(f"core W=2 / core W=1:    {w2[0] / w1[0]:.3f}  (goal <= 1.10); {paired('fp32-w2', 'fp32-w1')}")
print(f"two W=1 at once / one W=1: {p1[0] / w1[0]:.3f}  (this host's cost of two busy cores)")
print(f"core W=2 / two W=1 at once: {w2[0] / p1[0]:.3f}, {paired('fp32-w2', 'pair-w1')}" + (f"; DDP W=2 / two W=1 at once: {d2[0] / p1[0]:.3f}" if peers else ""))
print(f"core W=2 / the slower of two W=1 at once: {paired('fp32-w2', 'pair-w1-slower')}  (W=2 beside its slower core)")
print(f"bf16 speed-up at W=2:   {w2[0] / b2[0]:.2f}x  (goal >= 1.7); {paired('fp32-w2', 'bf16-w2')}")
speeds = {}
for l in open(os.path.join(work, "cores.txt")):
    r, core, g = l.split()
    speeds.setdefault(r, []).append(f"{g}")
print("each core alone before each round, GFLOP/s (512x512 fp32 product): " +
      "; ".join(f"round {r}: " + " / ".join(v) for r, v in sorted(speeds.items(), key=lambda kv: int(kv[0]))))
PY
