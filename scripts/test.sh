#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test through ctest.
# This is the README's test command and what CI runs.
# It also builds the Qt-free tier (build-core: SHARDBENCH_GUI=OFF with Qt hidden
# from CMake; without the engine, which the main build has) and runs each of
# its commands on real inputs (tests/qtfree/run_commands.sh), and builds the
# core with the engine suites against LibTorch 2.x (scripts/build-torch2.sh),
# whose suites run beside the main build's tests.
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
# Three test runs go side by side, each one test at a time: the main build's
# engine suites (CPU-bound training), the same suites against LibTorch 2.x, and
# the main build's other suites (launcher, GUI, plan), which wait on processes,
# sockets and timers for most of their time while the other two take the CPU.
# The background runs' output is kept in their folders and printed after the
# foreground run's.
engine_log=build/ctest-engine.log
torch2_log=build-torch2/ctest.log
ctest --test-dir build --output-on-failure --timeout 900 -L engine "$@" >"$engine_log" 2>&1 &
engine=$!
ctest --test-dir build-torch2 --output-on-failure --timeout 900 -L engine "$@" >"$torch2_log" 2>&1 &
torch2=$!
ctest --test-dir build --output-on-failure --timeout 900 -LE engine "$@" || status=$?
engine_status=0
wait "$engine" || engine_status=$?
torch2_status=0
wait "$torch2" || torch2_status=$?
echo "== the engine suites (build)"
cat "$engine_log"
echo "== the engine suites against LibTorch 2.x (build-torch2)"
cat "$torch2_log"
[ "$engine_status" -eq 0 ] || status=$engine_status
[ "$torch2_status" -eq 0 ] || status=$torch2_status
exit "$status"
