# Helpers shared by scripts/pulse-server.sh, scripts/pipewire-server.sh and
# scripts/with-test-server.sh; sourced, not run.

# True while PID runs. A zombie has ended: it only waits for PID 1 to reap it,
# which on some machines takes seconds, and `kill -0` still reaches it.
running() {
  local state
  state=$(sed -n 's/^[0-9]* (.*) \([A-Z]\).*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}

# Replaces the shell with COMMAND, no signal blocked and SIGTERM, SIGINT, SIGHUP
# and SIGPIPE at their defaults. A caller's mask is inherited through exec, and
# a thread of a Swift or dispatch process (a test) blocks nearly every signal:
# WirePlumber and dbus-daemon started from one never saw SIGTERM.
exec_unblocked() {
  exec perl -MPOSIX -e '$SIG{$_} = "DEFAULT" for qw(TERM INT HUP PIPE);
    sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die "sigprocmask: $!\n";
    exec { $ARGV[0] } @ARGV or die "$ARGV[0]: $!\n"' "$@"
}

# Starts COMMAND in the background (as exec_unblocked does), standard input from
# /dev/null, output appended to LOG, its process id in PIDFILE once it runs; when it
# ends, a last line of LOG says how ("NAME ended: exit status N" or "NAME ended:
# signal SIGABRT"), for whoever reads the log's end after a crash.
start_logged() {
  local name=$1 log=$2 pidfile=$3
  shift 3
  rm -f "$pidfile"
  (
    # This shell waits as long as COMMAND runs: it keeps no descriptor of its caller's
    # beyond the three it redirects (a test reads its child's output until the last writer
    # closes it, and would wait for the server's end).
    for fd in $(ls "/proc/$BASHPID/fd"); do
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done 2>/dev/null
    (exec_unblocked "$@") &
    echo $! >"$pidfile.new" && mv "$pidfile.new" "$pidfile"
    status=0
    wait $! 2>/dev/null || status=$?
    if [ "$status" -gt 128 ]; then
      echo "$name ended: signal SIG$(kill -l "$status")"
    else
      echo "$name ended: exit status $status"
    fi
  ) </dev/null >>"$log" 2>&1 &
  until [ -s "$pidfile" ]; do sleep 0.01; done
}
