#!/usr/bin/env bash
# The GPU checks of docs/performance-h100.md, on a machine with one
# CUDA GPU and PyTorch 2.x. Builds shardbench-core against the LibTorch inside
# PyTorch, then at W=1 with device cuda:
#   parity  the core sharded, unsharded (--reference) and with composed
#           attention, and the exported FSDP2 script under real PyTorch:
#           losses and gradient norms, fp32 and bf16;
#   speed   step time and tokens/s of the core and of PyTorch on a 0.54B model;
#   memory  the core's measured peak against the estimate and against PyTorch's.
# Everything (tables, logs) goes to OUT_DIR; the tables also to stdout.
# usage: tools/bench/gpu_check.sh OUT_DIR [BUILD_DIR]
# A dry run of the script itself on a CPU machine, with the project's
# environment (scripts/install-deps.sh): DEVICE=cpu SMALL=1 PY=.venv/bin/python.
set -uo pipefail
out=$(realpath -m "${1:-gpu-check}")
build=${2:-build-cuda}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-python3}
phase() { echo "== $(date +%T) $*"; }

phase environment
echo "$(nproc) CPUs; $(command -v nvcc g++ cmake ninja | tr '\n' ' ')"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null
"$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)'
prefix=$("$PY" -c 'import os, torch; print(os.path.dirname(torch.__file__))')  # the torch folder: its lib/ before any other LibTorch
site=$("$PY" -c 'import os, torch; print(os.path.dirname(os.path.dirname(torch.__file__)))')
nccl_h=$(find "$site/nvidia" /usr/local/cuda/include /usr/include -name nccl.h 2>/dev/null | head -1)
echo "LibTorch: $prefix; nccl.h: ${nccl_h:-none}; gloo: $(ls -d "$site/torch/include/gloo" 2>/dev/null || echo none)"

phase build
export PATH=/usr/local/cuda/bin:$PATH TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
if [ ! -f "$build/build.ninja" ] &&
   ! cmake -S . -B "$build" -G Ninja -DSHARDBENCH_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
       ${nccl_h:+-DSB_NCCL_INCLUDE_DIR="$(dirname "$nccl_h")"} >"$out/cmake.log" 2>&1; then
  tail -40 "$out/cmake.log"; exit 2
fi
if ! ninja -C "$build" -k 0 shardbench-core shardbench-cli >"$out/build.log" 2>&1; then
  grep -E -A3 "error|Error" "$out/build.log" | head -150; exit 3
fi
"$build/bin/shardbench-core" --version
cli="$build/bin/shardbench-cli"
core="$build/bin/shardbench-core"
port=29600
# bg CMD...: CMD in the background, with a rendezvous port of its own (a
# function run with & cannot advance the caller's counter); fg: in the foreground.
bg() { port=$((port + 1)); "$@" & }
fg() { port=$((port + 1)); "$@"; }

# run_core NAME PLAN [--core-option...] [VAR=value...]: one rank of the core.
run_core() {
  local name=$1 plan=$2 opts=() vars=(); shift 2
  for a in "$@"; do case $a in -*) opts+=("$a") ;; *) vars+=("$a") ;; esac; done
  env RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port "${vars[@]}" \
    "$core" --plan "$plan" "${opts[@]}" >"$out/$name.out" 2>"$out/$name.err"
}
# run_torch NAME PLAN: the plan's exported FSDP2 script under PyTorch, one rank.
run_torch() {
  local name=$1 plan=$2
  "$cli" export-script "$plan" -o "$out/$name.py" >/dev/null || return
  env RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
    "$PY" "${TORCH_RUNNER:-$here/torch_peak.py}" "$out/$name.py" >"$out/$name.out" 2>"$out/$name.err"
}
plan() { # NAME args...: a transformer plan for one CUDA rank, and its estimate
  local name=$1; shift
  "$cli" plan --preset transformer --procs-per-node 1 --device "${DEVICE:-cuda}" "$@" -o "$out/$name.json" >/dev/null &&
    "$cli" estimate "$out/$name.json" --json >"$out/$name.estimate.json"
}

phase parity
small=(--vocab 1024 --dim 256 --layers 4 --heads 4 --max-seq 128 --seq 128 --batch 8 --steps 20)
plan parity "${small[@]}"
plan parity-bf16 "${small[@]}" --param-dtype bf16
bg run_core parity-core "$out/parity.json"
bg run_core parity-ref "$out/parity.json" --reference
bg run_core parity-composed "$out/parity.json" SB_ATTENTION=reference
bg run_torch parity-torch "$out/parity.json"
bg run_core parity-bf16-core "$out/parity-bf16.json"
bg run_torch parity-bf16-torch "$out/parity-bf16.json"
wait
"$PY" "$here/gpu_report.py" parity "$out" parity-core parity-torch parity-ref parity-torch parity-core parity-ref \
  parity-composed parity-core parity-bf16-core parity-bf16-torch | tee "$out/parity.md"

phase speed
big=(--vocab 32768 --dim 2048 --layers 8 --heads 16 --max-seq 2048 --seq 2048 --batch 4)
[ -n "${SMALL:-}" ] && big=(--vocab 1024 --dim 128 --layers 2 --heads 4 --max-seq 64 --seq 64 --batch 2)
plan speed-bf16 "${big[@]}" --param-dtype bf16 --steps 12
plan speed-fp32 "${big[@]}" --steps 8
for p in ${SPEED_PLANS:-speed-bf16 speed-fp32}; do
  fg run_core "$p-core" "$out/$p.json"
  fg run_torch "$p-torch" "$out/$p.json"
done
"$PY" "$here/gpu_report.py" speed "$out" ${SPEED_PLANS:-speed-bf16 speed-fp32} | tee "$out/speed.md"

phase memory
bench=(--vocab 1024 --dim 256 --layers 8 --heads 4 --max-seq 64 --seq 64 --batch 8 --steps 3)
large=(--vocab 32768 --dim 1024 --layers 8 --heads 16 --max-seq 1024 --seq 1024 --batch 8 --steps 3)
[ -n "${SMALL:-}" ] && large=(--vocab 1024 --dim 128 --layers 2 --heads 4 --max-seq 64 --seq 64 --batch 2 --steps 3)
plan mem-blocks "${bench[@]}"
plan mem-noreshard "${bench[@]}" --reshard false
plan mem-ac "${bench[@]}" --ac full
plan mem-bf16 "${bench[@]}" --param-dtype bf16
plan mem-root "${bench[@]}" --units root
plan mem-accum "${bench[@]}" --accum 2
plan mem-large "${large[@]}"
plan mem-large-bf16-ac "${large[@]}" --param-dtype bf16 --ac full
names=(mem-blocks mem-noreshard mem-ac mem-bf16 mem-root mem-accum mem-large mem-large-bf16-ac)
for n in "${names[@]}"; do
  bg run_core "$n-core" "$out/$n.json"
  bg run_torch "$n-torch" "$out/$n.json"
done
cp "$out/mem-large.json" "$out/mem-large-composed.json"
cp "$out/mem-large.estimate.json" "$out/mem-large-composed.estimate.json"
bg run_core mem-large-composed-core "$out/mem-large.json" SB_ATTENTION=reference
wait
"$PY" "$here/gpu_report.py" memory "$out" "${names[@]}" mem-large-composed | tee "$out/memory.md"
phase done
