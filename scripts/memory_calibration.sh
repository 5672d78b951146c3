#!/usr/bin/env bash
# Measured peak memory of shardbench-core (tracking allocator, rank 0, step 3)
# against the estimator's prediction, for several plans. Prints a Markdown table.
# usage: scripts/memory_calibration.sh [BUILD_DIR]
set -euo pipefail
BIN=${1:-build}/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((30000 + RANDOM % 2000))

measure() { # name world plan-args...
  local name=$1 world=$2; shift 2
  "$BIN/shardbench-cli" plan --preset transformer --procs-per-node "$world" --steps 3 "$@" -o "$work/p.json" >/dev/null
  local pids=()
  for r in $(seq 0 $((world - 1))); do
    RANK=$r WORLD_SIZE=$world LOCAL_RANK=$r LOCAL_WORLD_SIZE=$world MASTER_ADDR=127.0.0.1 MASTER_PORT=$port SB_THREADS=1 \
      "$BIN/shardbench-core" --plan "$work/p.json" >"$work/out$r" 2>"$work/err$r" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  port=$((port + 1))
  local measured estimated
  measured=$(grep '"step":3,' "$work/out0" | sed 's/.*"mem_peak":\([0-9]*\).*/\1/')
  estimated=$("$BIN/shardbench-cli" estimate "$work/p.json" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["ranks"][0]["peak_bytes"])')
  python3 - "$name" "$world" "$measured" "$estimated" <<'PY'
import sys
name, world, m, e = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
print(f"| {name} | {world} | {m/2**20:.1f} | {e/2**20:.1f} | {e/m:.3f} |")
PY
}

echo "| plan (tutorial Transformer) | W | measured peak MiB | estimated MiB | estimate / measured |"
echo "|---|---|---|---|---|"
measure "bench model, blocks as units" 2
measure "bench model, reshard false" 2 --reshard false
measure "bench model, activation checkpointing" 2 --ac full
measure "bench model, bf16 params, fp32 reduce" 2 --param-dtype bf16
measure "bench model, root only" 2 --units root
measure "bench model, 4 ranks" 4
measure "bench model, 4 ranks, reshard_after_forward 2" 4 --reshard 2
measure "bench model, 2 micro-batches accumulated" 2 --accum 2
measure "wide: dim 512, 4 layers, seq 128, batch 4" 2 --dim 512 --layers 4 --max-seq 128 --seq 128 --batch 4
measure "tiny: dim 64, 2 layers, vocab 256, seq 32" 2 --dim 64 --layers 2 --heads 2 --vocab 256 --max-seq 32 --seq 32
