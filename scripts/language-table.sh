#!/usr/bin/env bash
# Rewrites README.md's language table from `parley languages --markdown`, run on
# this machine: the text between the two language-table markers is replaced, the
# rest of README.md is left as it is. Nothing in the table is written by hand.
#   scripts/language-table.sh [PARLEY_BINARY]   # default: the debug build (built if needed)
set -euo pipefail
cd "$(dirname "$0")/.."
start='<!-- language-table:start (scripts/language-table.sh writes this section) -->'
end='<!-- language-table:end -->'
binary="${1:-}"
if [ -z "$binary" ]; then
  swift build --product parley >/dev/null
  binary="$(swift build --show-bin-path)/parley"
fi
grep -qxF "$start" README.md && grep -qxF "$end" README.md \
  || { echo "language-table.sh: README.md has no language-table markers" >&2; exit 1; }
table="$(mktemp)"
trap 'rm -f "$table" README.md.new' EXIT
"$binary" languages --markdown > "$table"
awk -v start="$start" -v end="$end" -v table="$table" '
  $0 == start { print; while ((getline line < table) > 0) print line; skipping = 1; next }
  $0 == end { skipping = 0 }
  !skipping { print }
' README.md > README.md.new
mv README.md.new README.md
echo "README.md: language table rewritten ($(grep -c '^| ' "$table") lines from $binary languages --markdown)"
