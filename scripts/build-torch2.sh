#!/usr/bin/env bash
# Builds shardbench-core, shardbench-cli and the engine test suites against
# LibTorch 2.x: the one inside the project environment's PyTorch (.venv, made
# by scripts/install-deps.sh), a CUDA build. The CUDA/NCCL path is compiled and
# linked (CUDA toolkit and nccl.h from /usr/local/cuda); the CPU tests run with
# it on the CPU (scripts/test.sh: ctest --test-dir build-torch2 -L engine).
#
#   scripts/build-torch2.sh [BUILD_DIR]   # default build-torch2
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-torch2}
python=.venv/bin/python
[ -x "$python" ] || { echo "build-torch2: $python not found: run scripts/install-deps.sh first" >&2; exit 2; }
# The torch folder itself, not torch.utils.cmake_prefix_path: its lib/ must come
# before Debian's LibTorch 1.13 in /usr/lib (core/engine/CMakeLists.txt checks).
torch_dir=$("$python" -c 'import os, torch; print(os.path.dirname(torch.__file__))')
export PATH=/usr/local/cuda/bin:$PATH
# Compile only: no kernels of ours are built for any GPU, so one architecture
# is enough for TorchConfig (which asks for a list).
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH="$torch_dir" \
  -DSHARDBENCH_WORKBENCH=OFF -DSHARDBENCH_TEST_AREAS=engine -DSHARDBENCH_ORACLE_ROWS=representative
# The CUDA path is the point of this build: a LibTorch without CUDA here is an error.
grep -q '^SB_NCCL_INCLUDE_DIR:PATH=.' "$build/CMakeCache.txt" ||
  { echo "build-torch2: $torch_dir is not a CUDA build of LibTorch (no CUDA path configured)" >&2; exit 2; }
cmake --build "$build" --parallel "$(nproc)" --target sb_engine_tests
