#!/usr/bin/env bash
# Installs every build, run and test dependency of shardbench: Debian 12's
# packages, then the project's Python environment .venv (PyTorch 2.x, FSDP2,
# transformers: scripts/python-requirements.txt) that the tests use as the
# oracle. Idempotent: packages already present are skipped by apt, and .venv is
# kept while the requirements file is unchanged.
#
#   scripts/install-deps.sh            # both (scripts/test.sh, CI)
#   scripts/install-deps.sh --system   # Debian's packages only (scripts/run.sh)
#
# Downloaded wheels are kept in $SHARDBENCH_WHEELS (default
# ~/.cache/shardbench/wheels), so a second clone on the machine installs
# without downloading again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build pkg-config git python3
  # compiler cache (cmake/CompilerCache.cmake): CI rebuilds what the machine built
  ccache
  # Qt 6: widgets, charts, SQL with the SQLite driver, test, SVG, linguist
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6sql6-sqlite
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev
  # training core (libdnnl-dev: oneDNN's headers for the bf16 dense layers;
  # the library itself comes with libtorch)
  libtorch-dev libgloo-dev libopenblas0-openmp libdnnl-dev
  # Debian's PyTorch 1.13 for Python (a peer in tools/bench/bench_engine.sh);
  # the tests' PyTorch 2.x is the project's environment (.venv, below), made
  # with Debian's Python
  python3-torch python3-numpy python3-venv
  # Qt Charts' CMake package needs Qt OpenGL's development files
  libqt6opengl6-dev
  # launcher and run store
  libssh-dev sqlite3 libsqlite3-dev openssh-server openssh-client
  # Slurm backend tests: a one-node cluster (slurmctld, slurmd, srun) with munge
  slurm-wlm munge
  # fuzzing (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # headless GUI tests and screenshots
  xvfb xauth x11-utils procps
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# LibTorch calls the system libblas.so.3; OpenBLAS (OpenMP) must own it, or
# matrix products fall back to the reference BLAS, ~25x slower.
if command -v update-alternatives >/dev/null; then
  blas=$(update-alternatives --query libblas.so.3-x86_64-linux-gnu 2>/dev/null | awk '/^Value:/{print $2}')
  case "$blas" in
    *openblas*) ;;
    *) echo "warning: libblas.so.3 is '$blas', not OpenBLAS" >&2 ;;
  esac
fi

[ "${1:-}" = "--system" ] && exit 0

# The Python environment: made afresh when the requirements change (a stamp in
# .venv holds the file it was made from).
requirements=scripts/python-requirements.txt
if ! cmp -s "$requirements" .venv/shardbench-requirements.txt 2>/dev/null; then
  wheels=${SHARDBENCH_WHEELS:-$HOME/.cache/shardbench/wheels}
  mkdir -p "$wheels"
  rm -rf .venv
  /usr/bin/python3 -m venv .venv  # Debian's (python3-venv above)
  echo "Python environment: downloading into $wheels what is not there yet (about 3 GB the first time)" >&2
  .venv/bin/python -m pip download --quiet --progress-bar off -d "$wheels" -r "$requirements"
  .venv/bin/python -m pip install --quiet --progress-bar off --no-index --find-links "$wheels" -r "$requirements"
  cp "$requirements" .venv/shardbench-requirements.txt
fi
