#!/usr/bin/env bash
# Builds the tests once, then runs each test target in its own process, one
# after the other, and closes with one line counting every test.
#
# Why not one `swift test`: in one process the suites of every target run in
# parallel on a cooperative thread pool as wide as the machine (2 threads
# here). The end-to-end suites block those threads while they wait for child
# processes, and the fast suites that await fake engines then starve and time
# out. One process per target keeps each target's tests in parallel with
# each other only.
#
#   scripts/run-tests.sh [FILTER]   # FILTER: a regular expression over test names
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
$swift build --build-tests ${SWIFT_FLAGS:-} || exit 1

targets=$(find Tests -mindepth 1 -maxdepth 1 -type d -name '*Tests' -printf '%f\n' | sort)
passed=0 failed=0 failing_targets=()
log=$(mktemp) failures=$(mktemp)
trap 'rm -f "$log" "$failures"' EXIT
for target in $targets; do
  filter="^${target}\\."
  [ -n "${1:-}" ] && filter="^${target}\\..*(${1})"
  echo "== $target"
  $swift test --skip-build ${SWIFT_FLAGS:-} --filter "$filter" >"$log" 2>&1
  status=$?
  grep -E '✘|Test run with|error:|[Ff]atal' "$log"
  ran=$(grep -oE 'Test run with [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  bad=$(grep -E '^✘ Test .* failed after' "$log" | grep -vc '^✘ Test run')
  if [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1
    { echo "$target ended with status $status; its last lines:"; tail -n 15 "$log"; } >>"$failures"
  else
    grep -E '^✘ Test .* (recorded an issue|failed after)' "$log" | grep -v '^✘ Test run' | cut -c1-2000 >>"$failures"
  fi
  passed=$((passed + ${ran:-0} - bad))
  failed=$((failed + bad))
  [ "$status" -eq 0 ] || failing_targets+=("$target")
done
echo
if [ ${#failing_targets[@]} -gt 0 ]; then
  # Repeated here, at the end, where a log cut to its tail still shows them.
  echo "failures:"
  cat "$failures"
  echo "failing test targets: ${failing_targets[*]}"
fi
echo "tests: $passed passed, $failed failed"
[ ${#failing_targets[@]} -eq 0 ]
