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
# A run that executes no test fails, and so does a target that runs none
# when no FILTER is given (a FILTER may leave a target with nothing to run).
#
#   scripts/run-tests.sh [FILTER]   # FILTER: a regular expression over test names
#
# scripts/test-all.sh runs it once per audio server with these set:
#   TEST_SELECTION  which tests, as "Target" or "Target=REGEX" words (default: every target)
#   TEST_REPORT     a file to write the counts and failures to; the closing line then
#                   reads "TEST_LABEL: N passed, N failed", and a run of no test is
#                   left for the caller to judge
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
$swift build --build-tests ${SWIFT_FLAGS:-} || exit 1

user_filter=${1:-}
selection=${TEST_SELECTION:-$(find Tests -mindepth 1 -maxdepth 1 -type d -name '*Tests' -printf '%f\n' | sort)}
passed=0 failed=0 ran_total=0 failing_targets=()
log=$(mktemp) failures=$(mktemp)
trap 'rm -f "$log" "$failures"' EXIT
for entry in $selection; do
  target=${entry%%=*}
  part=""
  [ "$entry" != "$target" ] && part=${entry#*=}
  # Both conditions in one regular expression: the FILTER as a lookahead.
  filter="^${target}\\."
  [ -n "$user_filter" ] && filter+="(?=.*(${user_filter}))"
  [ -n "$part" ] && filter+=".*(${part})"
  echo "== $target${part:+ ($part)}"
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
  if [ "${ran:-0}" -eq 0 ] && [ -z "$user_filter" ] && [ "$status" -eq 0 ]; then
    # Counted as one failure: a target that should run tests and ran none tested nothing.
    echo "$target ran no test"
    echo "$target ran no test (filter $filter)" >>"$failures"
    bad=1 status=1
  fi
  ran_total=$((ran_total + ${ran:-0}))
  passed=$((passed + ${ran:-0} - (bad > ${ran:-0} ? ${ran:-0} : bad)))
  failed=$((failed + bad))
  [ "$status" -eq 0 ] || failing_targets+=("$target")
done
if [ "$ran_total" -eq 0 ] && [ -z "${TEST_REPORT:-}" ] && [ ${#failing_targets[@]} -eq 0 ]; then
  echo "the run executed no test${user_filter:+: FILTER '$user_filter' matches none}" >>"$failures"
  failed=$((failed + 1))
  failing_targets+=("(none ran)")
fi
echo
if [ -n "${TEST_REPORT:-}" ]; then
  {
    echo "ran=$ran_total passed=$passed failed=$failed"
    [ ${#failing_targets[@]} -gt 0 ] && echo "failing test targets: ${failing_targets[*]}"
    cat "$failures"
  } >"$TEST_REPORT"
  echo "${TEST_LABEL:-this server}: $passed passed, $failed failed"
else
  if [ ${#failing_targets[@]} -gt 0 ]; then
    # Repeated here, at the end, where a log cut to its tail still shows them.
    echo "failures:"
    cat "$failures"
    echo "failing test targets: ${failing_targets[*]}"
  fi
  echo "tests: $passed passed, $failed failed"
fi
[ ${#failing_targets[@]} -eq 0 ]
