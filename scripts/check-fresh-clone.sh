#!/usr/bin/env bash
# Clones this repository into an empty folder with nothing beside it (no sibling folders, no node_modules)
# and runs the README's two quickstart commands there: `npm ci && npm run demo`, then `npm test`.
# Usage: bash scripts/check-fresh-clone.sh [git-ref]   (default: HEAD; commit first, it clones committed work)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-HEAD}
work=$(mktemp -d "${TMPDIR:-/tmp}/svcctl-fresh-XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-local "$repo" "$work/svcctl"
cd "$work/svcctl"
git checkout --quiet "$ref"
[ "$(ls -A "$work")" = svcctl ] || { echo "check-fresh-clone: $work holds more than the clone" >&2; exit 1; }
echo "check-fresh-clone: $(git rev-parse --short HEAD) in $work/svcctl"
echo "== npm ci && npm run demo"
npm ci --no-audit --no-fund >/dev/null
npm run demo
echo "== npm test"
npm test
echo "check-fresh-clone: both README commands passed"
