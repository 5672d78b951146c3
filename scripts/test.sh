#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test through ctest.
# This is the README's test command and what CI runs.
# It also builds the Qt-free tier (build-core: SHARDBENCH_GUI=OFF with Qt hidden
# from CMake; without the engine, which the main build has) and runs each of
# its commands on real inputs (tests/qtfree/run_commands.sh), and builds the
# core with the engine suites against LibTorch 2.x (scripts/build-torch2.sh),
# which run after the main build's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --parallel "$(nproc)"
cmake -S . -B build-core -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSHARDBENCH_GUI=OFF -DSHARDBENCH_ENGINE=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON
cmake --build build-core --parallel "$(nproc)"
# The core, its command line and the engine suites against LibTorch 2.x
# (the environment's PyTorch, a CUDA build: the CUDA path compiles and links).
bash scripts/build-torch2.sh build-torch2
status=0
bash tests/qtfree/run_commands.sh build-core/bin build/bin/shardbench-core || status=$?
ctest --test-dir build --output-on-failure --timeout 900 "$@" || status=$?
# Two at a time: the multi-rank suites (PROCESSORS 2) alone, the in-process ones in pairs.
ctest --test-dir build-torch2 --output-on-failure --timeout 900 --parallel 2 -L engine "$@" || status=$?
exit "$status"
