#!/usr/bin/env bash
# The Whisper worker's own tests (worker/tests: stdlib unittest, no model, no CTranslate2),
# run with the Whisper environment's Python when it is installed (the one the worker runs
# on), else python3. Closes with "worker tests: N passed, N failed"; with TEST_REPORT set,
# also writes "ran=N passed=N failed=N" and the failed tests there, as scripts/run-tests.sh
# does. Fails when a test fails or none ran.
#
#   scripts/worker-tests.sh
set -uo pipefail
cd "$(dirname "$0")/.."
python="${XDG_DATA_HOME:-$HOME/.local/share}/parley/whisper-env/bin/python3"
[ -x "$python" ] || python=python3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "=== the worker's own tests, with $python"
"$python" -m unittest discover -s worker/tests -v 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
ran=$(sed -n 's/^Ran \([0-9][0-9]*\) tests\{0,1\} in .*/\1/p' "$log" | tail -n 1)
ran=${ran:-0}
# A test with failed subtests is listed once per subtest: counted once.
failing=$(grep -E '^(FAIL|ERROR): ' "$log" | awk '{ print $2, $3 }' | sort -u)
failed=$(printf '%s' "$failing" | grep -c . || true)
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 failing="unittest ended with status $status"
fi
if [ "$ran" -eq 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 failing="no worker test ran"
fi
passed=$((ran > failed ? ran - failed : 0))
if [ -n "${TEST_REPORT:-}" ]; then
  { echo "ran=$ran passed=$passed failed=$failed"; [ -n "$failing" ] && printf '%s\n' "$failing"; } >"$TEST_REPORT"
fi
echo "worker tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
