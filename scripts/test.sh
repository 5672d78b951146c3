#!/usr/bin/env bash
# Installs dependencies, builds everything and runs every test through ctest.
# This is the README's test command and what CI runs.
# It also builds the Qt-free tier (build-core: SHARDBENCH_GUI=OFF with Qt hidden
# from CMake; without the engine, which the main build has) and runs each of
# its commands on real inputs (tests/qtfree/run_commands.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build --parallel "$(nproc)"
cmake -S . -B build-core -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DSHARDBENCH_GUI=OFF -DSHARDBENCH_ENGINE=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON
cmake --build build-core --parallel "$(nproc)"
qtfree=0
bash tests/qtfree/run_commands.sh build-core/bin build/bin/shardbench-core || qtfree=$?
ctest --test-dir build --output-on-failure --timeout 900 "$@"
exit "$qtfree"
