#!/usr/bin/env bash
# Starts or stops Parley's private PipeWire test server: the PulseAudio
# protocol served by pipewire-pulse, as most desktops run it.
#
#   scripts/pipewire-server.sh start DIR   # prints PULSE_SERVER=unix:DIR/runtime/pulse/native
#   scripts/pipewire-server.sh stop DIR
#   scripts/pipewire-server.sh restart-pulse DIR   # pipewire-pulse alone, as a desktop restarts it
#
# Four processes, none from systemd: a private D-Bus session bus (WirePlumber
# needs one), pipewire, wireplumber and pipewire-pulse, with XDG_RUNTIME_DIR,
# the configuration and the state all inside DIR. The two null sinks of
# scripts/pulse-server.sh come from context.objects: parley_mic (16 kHz mono;
# play into it and record parley_mic.monitor as a microphone) and
# parley_speaker (stereo, where Parley speaks), set as the defaults.
# PipeWire has no module-role-cork.
set -euo pipefail
action=${1:?usage: pipewire-server.sh start|stop|restart-pulse DIR}
dir=${2:?usage: pipewire-server.sh start|stop|restart-pulse DIR}
# shellcheck source=scripts/server-common.sh
source "$(dirname "$0")/server-common.sh"

stop() {
  # The reverse of the start order; each gets 5 s to end before SIGKILL.
  for name in pipewire-pulse wireplumber pipewire dbus; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do running "$pid" || break; sleep 0.1; done
    if running "$pid"; then kill -9 "$pid" 2>/dev/null || true; fi
    rm -f "$dir/$name.pid"
  done
}

# Starts a daemon in the background with its output in DIR/NAME.log (ending with how
# it ended: start_logged) and its pid in DIR/NAME.pid. It keeps no descriptor of ours
# beyond 0-2: a caller that waits for the end of this script's output (or, like
# Foundation's Process, for a descriptor it handed down to close) would otherwise wait
# for as long as the daemon runs.
daemon() {
  local name=$1
  shift
  : >"$dir/$name.log"
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    start_logged "$name" "$dir/$name.log" "$dir/$name.pid" "$@"
  )
}

# Waits until COMMAND succeeds, for at most the seconds left before $deadline,
# while every daemon started so far still runs. On failure $reason says why.
wait_for() {
  local what=$1
  shift
  until "$@"; do
    for name in "${started[@]}"; do
      if ! running "$(cat "$dir/$name.pid")"; then
        reason="$name exited while waiting for $what; its log ends: $(tail -n 3 "$dir/$name.log" | tr '\n' ' ')"
        return 1
      fi
    done
    if [ "$SECONDS" -ge "$deadline" ]; then
      reason="no $what after ${budget} s; running: ${started[*]}"
      return 1
    fi
    sleep 0.1
  done
}

sinks_ready() {
  timeout -k 1 5 pactl list short sinks 2>/dev/null | grep -q parley_speaker
}

defaults_stick() {
  timeout -k 1 5 pactl set-default-sink parley_speaker 2>/dev/null \
    && timeout -k 1 5 pactl set-default-source parley_mic.monitor 2>/dev/null \
    && timeout -k 1 5 pactl info 2>/dev/null | grep -q '^Default Source: parley_mic.monitor$' \
    && timeout -k 1 5 pactl info 2>/dev/null | grep -q '^Default Sink: parley_speaker$'
}

# One attempt: the four daemons in order, each stage waited for within the budget.
launch() {
  rm -rf "$dir/runtime"  # the sockets of a stopped run in the same DIR
  mkdir -p "$dir/runtime"
  chmod 700 "$dir/runtime"
  started=() reason=""
  SECONDS=0
  deadline=$budget
  daemon dbus dbus-daemon --session --nofork --nopidfile --address="unix:path=$dir/runtime/bus"
  started+=(dbus)
  wait_for "session bus socket" test -S "$dir/runtime/bus" || return 1
  daemon pipewire pipewire
  started+=(pipewire)
  wait_for "PipeWire socket" test -S "$dir/runtime/pipewire-0" || return 1
  daemon wireplumber wireplumber
  started+=(wireplumber)
  daemon pipewire-pulse pipewire-pulse
  started+=(pipewire-pulse)
  wait_for "PulseAudio socket" test -S "$dir/runtime/pulse/native" || return 1
  # Ready once WirePlumber has made the sinks visible and the defaults stick.
  wait_for "parley_speaker sink" sinks_ready || return 1
  wait_for "default sink and source" defaults_stick || return 1
}

# The daemons' environment: everything inside DIR.
environment() {
  export XDG_RUNTIME_DIR="$dir/runtime" XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state" \
    XDG_DATA_HOME="$dir/data" HOME="${HOME:-/root}" DISPLAY= WAYLAND_DISPLAY=
  unset PULSE_SERVER PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/runtime/bus" PULSE_SERVER="unix:$dir/runtime/pulse/native"
}

# Stops pipewire-pulse and starts it again while pipewire and WirePlumber run on: the
# PulseAudio clients lose their connection and the sinks stay. Like every daemon here
# it keeps no descriptor of its caller's (a client's standard input, say) open.
restart_pulse() {
  started=() reason=""
  SECONDS=0
  budget=${PARLEY_SERVER_START_SECONDS:-30}
  deadline=$budget
  pid=$(cat "$dir/pipewire-pulse.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do running "$pid" || break; sleep 0.1; done
  if running "$pid"; then kill -9 "$pid" 2>/dev/null || true; fi
  rm -f "$dir/runtime/pulse/native"
  daemon pipewire-pulse pipewire-pulse
  started+=(pipewire-pulse)
  wait_for "PulseAudio socket" test -S "$dir/runtime/pulse/native" || return 1
  wait_for "parley_speaker sink" sinks_ready || return 1
}

case "$action" in
restart-pulse)
  environment
  if ! restart_pulse; then
    echo "pipewire-server.sh: pipewire-pulse did not come back: $reason" >&2
    exit 1
  fi
  ;;
start)
  mkdir -p "$dir/config/pipewire/pipewire.conf.d" "$dir/state" "$dir/data"
  cat > "$dir/config/pipewire/pipewire.conf.d/parley.conf" <<'CONF'
context.objects = [
    { factory = adapter
        args = {
            factory.name     = support.null-audio-sink
            node.name        = parley_mic
            node.description = Parley_microphone
            media.class      = Audio/Sink
            audio.rate       = 16000
            audio.channels   = 1
            audio.position   = [ MONO ]
            object.linger    = true
        }
    }
    { factory = adapter
        args = {
            factory.name     = support.null-audio-sink
            node.name        = parley_speaker
            node.description = Parley_speaker
            media.class      = Audio/Sink
            audio.channels   = 2
            audio.position   = [ FL FR ]
            object.linger    = true
        }
    }
]
CONF
  environment
  # Each attempt gets PARLEY_SERVER_START_SECONDS (30 s) for all its stages. A
  # failed attempt is stopped, named on stderr, and tried once more.
  budget=${PARLEY_SERVER_START_SECONDS:-30}
  for attempt in 1 2; do
    if launch; then
      echo "PULSE_SERVER=$PULSE_SERVER"
      exit 0
    fi
    stop
    echo "pipewire-server.sh: attempt $attempt: $reason" >&2
  done
  echo "pipewire-server.sh: the PipeWire test server did not start in two attempts: $reason" >&2
  exit 1
  ;;
stop)
  stop
  ;;
*)
  echo "usage: pipewire-server.sh start|stop|restart-pulse DIR" >&2
  exit 64
  ;;
esac
