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
# A pipewire-pulse that ends on its own is started again, as a desktop's systemd
# unit does (Restart=on-failure): each time is one line in the file that
# PARLEY_TEST_SERVER_RESTARTS names, and scripts/run-tests.sh runs a target that
# failed across a restart once more. pipewire-pulse 0.3.65 can crash when a
# module-echo-cancel is unloaded while its streams run (a segfault in
# pw_stream_dequeue_buffer); Parley suspends a canceller's devices before it
# unloads one (EchoCanceller), which avoids it, but not every unload is Parley's.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/server-common.sh
source "$here/server-common.sh"
server=pulse-server.sh
if [ "${1:-}" = --pipewire ]; then server=pipewire-server.sh; shift; fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/parley-${server%%-*}.XXXXXX")
# After a failed command, a server process that ended on its own is named, with
# the end of its log, on stderr and in TEST_REPORT when set: its directory
# goes away with the server.
report_lost() {
  local pidfile pid name log note
  for pidfile in "$dir"/*pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    running "$pid" && continue
    name=$(basename "$pidfile" .pid)
    [ "$name" = pid ] && log=$dir/server.log || log=$dir/$name.log
    [ "$name" = pid ] && name=pulseaudio
    note="the test server's $name (pid $pid) had ended before the command did; its log ends: $(tail -n 5 "$log" 2>/dev/null | tr '\n' ' ')"
    echo "with-test-server.sh: $note" >&2
    [ -n "${TEST_REPORT:-}" ] && echo "$note" >>"$TEST_REPORT"
  done
  return 0
}
# While the command runs: a pipewire-pulse that ended is named in $dir/restarts and
# started again.
watch_pipewire_pulse() {
  local pid
  while sleep 0.5; do
    pid=$(cat "$dir/pipewire-pulse.pid" 2>/dev/null) || continue
    running "$pid" && continue
    echo "$(date +%T) pipewire-pulse (pid $pid) ended on its own; its log ended: $(tail -n 3 "$dir/pipewire-pulse.log" 2>/dev/null | tr '\n' ' ')" >>"$dir/restarts"
    if ! "$here/pipewire-server.sh" restart-pulse "$dir" 2>>"$dir/restarts"; then
      echo "$(date +%T) pipewire-pulse did not start again" >>"$dir/restarts"
      return
    fi
  done
}
watcher=""
status=0
cleanup() {
  [ -n "$watcher" ] && kill "$watcher" 2>/dev/null && wait "$watcher" 2>/dev/null
  [ "$status" -ne 0 ] && report_lost
  "$here/$server" stop "$dir"
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
line=$("$here/$server" start "$dir") || exit 1
export "${line?}"
if [ "$server" = pipewire-server.sh ]; then
  : >"$dir/restarts"
  export PARLEY_TEST_SERVER_RESTARTS=$dir/restarts
  watch_pipewire_pulse &
  watcher=$!
fi
export NO_COLOR=1
"$@"
status=$?
exit "$status"
