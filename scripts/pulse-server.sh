#!/usr/bin/env bash
# Starts or stops Parley's private PulseAudio test server.
#
#   scripts/pulse-server.sh start DIR   # prints PULSE_SERVER=unix:DIR/native
#   scripts/pulse-server.sh stop DIR
#   scripts/pulse-server.sh restart DIR # the same server again, after it ended or aborted
#
# The server listens on a unix socket in DIR with anonymous auth, and has two
# null sinks with rewinds off (activation latency stays low): parley_mic
# (16 kHz mono; play a recording into it and record parley_mic.monitor as a
# microphone) and parley_speaker (where Parley speaks). module-role-cork is
# loaded so media.role=phone streams cork others.
#
# With PARLEY_SERVER_TCP_PORT=PORT it also listens on tcp:127.0.0.1:PORT, as a
# server on another machine would, with cookie authentication only (DIR/cookie,
# no anonymous clients), and prints PULSE_COOKIE=DIR/cookie, then
# PULSE_SERVER=tcp:127.0.0.1:PORT.
#
# restart starts a server that ended (or stops and starts one that runs) with the
# configuration start wrote: the same socket, TCP port and cookie, so PULSE_SERVER
# and PULSE_COOKIE stay valid. The previous log is kept as DIR/server.log.1.
set -euo pipefail
action=${1:?usage: pulse-server.sh start|stop|restart DIR}
dir=${2:?usage: pulse-server.sh start|stop|restart DIR}
# shellcheck source=scripts/server-common.sh
source "$(dirname "$0")/server-common.sh"

# Starts the server of DIR/server.pa in the background, its pid in DIR/pid, and waits
# until pactl reaches it, within PARLEY_SERVER_START_SECONDS (30 s); a server that
# ends first, or does not answer in time, is named on one line and stopped.
launch() {
  export XDG_RUNTIME_DIR="$dir/runtime" PULSE_STATE_PATH="$dir/state" HOME="${HOME:-/root}"
  # --no-cpu-limit: by default a PulseAudio server that takes most of the CPU for
  # a while ends itself (a guard for real-time scheduling gone wrong); a test
  # server on a loaded machine must not.
  : >"$dir/server.log"
  start_logged pulseaudio "$dir/server.log" "$dir/pid" pulseaudio -n -F "$dir/server.pa" --exit-idle-time=-1 \
    --daemonize=no --no-cpu-limit=true --use-pid-file=no --system=no --disallow-exit=no -v
  budget=${PARLEY_SERVER_START_SECONDS:-30}
  SECONDS=0
  until PULSE_SERVER="unix:$dir/native" timeout -k 1 5 pactl info >/dev/null 2>&1; do
    if ! running "$(cat "$dir/pid")"; then
      echo "pulse-server.sh: the PulseAudio test server exited on start; its log ends: $(tail -n 3 "$dir/server.log" | tr '\n' ' ')" >&2
      rm -f "$dir/pid"
      exit 1
    fi
    if [ "$SECONDS" -ge "$budget" ]; then
      echo "pulse-server.sh: the PulseAudio test server did not answer in ${budget} s; its log ends: $(tail -n 3 "$dir/server.log" | tr '\n' ' ')" >&2
      stop
      exit 1
    fi
    sleep 0.1
  done
}

# Stops the server: SIGTERM, then SIGKILL after 5 s.
stop() {
  if [ -f "$dir/pid" ]; then
    pid=$(cat "$dir/pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do running "$pid" || break; sleep 0.1; done
    if running "$pid"; then kill -9 "$pid" 2>/dev/null || true; fi
    rm -f "$dir/pid"
  fi
}

# The address lines a client needs, as start prints them.
addresses() {
  if grep -q module-native-protocol-tcp "$dir/server.pa"; then
    echo "PULSE_COOKIE=$dir/cookie"
    echo "PULSE_SERVER=tcp:127.0.0.1:$(sed -n 's/.*module-native-protocol-tcp port=\([0-9]*\).*/\1/p' "$dir/server.pa")"
  else
    echo "PULSE_SERVER=unix:$dir/native"
  fi
}

case "$action" in
start)
  mkdir -p "$dir/runtime" "$dir/state"
  cat > "$dir/server.pa" <<PA
load-module module-native-protocol-unix socket=$dir/native auth-anonymous=1
load-module module-null-sink sink_name=parley_mic rate=16000 channels=1 format=s16le norewinds=1 sink_properties=device.description=Parley_microphone
load-module module-null-sink sink_name=parley_speaker norewinds=1 sink_properties=device.description=Parley_speaker
load-module module-role-cork
set-default-sink parley_speaker
set-default-source parley_mic.monitor
PA
  if [ -n "${PARLEY_SERVER_TCP_PORT:-}" ]; then
    # Reached over TCP on 127.0.0.1 as another machine's server is: a client must show the
    # cookie (256 random bytes), never anonymous.
    head -c 256 /dev/urandom >"$dir/cookie"
    chmod 600 "$dir/cookie"
    echo "load-module module-native-protocol-tcp port=$PARLEY_SERVER_TCP_PORT listen=127.0.0.1 auth-anonymous=0 auth-cookie-enabled=1 auth-cookie=$dir/cookie" >>"$dir/server.pa"
  fi
  launch
  addresses
  ;;
restart)
  [ -f "$dir/server.pa" ] || { echo "pulse-server.sh: no server was started in $dir" >&2; exit 1; }
  stop
  [ -f "$dir/server.log" ] && mv "$dir/server.log" "$dir/server.log.1"
  launch
  addresses
  ;;
stop)
  stop
  ;;
*)
  echo "usage: pulse-server.sh start|stop|restart DIR" >&2
  exit 64
  ;;
esac
