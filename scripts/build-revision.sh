#!/usr/bin/env bash
# Builds `parley` (release) as it was at a revision, in a worktree of its own beside this one
# (.build-rev/REV, ignored by git), for benchmarks that compare this build with it
# (`parley-bench baseline --before PATH`). Prints the binary's path.
#   scripts/build-revision.sh REV
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { echo "usage: scripts/build-revision.sh REV" >&2; exit 64; }
commit=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "build-revision: '$1' is not a revision of this repository" >&2; exit 64; }
tree=".build-rev/${commit:0:12}"
if [ ! -d "$tree" ]; then
  mkdir -p .build-rev
  git worktree add --detach "$tree" "$commit" >/dev/null
fi
(cd "$tree" && swift build -c release --product parley >&2)
echo "$(cd "$tree" && swift build -c release --show-bin-path)/parley"
