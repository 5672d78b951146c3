#!/usr/bin/env bash
# Installs dependencies, builds shardbench and starts the workbench. On a
# machine without a display it runs the command-line twin instead: it writes
# the example plan's memory estimate.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --system
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# The programs only: the tests and benchmarks (about half of the compile time)
# are built by scripts/test.sh.
cmake --build build --parallel "$(nproc)" --target shardbench shardbench-cli shardbench-core shardbench-supervise
if [ -x build/bin/shardbench ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec build/bin/shardbench "$@"
fi
echo "No display: running the command-line twin on examples/tutorial-2ranks.json" >&2
build/bin/shardbench-cli validate examples/tutorial-2ranks.json
exec build/bin/shardbench-cli estimate examples/tutorial-2ranks.json --timeline --max-batch
