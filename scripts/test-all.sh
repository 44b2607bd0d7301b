#!/usr/bin/env bash
# What `make test` runs: the Whisper worker's own Python tests
# (scripts/worker-tests.sh: no model, no audio server), the harness's own tests
# (scripts/harness-tests.sh: a server that ends under a target is counted), every test target on a
# private PulseAudio server, then the suites that talk to an audio server again
# on a private PipeWire server (pipewire-pulse), and one closing line counting
# every run:
#
#   tests: N passed, N failed
#
# It fails when any run fails, or when no test ran at all. With a FILTER the
# worker's and the harness's tests are not run (FILTER picks Swift tests by name).
# A process of a test server that ends during a run is one failure of the target
# it ended under (scripts/run-tests.sh), and is started again for the next; the
# first crash of a server's run runs its target again instead, and is listed at the end.
#
#   scripts/test-all.sh [FILTER]   # FILTER: a regular expression over test names
set -uo pipefail
cd "$(dirname "$0")/.."
filter=${1:-}

# On PipeWire: the audio session, `parley dialog` end to end (PocketSphinx,
# Whisper, and Wyoming servers), the one record stream of a conversation, a conversation across a
# restart of its server, and doctor. DialogueTests
# drive the coordinator with fake engines and never reach an audio server.
# Barge-in, the dialogue with a headset each, and simultaneous interpretation in echo rooms
# time what they hear: like the suites in run-tests.sh's `alone`, each runs by itself after the rest.
pipewire_selection="AudioTests ParleyCommandTests=DialogueEndToEndTests|DialogueRecordStreamTests|spanishSpeakerInADialogue|PivotDialogueTests|DoctorCommandTests|DialogueReconnectTests|EchoCancelDialogueTests|threeLanguages|serverComesAndGoes|ShutdownTests|CookieFileTests|OneMicrophoneTests ParleyCommandTests=BargeInDialogueTests ParleyCommandTests=VoiceSideDialogueTests ParleyCommandTests=SharedMicrophoneTests ParleyCommandTests=WyomingDialogueTests ParleyCommandTests=simultaneousWithoutCanceller|sideBOnAnotherServer|simultaneousRoom ParleyCommandTests=simultaneousInEchoRooms"

reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
runs=(PulseAudio PipeWire)
if [ -z "$filter" ]; then
  TEST_REPORT=$reports/Worker scripts/worker-tests.sh
  echo "$?" >"$reports/Worker.status"
  echo
  echo "=== the test harness: servers that end under a target"
  TEST_REPORT=$reports/Harness scripts/harness-tests.sh
  echo "$?" >"$reports/Harness.status"
  runs=(Worker Harness "${runs[@]}")
  echo
fi
echo "=== on a private PulseAudio server: every test target"
TEST_REPORT=$reports/PulseAudio TEST_LABEL="PulseAudio server" \
  scripts/with-test-server.sh scripts/run-tests.sh "$filter"
echo "$?" >"$reports/PulseAudio.status"
echo "(the PulseAudio run took $SECONDS s)"
echo
echo "=== on a private PipeWire server (pipewire-pulse): AudioTests; DialogueEndToEndTests, WyomingDialogueTests, DialogueRecordStreamTests, spanishSpeakerInADialogue, PivotDialogueTests, DoctorCommandTests, DialogueReconnectTests, EchoCancelDialogueTests, BargeInDialogueTests, ShutdownTests, CookieFileTests, OneMicrophoneTests, VoiceSideDialogueTests, SharedMicrophoneTests, the room of three languages and the room whose remote server comes and goes, the room interpreted while spoken, and the dialogue with a headset each (and side B on another server) of ParleyCommandTests"
echo "DialogueTests: not run again on PipeWire (fake engines, no audio server)"
TEST_REPORT=$reports/PipeWire TEST_LABEL="PipeWire server" TEST_SELECTION=$pipewire_selection \
  scripts/with-test-server.sh --pipewire scripts/run-tests.sh "$filter"
echo "$?" >"$reports/PipeWire.status"
echo "(both runs took $SECONDS s)"

ran=0 passed=0 failed=0 failing=()
for server in "${runs[@]}"; do
  report=$reports/$server
  if [[ -s "$report" && $(head -n 1 "$report") =~ ^ran=([0-9]+)\ passed=([0-9]+)\ failed=([0-9]+)$ ]]; then
    ran=$((ran + BASH_REMATCH[1])) passed=$((passed + BASH_REMATCH[2])) failed=$((failed + BASH_REMATCH[3]))
    [ "${BASH_REMATCH[3]}" -eq 0 ] && [ "$(cat "$report.status")" -eq 0 ] && continue
    if [ "${BASH_REMATCH[3]}" -eq 0 ]; then
      # A run that failed with no failure counted (a server that ended after its last
      # target, named on stderr by scripts/with-test-server.sh): one failure.
      failed=$((failed + 1))
      echo "the run on $server ended with status $(cat "$report.status") and no failure counted; its server's ends are above" >>"$report"
    fi
  else
    # The build failed or the server did not start: that run never wrote its report.
    failed=$((failed + 1))
    echo "ran=0 passed=0 failed=1"$'\n'"the run on $server ended before its report (status $(cat "$report.status"))" >"$report"
  fi
  failing+=("$server")
done
echo
if [ "$ran" -eq 0 ] && [ ${#failing[@]} -eq 0 ]; then
  failed=$((failed + 1))
  echo "ran=0"$'\n'"the run executed no test${filter:+: FILTER '$filter' matches none}" >"$reports/both servers"
  failing+=("both servers")
fi
if [ ${#failing[@]} -gt 0 ]; then
  # Repeated here, at the end, where a log cut to its tail still shows them.
  echo "failures:"
  for server in "${failing[@]}"; do
    echo "-- on $server:"
    tail -n +2 "$reports/$server"
  done
fi
if grep -qh '^server crash: ' "$reports"/* 2>/dev/null; then
  echo "server crashes whose target ran again (run-tests.sh):"
  grep -h '^server crash: ' "$reports"/* | sed 's/^server crash: /  /'
fi
echo "tests: $passed passed, $failed failed"
[ ${#failing[@]} -eq 0 ]
