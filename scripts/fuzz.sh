#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang under AddressSanitizer
# and UndefinedBehaviorSanitizer (build folder build-fuzz/) and runs each from
# its seed corpus for a bounded time. A crash, a leak, a sanitizer report, an
# input slower than the time-out or over the memory limit fails the script.
#
#   scripts/fuzz.sh                   # 60 s per target (CI)
#   FUZZ_SECONDS=600 scripts/fuzz.sh  # longer, by hand
# Reproduce a failure: build-fuzz/bin/fuzz_<target> build-fuzz/<target>-crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
build=build-fuzz
targets=(plan_json checkpoint_index event_line follow_record)

bash scripts/install-deps.sh --system
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_CXX_FLAGS="$sanitizers -fsanitize=fuzzer-no-link" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitizers" \
  -DSHARDBENCH_GUI=OFF -DSHARDBENCH_ENGINE=OFF -DSHARDBENCH_FUZZ=ON
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]/#/fuzz_}"

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1
failed=()
for t in "${targets[@]}"; do
  echo "== fuzz_$t: ${seconds}s from tests/fuzz/corpus/$t"
  found=$(mktemp -d) # inputs found this run; the committed corpus stays as it is
  # libFuzzer prints a line per new input (thousands): they go to a log, and
  # only its final statistics, or on a failure its last 80 lines, are shown.
  log="$build/fuzz_$t.log"
  if "$build/bin/fuzz_$t" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/$t-" "$found" "tests/fuzz/corpus/$t" > "$log" 2>&1; then
    grep -E '^(Done|stat::)' "$log" || true
  else
    tail -n 80 "$log"
    failed+=("$t")
  fi
  rm -rf "$found"
done
if ((${#failed[@]})); then
  echo "fuzzing failed: ${failed[*]} (inputs saved as $build/<target>-crash-*, -leak-*, -timeout-*, -oom-*)" >&2
  exit 1
fi
echo "fuzzing passed: ${targets[*]}, ${seconds}s each"
