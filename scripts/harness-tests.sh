#!/usr/bin/env bash
# Tests of the test harness itself: that a test server which ends under a target
# is counted as a failure of that target, with the end of its log, and that the
# next target runs against the server started again at the same address; on
# PulseAudio (SIGABRT, as its shared-memory assertion ends it) and on pipewire-pulse
# (SIGKILL, SIGSEGV), through scripts/run-tests.sh and up to test-all.sh's closing
# line. The first crash of a run (SIGSEGV, SIGABRT) runs its target again once, and
# that run counts; a kill from outside, or a second crash, counts as a failure.
#
# The Swift tests are played by a stand-in for `swift` (SWIFT=…): `build` does
# nothing, and `test --filter '^Target\.…'` prints what Swift Testing prints for the
# target's part of HARNESS_PLAN, words "Target:what":
#   live        one test, which passes when `pactl info` reaches the server
#   kill-SIG    kills the server's pulseaudio or pipewire-pulse with SIG, waits 2 s
#               (the watcher looks twice a second), then two tests pass
#   kill-SIG-failing  the same, and a third test fails
#   kill-SIG-once-failing  kills the server and fails a test in the target's first
#               run only; a run after it passes its two tests
# Other targets run no test. Each case takes a few seconds; no Swift is built.
#
#   scripts/harness-tests.sh
#
# With TEST_REPORT set, the counts go there as "ran=N passed=N failed=N" and the
# failures after it, as scripts/run-tests.sh writes them.
set -uo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0  # the aborted servers leave no core

cat >"$work/swift" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = test ] || exit 0
while [ $# -gt 0 ]; do [ "$1" = --filter ] && filter=$2; shift; done
target=${filter#^}
target=${target%%\\.*}
what=""
for word in $HARNESS_PLAN; do [ "${word%%:*}" = "$target" ] && what=${word#*:}; done
if [ "$what" != "${what%-once-failing}" ]; then
  if [ -e "$HARNESS_WORK/killed" ]; then what=two; else touch "$HARNESS_WORK/killed"; what=${what%-once-failing}-failing; fi
fi
echo "◇ Test run started."
case "$what" in
two)
  echo "✔ Test first() passed after 0.010 seconds."
  echo "✔ Test second() passed after 0.010 seconds."
  echo "✔ Test run with 2 tests passed after 0.010 seconds."
  ;;
live)
  if timeout 5 pactl info >/dev/null 2>&1; then
    echo "✔ Test serverAnswers() passed after 0.010 seconds."
    echo "✔ Test run with 1 test passed after 0.010 seconds."
    exit 0
  fi
  echo "✘ Test serverAnswers() recorded an issue at Fake.swift:1:1: Expectation failed: pactl info"
  echo "✘ Test serverAnswers() failed after 0.010 seconds with 1 issue."
  echo "✘ Test run with 1 test failed after 0.010 seconds with 1 issue."
  exit 1
  ;;
kill-*)
  signal=${what#kill-}
  signal=${signal%-failing}
  socket=${PULSE_SERVER#unix:}
  case "$socket" in
  */runtime/pulse/native) pidfile=${socket%/runtime/pulse/native}/pipewire-pulse.pid ;;
  *) pidfile=${socket%/native}/pid ;;
  esac
  kill "-$signal" "$(cat "$pidfile")"
  sleep 2
  echo "✔ Test first() passed after 0.010 seconds."
  echo "✔ Test second() passed after 0.010 seconds."
  if [ "$what" != "${what%-failing}" ]; then
    echo "✘ Test third() recorded an issue at Fake.swift:1:1: Expectation failed: 1 == 2"
    echo "✘ Test third() failed after 0.010 seconds with 1 issue."
    echo "✘ Test run with 3 tests failed after 2.000 seconds with 1 issue."
    exit 1
  fi
  echo "✔ Test run with 2 tests passed after 2.000 seconds."
  ;;
*) echo "✔ Test run with 0 tests passed after 0.001 seconds." ;;
esac
FAKE
chmod +x "$work/swift"

passed=0 failed=0 report=$work/failures
: >"$report"
# check NAME CONDITION: one test; a failed one is named with the run's output.
check() {
  if eval "$2"; then
    passed=$((passed + 1)) && echo "✔ $1"
  else
    failed=$((failed + 1)) && echo "✘ $1" && { echo "harness: $1 (failed: $2); the run printed:"; sed 's/^/  | /' "$work/out"; } | tee -a "$report"
  fi
}
run() {
  # The runs under test report on their own closing line, not into this script's TEST_REPORT.
  rm -f "$work/killed"
  env -u TEST_REPORT -u TEST_LABEL -u TEST_SELECTION SWIFT="$work/swift" HARNESS_WORK="$work" "$@" >"$work/out" 2>&1
  status=$?
}

run HARNESS_PLAN="AudioTests:live ParleyCommandTests:live" TEST_SELECTION="AudioTests ParleyCommandTests" \
  scripts/with-test-server.sh scripts/run-tests.sh
check "a run whose server stays up passes and counts its tests" \
  '[ "$status" -eq 0 ] && grep -q "^tests: 2 passed, 0 failed$" "$work/out"'

run HARNESS_PLAN="AudioTests:kill-ABRT-failing ParleyCommandTests:live" TEST_SELECTION="AudioTests ParleyCommandTests" \
  scripts/with-test-server.sh scripts/run-tests.sh
check "PulseAudio aborted under a target: its failure and the abort both count, and the next target passes" \
  '[ "$status" -ne 0 ] && grep -q "^tests: 3 passed, 2 failed$" "$work/out" && grep -q "^failing test targets: AudioTests$" "$work/out"'
check "the abort is named with the end of the server's log" \
  'grep -q "^AudioTests: .* pulseaudio (pid [0-9]*) ended on its own; its log ends: .* | " "$work/out"'
check "the target ran again once after the first abort, not after the second" \
  '[ "$(grep -c "runs again (once a run)" "$work/out")" -eq 1 ] && grep -q "^   server crash: AudioTests: .* pulseaudio (pid [0-9]*) ended on its own" "$work/out"'

run HARNESS_PLAN="AudioTests:kill-SEGV-once-failing ParleyCommandTests:live" TEST_SELECTION="AudioTests ParleyCommandTests" \
  scripts/with-test-server.sh --pipewire scripts/run-tests.sh
check "pipewire-pulse crashed once under a target: the target runs again, that run counts, and the crash is named" \
  '[ "$status" -eq 0 ] && grep -q "^tests: 3 passed, 0 failed$" "$work/out" \
     && grep -q "^server crash: AudioTests: .* pipewire-pulse (pid [0-9]*) ended on its own; .*signal SIGSEGV$" "$work/out" \
     && grep -q "^with-test-server.sh: .* pipewire-pulse (pid [0-9]*) crashed (its target ran again)" "$work/out"'

run HARNESS_PLAN="AudioTests:kill-KILL ParleyCommandTests:live" TEST_SELECTION="AudioTests ParleyCommandTests" \
  scripts/with-test-server.sh --pipewire scripts/run-tests.sh
check "pipewire-pulse killed under a target that passed: the target fails, the next passes" \
  '[ "$status" -ne 0 ] && grep -q "^tests: 3 passed, 1 failed$" "$work/out" && grep -q "^AudioTests: .* pipewire-pulse (pid [0-9]*) ended on its own" "$work/out"'

run scripts/with-test-server.sh bash -c \
  'kill -KILL "$(cat "$(dirname "${PULSE_SERVER#unix:}")/pid")"; sleep 2; pactl info >/dev/null'
check "a command that succeeds while its server ends fails, with the end named" \
  '[ "$status" -eq 1 ] && grep -q "^with-test-server.sh: .* pulseaudio (pid [0-9]*) ended on its own" "$work/out"'

run HARNESS_PLAN="AudioTests:kill-ABRT ParleyCommandTests:live" scripts/test-all.sh 'ends'
check "test-all's closing line counts the second abort on each server, the first having run its target again" \
  '[ "$status" -ne 0 ] && grep -q "^PulseAudio server: [0-9]* passed, 1 failed; the server crashed once, and its target ran again$" "$work/out" \
     && grep -q "^PipeWire server: [0-9]* passed, 1 failed; the server crashed once" "$work/out" && grep -q "^tests: [0-9]* passed, 2 failed$" "$work/out"'

echo "harness: $passed passed, $failed failed"
if [ -n "${TEST_REPORT:-}" ]; then
  { echo "ran=$((passed + failed)) passed=$passed failed=$failed"; cat "$report"; } >"$TEST_REPORT"
fi
[ "$failed" -eq 0 ]
