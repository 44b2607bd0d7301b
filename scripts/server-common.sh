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
