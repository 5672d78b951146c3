#!/usr/bin/env bash
# Installs every build, run and test dependency of shardbench from Debian 12's
# archive. Idempotent: packages already present are skipped by apt.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git python3
  # Qt 6: widgets, charts, SQL with the SQLite driver, test, SVG, linguist
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6sql6-sqlite
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libgl-dev
  # training core (libdnnl-dev: oneDNN's headers for the bf16 dense layers;
  # the library itself comes with libtorch)
  libtorch-dev libgloo-dev libopenblas0-openmp libdnnl-dev
  # PyTorch for Python: the independent reference that runs the exported
  # FSDP2 script against the core (engine_export_script)
  python3-torch python3-numpy
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
