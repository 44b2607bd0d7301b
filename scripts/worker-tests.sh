#!/usr/bin/env bash
# The Whisper worker's own tests (worker/tests: pytest, configured in worker/pyproject.toml; no
# model, no CTranslate2), run with the Whisper environment's Python when it is installed (the
# one the worker runs on, where `make test` installs pytest: scripts/install-whisper.sh
# --tests), else python3. Closes with "worker tests: N passed, N failed"; with TEST_REPORT set,
# also writes "ran=N passed=N failed=N" and the failed tests there, as scripts/run-tests.sh
# does. Fails when a test fails or none ran.
#
#   scripts/worker-tests.sh [PYTEST ARGUMENTS]   # e.g. -k tokenizer
set -uo pipefail
report=${TEST_REPORT:+$(realpath -m "$TEST_REPORT")}
cd "$(dirname "$0")/../worker"
python="${XDG_DATA_HOME:-$HOME/.local/share}/parley/whisper-env/bin/python3"
[ -x "$python" ] || python=python3
results=$(mktemp) missing=
trap 'rm -f "$results"' EXIT
echo "=== the worker's own tests, with $python"
if "$python" -c 'import pytest' 2>/dev/null; then
  "$python" -m pytest -v --continue-on-collection-errors --junit-xml="$results" "$@" 2>&1
  status=$?
else
  missing="pytest is not installed for $python: run scripts/install-whisper.sh --tests (make test does)"
  echo "$missing"
  status=1
fi
# The counts, then each failed test's name and the first line of its failure, from pytest's
# JUnit report.
summary=$("$python" - "$results" <<'PY' 2>/dev/null
import sys
import xml.etree.ElementTree as tree

ran, failing = 0, []
for case in tree.parse(sys.argv[1]).iter("testcase"):
    if case.find("skipped") is not None:
        continue
    ran += 1
    fault = case.find("failure") if case.find("failure") is not None else case.find("error")
    if fault is not None:
        name = ".".join(part for part in (case.get("classname"), case.get("name")) if part)
        message = (fault.get("message") or "").strip().splitlines()
        failing.append(f"{name}: {message[0][:300]}" if message else name)
print(ran, len(failing))
print("\n".join(failing))
PY
)
read -r ran failed <<<"$(head -n 1 <<<"$summary")"
ran=${ran:-0} failed=${failed:-0}
failing=$(tail -n +2 <<<"$summary")
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 failing=${missing:-"pytest ended with status $status"}
fi
if [ "$ran" -eq 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 failing="no worker test ran"
fi
passed=$((ran > failed ? ran - failed : 0))
if [ -n "$report" ]; then
  { echo "ran=$ran passed=$passed failed=$failed"; [ -n "$failing" ] && printf '%s\n' "$failing"; } >"$report"
fi
echo "worker tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
