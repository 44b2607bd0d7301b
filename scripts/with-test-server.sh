#!/usr/bin/env bash
# Runs a command with one of Parley's private test servers: starts the
# server, exports PULSE_SERVER, runs the command, stops the server on any
# exit, and returns the command's status.
#
#   scripts/with-test-server.sh [--pipewire] COMMAND…
#
# The server is PulseAudio (scripts/pulse-server.sh), or with --pipewire
# PipeWire's pipewire-pulse (scripts/pipewire-server.sh).
#
# While the command runs, a watcher looks at the server's processes twice a second.
# One that ended on its own (a crash, an abort, a kill from outside) is written as
# one line, with the last 5 lines of its log, to the file PARLEY_TEST_SERVER_ENDS
# names, and started again at the same address, as a desktop's systemd unit does
# (Restart=on-failure): PulseAudio, and pipewire-pulse, alone, under the PipeWire
# server (pipewire, WirePlumber and the session bus are named, not restarted).
# scripts/run-tests.sh counts each line as a failure of the target it ended under.
# A command that succeeded while the server ended under it fails here: the ends
# are named on stderr, and the status is 1 (a crash that run-tests.sh marked as
# run again is named, and does not fail the command).
#
# pipewire-pulse 0.3.65 can crash when a module-echo-cancel is unloaded while its
# streams run (a segfault in pw_stream_dequeue_buffer); Parley suspends a
# canceller's devices before it unloads one (EchoCanceller). PulseAudio 16.1 can
# abort when a client's connection dies (memblock.c: "Assertion
# 'pa_atomic_load(&b->pool->stat.imported_size) >= (int) b->length' failed").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/server-common.sh
source "$here/server-common.sh"
server=pulse-server.sh
if [ "${1:-}" = --pipewire ]; then server=pipewire-server.sh; shift; fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/parley-${server%%-*}.XXXXXX")
ends=$dir/ends
: >"$ends"
export PARLEY_TEST_SERVER_ENDS=$ends

# The server's processes: "NAME PIDFILE LOG RESTART" lines (RESTART: the script's
# action that starts NAME again, or "-").
processes() {
  if [ "$server" = pulse-server.sh ]; then
    echo "pulseaudio $dir/pid $dir/server.log restart"
  else
    local name
    for name in pipewire-pulse wireplumber pipewire dbus; do
      echo "$name $dir/$name.pid $dir/$name.log $([ "$name" = pipewire-pulse ] && echo restart-pulse || echo -)"
    done
  fi
}

# One look at the server's processes: each that ended and was not named yet is named
# in $ends and, when it can be, started again.
look() {
  local name pidfile log restart pid
  while read -r name pidfile log restart; do
    pid=$(cat "$pidfile" 2>/dev/null) || continue
    running "$pid" && continue
    grep -q "(pid $pid) ended" "$ends" && continue
    # The log's last line says how it ended (start_logged), once its parent has reaped it.
    for _ in $(seq 10); do tail -n 1 "$log" 2>/dev/null | grep -q "^$name ended: " && break; sleep 0.1; done
    echo "$(date +%T) the test server's $name (pid $pid) ended on its own; its log ends: $(tail -n 5 "$log" 2>/dev/null | cut -c1-300 | paste -sd '|' | sed 's/|/ | /g')" >>"$ends"
    [ "$restart" = - ] && continue
    if "$here/$server" "$restart" "$dir" >/dev/null 2>>"$dir/restart.log"; then
      echo "$(date +%T) $name started again (pid $(cat "$pidfile"))" >>"$dir/restarts"
    else
      echo "$(date +%T) $name did not start again: $(tail -n 1 "$dir/restart.log")" >>"$dir/restarts"
    fi
  done < <(processes)
}

watcher=""
status=0
cleanup() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
  "$here/$server" stop "$dir"
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
line=$("$here/$server" start "$dir") || exit 1
export "${line?}"
# Stopped by SIGTERM between two looks, never in the middle of a restart.
(trap 'exit 0' TERM; while sleep 0.5; do look; done) &
watcher=$!
export NO_COLOR=1
"$@"
status=$?
kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
watcher=""
look
if [ -s "$ends" ]; then
  # run-tests.sh has counted them, or marked a crash whose target it ran again; any
  # other command is told here, and fails on each end that is not so marked.
  sed 's/^/with-test-server.sh: /' "$ends" >&2
  grep -q 'ended on its own' "$ends" && [ "$status" -eq 0 ] && status=1
fi
exit "$status"
