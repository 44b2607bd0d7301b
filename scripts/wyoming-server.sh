#!/usr/bin/env bash
# Runs a Wyoming speech-recognition server on this machine: wyoming-faster-whisper, from the
# environment scripts/install-wyoming.sh made, with Parley's installed Whisper model, on
# 127.0.0.1 only, until it is stopped (SIGTERM, SIGINT) or the process that started it ends.
# It downloads nothing. The tests and the bench start it; a person can too, to try
# `--recognizer wyoming:tcp://127.0.0.1:PORT` (docs/remote-engines.md).
#
#   scripts/wyoming-server.sh PORT [THREADS]     # THREADS: the server's CPU threads (default 1)
set -uo pipefail
port=${1:?usage: scripts/wyoming-server.sh PORT [THREADS]}
threads=${2:-1}
data="${XDG_DATA_HOME:-$HOME/.local/share}/parley"
env_dir="$data/wyoming-env"
model="${PARLEY_MODELS_DIR:-$data/models}/whisper-base"
[ -x "$env_dir/bin/python3" ] || { echo "wyoming: no server environment in $env_dir; run scripts/install-wyoming.sh" >&2; exit 1; }
[ -f "$model/model.bin" ] || { echo "wyoming: no Whisper model in $model; run make models" >&2; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/parley-wyoming.XXXXXX")
parent=$PPID
"$env_dir/bin/python3" -m wyoming_faster_whisper --uri "tcp://127.0.0.1:$port" --model "$model" \
  --data-dir "$scratch" --cpu-threads "$threads" --compute-type int8 --local-files-only &
server=$!
stop() { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$scratch"; exit 0; }
trap stop TERM INT HUP
# The server goes with the process that started it, however that ends.
while kill -0 "$parent" 2>/dev/null && kill -0 "$server" 2>/dev/null; do sleep 0.5 & wait $!; done
kill "$server" 2>/dev/null
wait "$server"
status=$?
rm -rf "$scratch"
exit "$status"
