#!/usr/bin/env bash
# Runs a command with Parley's private PulseAudio test server: starts the
# server, exports PULSE_SERVER, runs the command, stops the server on any
# exit, and returns the command's status.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/parley-pulse.XXXXXX")
cleanup() { "$here/pulse-server.sh" stop "$dir"; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
line=$("$here/pulse-server.sh" start "$dir") || exit 1
export "${line?}"
export NO_COLOR=1
"$@"
