#!/usr/bin/env bash
# Runs the given test files under each Node version named in NODE_VERSIONS (default "22 24"), each fetched from
# the npm registry by `npx -y node@N` the first time, and prints one line per version:
#   node24: 41 passed, 0 failed
# Exits non-zero when a version has a failure or cannot be fetched.
#   bash scripts/test-node-matrix.sh test/a.test.ts test/b.test.ts
# The CLI under test is dist/ as built (npm run build first); the test files run as JavaScript compiled once
# (scripts/compile-tests.mjs), the same on each Node.
set -u
cd "$(dirname "$0")/.."
if [ "$#" -eq 0 ]; then
  echo "usage: bash scripts/test-node-matrix.sh TEST_FILE..." >&2
  exit 2
fi
compiled=$(node scripts/compile-tests.mjs) || exit 1
# A temp HOME and XDG folders, as scripts/run-tests.mjs gives its tests: a child started without HOME of its own
# never reaches the real home.
test_home=$(mktemp -d)
trap 'rm -rf "$compiled" "$test_home"' EXIT
files=()
for file in "$@"; do files+=("$compiled/${file%.ts}.js"); done
status=0
summary=()
for version in ${NODE_VERSIONS:-22 24}; do
  node_bin=$(npx -y "node@$version" -p process.execPath 2>/dev/null)
  if [ -z "$node_bin" ] || [ ! -x "$node_bin" ]; then
    summary+=("node $version: could not be fetched (npx -y node@$version)")
    status=1
    continue
  fi
  log=$(mktemp)
  # The tests' own spawns of `node` must be this Node too: it goes first on PATH.
  # Without the shell's CA bundle, as scripts/run-tests.mjs says.
  env -u NODE_EXTRA_CA_CERTS PATH="$(dirname "$node_bin"):$PATH" HOME="$test_home" USERPROFILE="$test_home" \
    XDG_CONFIG_HOME="$test_home/.config" XDG_CACHE_HOME="$test_home/.cache" XDG_STATE_HOME="$test_home/.local/state" \
    XDG_DATA_HOME="$test_home/.local/share" "$node_bin" --enable-source-maps --test --test-reporter=tap \
    --test-concurrency="${TEST_CONCURRENCY:-4}" "${files[@]}" >"$log" 2>&1
  code=$?
  passed=$(grep -E '^# pass ' "$log" | awk '{print $3}')
  failed=$(grep -E '^# fail ' "$log" | awk '{print $3}')
  if [ "$code" -ne 0 ] || [ "${failed:-1}" != 0 ]; then
    status=1
    grep -E '^\s*not ok ' "$log" | sed "s/^/  node $version: /"
    [ -z "$passed" ] && tail -20 "$log"
  fi
  echo "node $version is $("$node_bin" --version)"
  summary+=("node$version: ${passed:-0} passed, ${failed:-?} failed")
  rm -f "$log"
done
printf '%s\n' "${summary[@]}"
exit "$status"
