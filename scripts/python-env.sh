# Sourced by install-whisper.sh and install-wyoming.sh: a Python virtual environment whose
# every package is pinned in one requirements file, made once and made anew only when that
# file changes (its SHA-256 is kept in the environment). Expects `say` and `python` set.
#
#   pinned_environment ENV_DIR REQUIREMENTS WHAT SIZE
#   WHAT: what needs it, for the messages ("the Whisper worker"); SIZE: "about 470 MB; a few minutes"
pinned_environment() {
  local env_dir=$1 requirements=$2 what=$3 size=$4
  local stamp="$env_dir/.requirements.sha256" wanted
  wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ -x "$env_dir/bin/python3" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    return 0
  fi
  command -v "$python" >/dev/null || { say "python3 is needed for $what; install it (apt-get install python3 python3-venv)"; exit 1; }
  "$python" -c 'import ensurepip, venv' 2>/dev/null || { say "the Python venv module is needed for $what; install it (apt-get install python3-venv)"; exit 1; }
  say "creating the Python environment in $env_dir ($size)"
  rm -rf "$env_dir"
  "$python" -m venv "$env_dir"
  "$env_dir/bin/pip" install --quiet --disable-pip-version-check --no-input -r "$requirements"
  echo "$wanted" >"$stamp"
}
