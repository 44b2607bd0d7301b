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
#   TEST_SELECTION  which tests, as "Target", "Target=REGEX" or "Target~REGEX" (the target
#                   without the tests REGEX names) words (default: every target, with the
#                   suites in `alone` run by themselves after their target)
#   TEST_REPORT     a file to write the counts and failures to; the closing line then
#                   reads "TEST_LABEL: N passed, N failed", and a run of no test is
#                   left for the caller to judge
#   PARLEY_TEST_SERVER_ENDS  (set by scripts/with-test-server.sh) a file with one line for
#                   each time a process of the test server ended on its own (crashed,
#                   aborted, was killed), with the end of its log; the watcher there starts
#                   it again at the same address
#
# A server that ends during a target fails it: the target's own results count as
# they are, plus one failure for each end, named with the end of the server's log.
# One exception, once a run: a server that crashed (SIGSEGV, SIGABRT, SIGBUS) and
# answers again. pipewire-pulse 0.3.65 and PulseAudio 16.1 have crashes of their own
# that Parley makes rare but cannot remove (README § Tests); the first such crash
# is named, and its target runs again on the restarted server, the second run's
# results counting. A second crash in the run, an end by any other signal or exit,
# or a server that does not answer counts as above. After each target the run waits
# until the server answers (PARLEY_SERVER_WAIT_SECONDS, 60 s), so that an end at the
# close of a target is counted there and the next target starts against a live server.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
$swift build --build-tests ${SWIFT_FLAGS:-} || exit 1

# One target's run may take PARLEY_TARGET_SECONDS (600 s; the slowest, ParleyCommandTests less its
# suites run alone, takes most of that on a 2-core machine). A target still running then is stopped with
# everything it started, and counted as failed with a diagnosis: the tests that
# started and never ended, the processes that were still running, and where the
# test runner and each parley were waiting.
target_seconds=${PARLEY_TARGET_SECONDS:-600}

# The failed expectations in a log, each with the message the test gave it:
# Swift Testing prints that message, and the source comments above the
# expectation, on the "↳" lines that follow; the comments are left out. A caught
# error's message may run over several lines (a child's stdout and stderr): up
# to 60 of them follow it.
issues_of() {
  awk '/^✘ Test .* (recorded an issue|failed after)/ && !/^✘ Test run/ {
         print substr($0, 1, 2000); open = /recorded an issue/; caught = /Caught error/ ? 60 : 0; next }
       open && /^↳ / { if ($0 !~ /^↳ \/\//) print "  " substr($0, 1, 2000); next }
       caught > 0 && !/^(✘|✔|◇|↳) / { print "  | " substr($0, 1, 2000); caught--; next }
       { open = 0; caught = 0 }' "$1"
}

# Runs `swift test` for FILTER into $log in a session of its own, so that a run
# past its time can be stopped with every process it started; its status.
run_target() {
  # Line-buffered, so that the log shows each test as it starts (the tests' own
  # children are started without stdbuf's preload: ProcessRunner.childEnvironment).
  setsid stdbuf -oL -eL $swift test --skip-build ${SWIFT_FLAGS:-} --filter "$1" ${2:+--skip "$2"} >"$log" 2>&1 &
  local pid=$! started=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    if [ $((SECONDS - started)) -ge "$target_seconds" ]; then
      {
        echo "$target did not finish in $target_seconds s (PARLEY_TARGET_SECONDS) and was stopped."
        echo "tests started and not ended:"
        unfinished_tests <"$log" | sed 's/^/  /'
        echo "processes still running:"
        ps -o pid=,etimes=,stat=,args= -s "$pid" 2>/dev/null | cut -c1-300 | sed 's/^/  /' | head -n 40
        backtraces "$pid"
      } >"$log.hang"
      # By session, not process group: Foundation's Process may give a child a group of its own.
      kill -TERM $(ps -o pid= -s "$pid") 2>/dev/null
      for _ in $(seq 100); do [ -n "$(ps -o pid= -s "$pid")" ] || break; sleep 0.1; done
      kill -KILL $(ps -o pid= -s "$pid") 2>/dev/null
      wait "$pid" 2>/dev/null
      return 124
    fi
    sleep 1
  done
  wait "$pid"
}

# Where the test runner and any parley of session SESSION are waiting: each thread's
# stack by gdb, when the machine has it, with Swift names demangled and the
# arguments left out.
backtraces() {
  command -v gdb >/dev/null || return 0
  local process
  for process in $(ps -o pid=,args= -s "$1" | awk '$2 ~ /\.xctest$|\/parley$/ { print $1 }'); do
    echo "threads of $(ps -o args= -p "$process" | cut -c1-120) ($process):"
    timeout -k 5 60 gdb -p "$process" -batch -iex "set debuginfod enabled off" -ex "thread apply all bt 25" 2>/dev/null \
      | grep -E '^(Thread|#)' \
      | perl -pe 's/^(#\d+)\s+0x[0-9a-f]+ in /$1 /; s/ (\((?:[^()]++|(?1))*\)) (at|from) / $2 /' \
      | { if command -v swift-demangle >/dev/null; then swift-demangle --simplified; else cat; fi; } \
      | cut -c1-220 | sed 's/^/  /' | head -n 300
  done
}

# The names of the tests that Swift Testing reported started and never passed or failed.
# A parameterized test's cases report their start only, so the last case started is
# named after them.
unfinished_tests() {
  awk '
    /^◇ Test case .* started\.$/ { last = $0; sub(/^◇ Test /, "", last); sub(/ started\.$/, "", last); next }
    /^◇ Test .* started\.$/ && !/^◇ Test run started/ { name = $0; sub(/^◇ Test /, "", name); sub(/ started\.$/, "", name); open[name] = 1; order[++n] = name }
    /^(✔|✘) Test .* (passed|failed)/ { name = $0; sub(/^(✔|✘) Test /, "", name); sub(/ (passed|failed).*$/, "", name); delete open[name] }
    END {
      for (i = 1; i <= n; i++) if (order[i] in open) { print order[i]; delete open[order[i]] }
      if (last != "") print "(the last test case started: " last ")"
    }'
}

# How many times a process of the test server ended on its own so far.
server_ends() {
  if [ -n "${PARLEY_TEST_SERVER_ENDS:-}" ] && [ -f "$PARLEY_TEST_SERVER_ENDS" ]; then
    grep -c 'ended on its own' "$PARLEY_TEST_SERVER_ENDS"
  else
    echo 0
  fi
}

# Whether each of the last N ends was a crash of the server process: its log's last
# line (start_logged) says it ended by SIGSEGV, SIGABRT or SIGBUS.
crashes_only() {
  [ "$1" -gt 0 ] || return 1
  ! grep 'ended on its own' "$PARLEY_TEST_SERVER_ENDS" | tail -n "$1" | grep -qvE 'ended: signal SIG(SEGV|ABRT|BUS)$'
}

# Marks the last N ends as crashes whose target ran again: they are no longer ends
# that count, here (server_ends) or in scripts/with-test-server.sh.
rerun_for() {
  local line
  for line in $(grep -n 'ended on its own' "$PARLEY_TEST_SERVER_ENDS" | tail -n "$1" | cut -d: -f1); do
    sed -i "${line}s/ended on its own/crashed (its target ran again)/" "$PARLEY_TEST_SERVER_ENDS"
  done
}

# Waits until the test server answers `pactl info`; whether it did in time. Only
# under scripts/with-test-server.sh, whose watcher names and restarts a server that ended.
server_answers() {
  [ -n "${PARLEY_TEST_SERVER_ENDS:-}" ] || return 0
  local started=$SECONDS
  until timeout -k 1 5 pactl info >/dev/null 2>&1; do
    [ $((SECONDS - started)) -lt "${PARLEY_SERVER_WAIT_SECONDS:-60}" ] || return 1
    sleep 0.5
  done
}

user_filter=${1:-}
# Suites whose figures a busy machine would move (the first translation of simultaneous
# interpretation, a time measured on the speaker; the voice's scene, whose every sentence must
# be read well enough to teach its side's voice; the shared microphone's scene, which beside
# them once gave A a turn of English words read after B's question; hands-free turns, whose
# eSpeak NG Spanish beside them was once read as English and given to A), and the one that
# keeps a Wyoming server decoding on a core of its own for half a minute, and the dialogue on two
# of them: run by themselves, after the rest of their target, not beside its other suites.
alone=("ParleyCommandTests:SimultaneousDialogueTests" "ParleyCommandTests:SeparateDevicesDialogueTests"
       "ParleyCommandTests:BargeInDialogueTests" "ParleyCommandTests:WyomingRecognitionTests"
       "ParleyCommandTests:WyomingDialogueTests" "ParleyCommandTests:VoiceSideDialogueTests"
       "ParleyCommandTests:SharedMicrophoneTests" "ParleyCommandTests:HandsFreeDialogueTests")
# Each target, less its suites in `alone` ("Target~A|B"), then each of those suites by itself.
default_selection() {
  local target suite entry own
  for target in $(find Tests -mindepth 1 -maxdepth 1 -type d -name '*Tests' -printf '%f\n' | sort); do
    own=()
    for suite in "${alone[@]}"; do
      [ "${suite%%:*}" = "$target" ] && own+=("${suite#*:}")
    done
    if [ ${#own[@]} -eq 0 ]; then echo "$target"; continue; fi
    entry="$target~$(IFS='|'; echo "${own[*]}")"
    for suite in "${own[@]}"; do entry+=" $target=$suite"; done
    echo "$entry"
  done
}
selection=${TEST_SELECTION:-$(default_selection)}
passed=0 failed=0 ran_total=0 failing_targets=()
crash_reruns=1
log=$(mktemp) failures=$(mktemp) crashes=$(mktemp)
trap 'rm -f "$log" "$log.hang" "$failures" "$crashes"' EXIT
for entry in $selection; do
  skip=""
  if [[ "$entry" == *"~"* ]]; then skip=${entry#*~}; entry=${entry%%~*}; fi
  target=${entry%%=*}
  part=""
  [ "$entry" != "$target" ] && part=${entry#*=}
  # Both conditions in one regular expression: the FILTER as a lookahead.
  filter="^${target}\\."
  [ -n "$user_filter" ] && filter+="(?=.*(${user_filter}))"
  [ -n "$part" ] && filter+=".*(${part})"
  echo "== $target${part:+ ($part)}${skip:+ (without $skip)}"
  while :; do
    target_started=$SECONDS
    ends_before=$(server_ends)
    run_target "$filter" "$skip"
    status=$?
    answers=yes
    server_answers || answers=no
    server_ended=$(($(server_ends) - ends_before))
    [ "$crash_reruns" -gt 0 ] && [ "$answers" = yes ] && crashes_only "$server_ended" || break
    crash_reruns=0
    grep -E '✘|Test run with' "$log" | grep -vE '^✘ Test .* recorded an issue' | sed 's/^/   (the run the server crashed under) /'
    grep 'ended on its own' "$PARLEY_TEST_SERVER_ENDS" | tail -n "$server_ended" | cut -c1-1500 \
      | sed "s/^/server crash: $target: /" | tee -a "$crashes" | sed 's/^/   /'
    echo "   the server crashed under $target and answers again: $target runs again (once a run), and that run counts"
    rerun_for "$server_ended"
    rm -f "$log.hang"
  done
  grep -E '✘|Test run with|error:|[Ff]atal' "$log" | grep -vE '^✘ Test .* recorded an issue'
  issues_of "$log" | grep -vE '^✘ Test .* failed after'
  echo "   ($target: $((SECONDS - target_started)) s)"
  ran=$(grep -oE 'Test run with [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  bad=$(grep -E '^✘ Test .* failed after' "$log" | grep -vc '^✘ Test run')
  if [ "$status" -eq 124 ] && [ -f "$log.hang" ]; then
    # A hang: whatever failed before it, plus the diagnosis.
    cat "$log.hang"
    issues_of "$log" >>"$failures"
    cat "$log.hang" >>"$failures"
    rm -f "$log.hang"
    bad=$((bad + 1))
  elif [ "$status" -ne 0 ] && [ "$bad" -eq 0 ]; then
    bad=1
    { echo "$target ended with status $status; its last lines:"; tail -n 15 "$log"; } >>"$failures"
  else
    issues_of "$log" >>"$failures"
  fi
  if [ "${ran:-0}" -eq 0 ] && [ -z "$user_filter" ] && [ "$status" -eq 0 ]; then
    # Counted as one failure: a target that should run tests and ran none tested nothing.
    echo "$target ran no test"
    echo "$target ran no test (filter $filter)" >>"$failures"
    bad=1 status=1
  fi
  # Failures beside the tests': one for each end of a server process under the target (a
  # crash under the target is the target's, even when its tests passed; the watcher has
  # started it again for the next target), and one for a server that no longer answers.
  server_failures=0
  if [ "$server_ended" -gt 0 ]; then
    grep 'ended on its own' "$PARLEY_TEST_SERVER_ENDS" | tail -n "$server_ended" | cut -c1-1500 \
      | sed "s/^/$target: /" | tee -a "$failures" | sed 's/^/   /'
    server_failures=$server_ended status=1
  fi
  if [ "$answers" = no ]; then
    echo "$target: the test server did not answer within ${PARLEY_SERVER_WAIT_SECONDS:-60} s after the target" | tee -a "$failures"
    server_failures=$((server_failures + 1)) status=1
  fi
  ran_total=$((ran_total + ${ran:-0}))
  passed=$((passed + ${ran:-0} - (bad > ${ran:-0} ? ${ran:-0} : bad)))
  failed=$((failed + bad + server_failures))
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
    cat "$failures" "$crashes"
  } >"$TEST_REPORT"
  echo "${TEST_LABEL:-this server}: $passed passed, $failed failed$([ -s "$crashes" ] && echo "; the server crashed once, and its target ran again")"
else
  [ -s "$crashes" ] && { echo "the server crashed once, and its target ran again:"; cat "$crashes"; }
  if [ ${#failing_targets[@]} -gt 0 ]; then
    # Repeated here, at the end, where a log cut to its tail still shows them.
    echo "failures:"
    cat "$failures"
    echo "failing test targets: ${failing_targets[*]}"
  fi
  echo "tests: $passed passed, $failed failed"
fi
[ ${#failing_targets[@]} -eq 0 ]
