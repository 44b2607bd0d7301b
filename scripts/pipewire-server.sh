#!/usr/bin/env bash
# Starts or stops Parley's private PipeWire test server: the PulseAudio
# protocol served by pipewire-pulse, as most desktops run it.
#
#   scripts/pipewire-server.sh start DIR   # prints PULSE_SERVER=unix:DIR/runtime/pulse/native
#   scripts/pipewire-server.sh stop DIR
#
# Four processes, none from systemd: a private D-Bus session bus (WirePlumber
# needs one), pipewire, wireplumber and pipewire-pulse, with XDG_RUNTIME_DIR,
# the configuration and the state all inside DIR. The two null sinks of
# scripts/pulse-server.sh come from context.objects: parley_mic (16 kHz mono;
# play into it and record parley_mic.monitor as a microphone) and
# parley_speaker (stereo, where Parley speaks), set as the defaults.
# PipeWire has no module-role-cork.
set -euo pipefail
action=${1:?usage: pipewire-server.sh start|stop DIR}
dir=${2:?usage: pipewire-server.sh start|stop DIR}

stop() {
  # The reverse of the start order; each gets 5 s to end before SIGKILL.
  for name in pipewire-pulse wireplumber pipewire dbus; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$dir/$name.pid"
  done
}

# Starts a daemon in the background with its output in DIR/NAME.log and its pid in
# DIR/NAME.pid. It keeps no descriptor of ours beyond 0-2: a caller that waits for
# the end of this script's output (or, like Foundation's Process, for a descriptor
# it handed down to close) would otherwise wait for as long as the daemon runs.
daemon() {
  local name=$1
  shift
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    exec "$@"
  ) </dev/null >"$dir/$name.log" 2>&1 &
  echo $! > "$dir/$name.pid"
}

case "$action" in
start)
  rm -rf "$dir/runtime"  # the sockets of a stopped run in the same DIR
  mkdir -p "$dir/runtime" "$dir/config/pipewire/pipewire.conf.d" "$dir/state" "$dir/data"
  chmod 700 "$dir/runtime"
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
  export XDG_RUNTIME_DIR="$dir/runtime" XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state" \
    XDG_DATA_HOME="$dir/data" HOME="${HOME:-/root}" DISPLAY= WAYLAND_DISPLAY=
  unset PULSE_SERVER PIPEWIRE_REMOTE PIPEWIRE_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS
  trap 'stop; exit 1' ERR
  daemon dbus dbus-daemon --session --nofork --nopidfile --address="unix:path=$dir/runtime/bus"
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$dir/runtime/bus"
  for _ in $(seq 50); do [ -S "$dir/runtime/bus" ] && break; sleep 0.1; done
  daemon pipewire pipewire
  for _ in $(seq 50); do [ -S "$dir/runtime/pipewire-0" ] && break; sleep 0.1; done
  daemon wireplumber wireplumber
  daemon pipewire-pulse pipewire-pulse
  export PULSE_SERVER="unix:$dir/runtime/pulse/native"
  # Ready once WirePlumber has made the sinks visible and the defaults stick.
  for _ in $(seq 200); do
    if pactl list short sinks 2>/dev/null | grep -q parley_speaker \
       && pactl set-default-sink parley_speaker 2>/dev/null \
       && pactl set-default-source parley_mic.monitor 2>/dev/null \
       && pactl info 2>/dev/null | grep -q '^Default Source: parley_mic.monitor$' \
       && pactl info 2>/dev/null | grep -q '^Default Sink: parley_speaker$'; then
      echo "PULSE_SERVER=$PULSE_SERVER"
      exit 0
    fi
    sleep 0.1
  done
  echo "pipewire-server.sh: the PipeWire test server did not start; see $dir/*.log" >&2
  tail -n 10 "$dir"/*.log >&2 || true
  stop
  exit 1
  ;;
stop)
  stop
  ;;
*)
  echo "usage: pipewire-server.sh start|stop DIR" >&2
  exit 64
  ;;
esac
