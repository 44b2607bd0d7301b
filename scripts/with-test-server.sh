#!/usr/bin/env bash
# Runs a command with one of Parley's private test servers: starts the
# server, exports PULSE_SERVER, runs the command, stops the server on any
# exit, and returns the command's status.
#
#   scripts/with-test-server.sh [--pipewire] COMMAND…
#
# The server is PulseAudio (scripts/pulse-server.sh), or with --pipewire
# PipeWire's pipewire-pulse (scripts/pipewire-server.sh).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
server=pulse-server.sh
if [ "${1:-}" = --pipewire ]; then server=pipewire-server.sh; shift; fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/parley-${server%%-*}.XXXXXX")
cleanup() { "$here/$server" stop "$dir"; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
line=$("$here/$server" start "$dir") || exit 1
export "${line?}"
export NO_COLOR=1
"$@"
