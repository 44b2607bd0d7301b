#!/usr/bin/env bash
# Unloads module-echo-cancel N times on a private pipewire-pulse, the two ways, and counts
# how often the server crashed; writes benchmarks/canceller-unload.md.
#
#   benchmarks/canceller_unload.sh [N]    # default 150 per way
#
# The scene is the barge-in tests': pink noise played into the microphone (parley_mic), the
# speaker's monitor recorded, and a loopback from the speaker's monitor into the microphone.
# Each round loads a canceller between them, records from its source and plays into its sink
# for 0.6 s, stops both (as a conversation closes its session), and unloads it:
#   at once                   pactl unload-module, as Parley did before
#   suspended first           pactl suspend-source and suspend-sink on the canceller's devices,
#                             then unload-module: what EchoCanceller.unload does
# A crashed pipewire-pulse is started again (scripts/pipewire-server.sh restart-pulse).
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-150}
dir=$(mktemp -d "${TMPDIR:-/tmp}/parley-unload.XXXXXX")
noise=$dir/noise.wav
trap 'kill $(jobs -p) 2>/dev/null; scripts/pipewire-server.sh stop "$dir"; rm -rf "$dir"' EXIT
line=$(scripts/pipewire-server.sh start "$dir") || exit 1
export "${line?}"
sox -n -r 16000 -c 1 "$noise" synth 900 pinknoise vol 0.3
version=$(pipewire-pulse --version 2>/dev/null | awk '/Linked with/ {print $NF}')

scene() {
  paplay -d parley_mic "$noise" & feeder=$!
  parec -d parley_speaker.monitor >/dev/null & tap=$!
  loopback=$(pactl load-module module-loopback source=parley_speaker.monitor sink=parley_mic latency_msec=40)
}
unscene() {
  kill "$feeder" "$tap" 2>/dev/null; wait "$feeder" "$tap" 2>/dev/null
  timeout 5 pactl unload-module "$loopback" 2>/dev/null
}

# Runs the rounds one way; prints the number of crashes.
run() {
  local way=$1 crashes=0 pid index
  scene
  for _ in $(seq "$rounds"); do
    pid=$(cat "$dir/pipewire-pulse.pid")
    index=$(timeout 10 pactl load-module module-echo-cancel aec_method=webrtc source_name=unload.source \
      sink_name=unload.sink use_master_format=1 source_master=parley_mic.monitor sink_master=parley_speaker 2>/dev/null)
    timeout 5 parec -d unload.source >/dev/null & local recorder=$!
    timeout 5 paplay -d unload.sink "$noise" & local player=$!
    sleep 0.6
    kill "$recorder" "$player" 2>/dev/null; wait "$recorder" "$player" 2>/dev/null
    if [ "$way" = suspended ]; then
      timeout 5 pactl suspend-source unload.source 1 2>/dev/null
      timeout 5 pactl suspend-sink unload.sink 1 2>/dev/null
    fi
    [ -n "$index" ] && timeout 10 pactl unload-module "$index" 2>/dev/null
    sleep 0.2
    if ! kill -0 "$pid" 2>/dev/null; then
      crashes=$((crashes + 1))
      unscene
      scripts/pipewire-server.sh restart-pulse "$dir" >/dev/null 2>&1 || { echo "pipewire-pulse did not start again" >&2; exit 1; }
      sleep 1
      scene
    fi
  done
  unscene
  echo "$crashes"
}

at_once=$(run at-once)
suspended=$(run suspended)
{
  echo "## Echo canceller unloads on pipewire-pulse"
  echo
  echo "Measured $(date +%F) with \`benchmarks/canceller_unload.sh $rounds\` on a private pipewire-pulse"
  echo "(libpipewire $version), under the barge-in tests' scene: noise into the microphone, the"
  echo "speaker's monitor recorded, a 40 ms loopback from the speaker into the microphone. Each"
  echo "round loads a canceller, records from it and plays into it for 0.6 s, stops, and unloads it."
  echo
  echo "| way | unloads | pipewire-pulse crashed |"
  echo "| --- | --- | --- |"
  echo "| unloaded at once | $rounds | $at_once |"
  echo "| source and sink suspended first (\`EchoCanceller.unload\`) | $rounds | $suspended |"
} > benchmarks/canceller-unload.md
cat benchmarks/canceller-unload.md
