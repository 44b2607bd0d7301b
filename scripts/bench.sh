#!/usr/bin/env bash
# Runs every benchmark area in release mode and joins their sections into
# BENCHMARKS.md. Needs the private PulseAudio server (make bench starts it).
#   scripts/bench.sh [AREA…] [-- OPTION…]   # default: every area; options go to each area
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product parley-bench >/dev/null
swift build -c release --product parley >/dev/null
bench="$(swift build -c release --show-bin-path)/parley-bench"
areas=()
options=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; options=("$@"); break; fi
  areas+=("$1"); shift
done
if [ ${#areas[@]} -eq 0 ]; then
  # Subcommand rows are indented by two spaces; wrapped abstracts by more.
  mapfile -t areas < <("$bench" --help | awk '/^SUBCOMMANDS:/{on=1; next} on && /^  [a-z]/ {print $1}' | grep -v '^help$')
fi
mkdir -p benchmarks
for area in "${areas[@]}"; do
  echo "== $area"
  "$bench" "$area" ${options[@]+"${options[@]}"}
done
{
  echo "# Benchmarks"
  echo
  echo "Every figure below was produced by \`make bench\` (or \`scripts/bench.sh AREA\` for one"
  echo "area) on this project's machine kind, with the private PulseAudio server that"
  echo "\`make bench\` starts. Each area compares Parley with the naive command-line"
  echo "pipeline in the same run. Timings are wall clock; the machine is shared, so"
  echo "medians and 90th percentiles are reported, never single runs."
  echo
  for section in benchmarks/*.md; do cat "$section"; echo; done
} > BENCHMARKS.md
echo "BENCHMARKS.md written"
