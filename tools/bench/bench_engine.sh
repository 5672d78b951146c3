#!/usr/bin/env bash
# Engine benchmark (issue: bench model vocab 1024, dim 256, 8 layers, 4 heads,
# seq 64, micro-batch 8 per rank, every block a unit + root, one compute
# thread per rank). Runs W=1 unsharded (--reference) and W=2 sharded
# alternately, ROUNDS times each, and prints median step times and ratios.
# usage: tools/bench/bench_engine.sh [BUILD_DIR] [ROUNDS] [STEPS]
set -euo pipefail
BIN=${1:-build}/bin
ROUNDS=${2:-3}
STEPS=${3:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((31000 + RANDOM % 2000))

plan() { # name procs extra...
  local name=$1 procs=$2; shift 2
  "$BIN/shardbench-cli" plan --preset transformer --vocab 1024 --dim 256 --layers 8 --heads 4 --max-seq 64 --seq 64 \
    --batch 8 --procs-per-node "$procs" --steps "$STEPS" "$@" -o "$work/$name.json" >/dev/null
}

run() { # name world extra-core-args... ; appends "step_ms comm_ms tokens_per_s" lines (steps > 5) to $work/$name.txt
  local name=$1 world=$2; shift 2
  local pids=()
  for r in $(seq 0 $((world - 1))); do
    RANK=$r WORLD_SIZE=$world LOCAL_RANK=$r LOCAL_WORLD_SIZE=$world MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SB_THREADS=1 \
      "$BIN/shardbench-core" --plan "$work/$name.json" "$@" >"$work/$name.out$r" 2>/dev/null &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  port=$((port + 1))
  python3 - "$work/$name.out0" >>"$work/$name.txt" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    if not line.startswith("@sb "): continue
    e = json.loads(line[4:])
    if e["type"] == "step" and e["step"] > 5:
        print(e["step_ms"], e["comm_exposed_ms"], e["tokens_per_s"])
PY
}

plan fp32-w1 1
plan fp32-w2 2
plan bf16-w1 1 --param-dtype bf16 --reduce-dtype fp32
plan bf16-w2 2 --param-dtype bf16 --reduce-dtype fp32
for i in $(seq 1 "$ROUNDS"); do
  run fp32-w1 1 --reference
  run fp32-w2 2
  run bf16-w2 2
done

python3 - "$work" <<'PY'
import statistics, sys, os
work = sys.argv[1]
def load(n):
    rows = [tuple(map(float, l.split())) for l in open(os.path.join(work, n + ".txt"))]
    return (statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows),
            statistics.median(r[2] for r in rows), len(rows))
w1, w2, b2 = load("fp32-w1"), load("fp32-w2"), load("bf16-w2")
print("| configuration | median step ms | median exposed comm ms | tokens/s (all ranks) | steps |")
print("|---|---|---|---|---|")
print(f"| W=1 unsharded fp32 (reference) | {w1[0]:.1f} | - | {w1[2]:.0f} | {w1[3]} |")
print(f"| W=2 sharded fp32 | {w2[0]:.1f} | {w2[1]:.1f} | {w2[2]:.0f} | {w2[3]} |")
print(f"| W=2 sharded bf16 params, fp32 reduce | {b2[0]:.1f} | {b2[1]:.1f} | {b2[2]:.0f} | {b2[3]} |")
print()
print(f"W=2 / W=1 step time (fp32): {w2[0] / w1[0]:.3f}  (goal <= 1.10)")
print(f"bf16 speed-up over fp32 at W=2: {w2[0] / b2[0]:.2f}x")
PY
