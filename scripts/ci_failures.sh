#!/usr/bin/env bash
# Prints, from a saved `scripts/test.sh` log, ctest's list of failed tests and
# the last lines of each failed test's output (ctest --output-on-failure
# prints it after the test's result line, up to the next test's "Start").
#   scripts/ci_failures.sh build/ci-tests.log [LINES]
set -uo pipefail
log=$1
lines=${2:-60}
echo "== CI: tests failed; summary from $log"
if ! grep -q 'The following tests FAILED' "$log"; then
  echo "(no ctest summary: the build or the Qt-free commands failed; the log's last $lines lines)"
  tail -n "$lines" "$log"
  exit 0
fi
sed -n '/tests passed, .* tests failed/,$p' "$log"
# Each failed result line looks like "12/69 Test #12: name ....***Failed  4.2 sec".
grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*|Failed|Timeout|Exception)' "$log" |
  sed -E 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*/\1/' | sort -u |
  while read -r name; do
    echo "== output of $name (last $lines lines)"
    awk -v n="$name" '
      $0 ~ "Test +#[0-9]+: " n " " { on = 1; next }
      on && /^ +Start +[0-9]+: / { on = 0 }
      on { print }' "$log" | tail -n "$lines"
  done
