#!/usr/bin/env bash
# Saves a PNG of each view of the workbench to docs/screenshots/: starts
# build/bin/shardbench-screenshots (tools/screenshots, a developer tool
# that opens the real workbench window) under Xvfb,
# which loads a few representative plans, grabs each view, then trains a
# small model with the real shardbench-core next to it (three runs into a
# temporary run store: launched, stopped, restored from a checkpoint on 3
# ranks, and one launched detached, followed, detached and stopped; about a
# minute), grabs the Cluster, Run, Runs and Checkpoints areas and quits.
#
#   scripts/screenshots.sh [BUILD_DIR]      (default: build; needs -DSHARDBENCH_ENGINE=ON)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/docs/screenshots
app=$build/bin/shardbench-screenshots
[ -x "$app" ] || { echo "screenshots.sh: $app not found; build first" >&2; exit 1; }
[ -x "$build/bin/shardbench-core" ] || { echo "screenshots.sh: $build/bin/shardbench-core not found; build with -DSHARDBENCH_ENGINE=ON" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "screenshots.sh: xvfb-run not found (apt-get install xvfb xauth)" >&2; exit 1; }
# The Chinese screenshots need a font with Chinese glyphs, or every character is a box.
[ -n "$(fc-list :lang=zh 2>/dev/null)" ] || { echo "screenshots.sh: no font with Chinese glyphs (apt-get install fonts-wqy-microhei)" >&2; exit 1; }

# Fresh settings, so a developer's saved layout or language never leaks in.
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
mkdir -p "$out"
XDG_CONFIG_HOME=$config XDG_DATA_HOME=$config/data LANG=C.UTF-8 LC_ALL=C.UTF-8 QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 1920x1200x24" \
  "$app" --out "$out" --source-dir "$root"
ls -1 "$out"/*.png
