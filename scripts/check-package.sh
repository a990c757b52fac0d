#!/usr/bin/env bash
# Packs svcctl as npm would publish it, installs the tarball globally into an empty prefix with an empty
# npm cache (nothing of the project cached), and uses the installed CLI as a new user would:
# --version, --help, `dev --port 0` until its ready line, one `event send` and a `login` against it,
# `mcp install --dry-run`, and the first `npx`-style run from the tarball.
# Prints the tarball size, the installed size and the install time, and fails when the numbers README.md and
# docs/install.md state disagree with the sizes by more than 5 % (scripts/package-numbers.mjs).
# Usage: bash scripts/check-package.sh        (RUNS=3 repeats the install to show the spread)
#        bash scripts/check-package.sh --tarball FILE   (checks a tarball `npm pack` already made)
set -euo pipefail
given_tarball=
if [ "${1:-}" = --tarball ]; then given_tarball=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); fi
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/svcctl-pack-XXXXXX")
dev_pid=
cleanup() {
  if [ -n "$dev_pid" ]; then kill "$dev_pid" 2>/dev/null || true; wait "$dev_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-package: FAILED: $*" >&2; exit 1; }
now_ms() { date +%s%3N; }
npm_quiet=(--no-audit --no-fund --loglevel=error)
export npm_config_update_notifier=false

cd "$repo"
# The bundle is the product (README, "Installing"): libraries are devDependencies, bundled into dist/.
deps=$(node -p "Object.keys(require('./package.json').dependencies ?? {}).join(' ')")
[ -z "$deps" ] || fail "package.json has dependencies ($deps): dist/ bundles them, so add them with npm install -D" \
  "(a native module that cannot be bundled goes to optionalDependencies, external in scripts/build.mjs)"
if [ -n "$given_tarball" ]; then
  tarball=$given_tarball
else
  tarball=$(npm pack --pack-destination "$work" --silent "${npm_quiet[@]}" | tail -n 1)
  tarball="$work/$tarball"
fi
tarball_bytes=$(wc -c <"$tarball" | tr -d ' ')
echo "check-package: tarball $(basename "$tarball"): $((tarball_bytes / 1024)) KiB ($tarball_bytes bytes)"

install_once() { # $1: a fresh prefix; prints the install time in ms
  local start
  start=$(now_ms)
  npm install -g --no-audit --no-fund --loglevel=warn --prefix "$1" --cache "$1.cache" "$tarball" >"$1.log" 2>&1 ||
    { cat "$1.log" >&2; fail "npm install -g of the tarball failed"; }
  echo $(($(now_ms) - start))
}
times=()
for run in $(seq 1 "${RUNS:-1}"); do times+=("$(install_once "$work/prefix$run")"); done
prefix="$work/prefix1"
echo "check-package: install time: ${times[*]} ms (empty npm cache each run)"
installed="$prefix/lib/node_modules/svcctl"
# The packages npm installed: svcctl and what it brought (the optional OS keychain module and its binary for this platform).
packages=$(cd "$installed" && find . -name package.json -not -path './bin/*' | sort | sed -E 's#^\./(node_modules/)?##; s#/?package\.json$##; s#^$#svcctl#' | paste -sd, - | sed 's/,/, /g')
echo "check-package: installed size: $(du -sk "$installed" | cut -f1) KiB on disk, $(find "$installed" -type f | wc -l) files;" \
  "$(cd "$installed" && find . -name package.json -not -path './bin/*' | wc -l | tr -d ' ') packages: $packages"
# npm counts a package's own `prepare` as an install script (a warning, or a refusal under allow-scripts).
if grep -Eqi 'install-scripts|prepare' "$prefix.log"; then cat "$prefix.log" >&2; fail "npm saw an install script in the package"; fi
# The numbers README.md and docs/install.md state, against these: a number in the docs comes from this script.
node "$repo/scripts/package-numbers.mjs" --tarball-bytes "$tarball_bytes" --installed-kib "$(du -sk "$installed" | cut -f1)" \
  --files "$(find "$installed" -type f | wc -l | tr -d ' ')" --dist-kib "$(du -sk "$installed/dist" | cut -f1)" ||
  fail "the docs' package numbers disagree with the package (above)"

home="$work/home"
mkdir -p "$home"
bin="$prefix/bin/svcctl"
clean_env=(env -i PATH="$prefix/bin:$(dirname "$(command -v node)"):/usr/bin:/bin" HOME="$home" XDG_CONFIG_HOME="$home/.config"
  NO_COLOR=1 npm_config_update_notifier=false)
run() { "${clean_env[@]}" "$@"; }

version=$(run "$bin" --version) || fail "svcctl --version"
[ "$version" = "$(node -p "require('$repo/package.json').version")" ] || fail "svcctl --version printed '$version'"
echo "check-package: svcctl --version -> $version"
run "$bin" --help | grep -q '^Usage: svcctl' || fail "svcctl --help has no usage line"
echo "check-package: svcctl --help ok"

# Started directly (not through the run function, whose subshell would be what $! names): the
# cleanup then stops svcctl dev itself.
"${clean_env[@]}" "$bin" dev --port 0 >"$work/ready.json" 2>"$work/dev.err" &
dev_pid=$!
for _ in $(seq 1 100); do [ -s "$work/ready.json" ] && break; sleep 0.1; done
[ -s "$work/ready.json" ] || { cat "$work/dev.err" >&2; fail "svcctl dev printed no ready line within 10 s"; }
field() { node -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8').split('\n')[0]);process.stdout.write(String($1))" "$work/ready.json"; }
base_url=$(field r.base_url)
echo "check-package: svcctl dev ready at $base_url"

run SERVICE_BASE_URL="$base_url" SERVICE_INGEST_TOKEN="$(field 'r.webhooks[0].ingest_token')" \
  SERVICE_HMAC_SECRET="$(field 'r.webhooks[0].hmac_secret')" "$bin" event send --title "check-package" >"$work/sent.txt" ||
  fail "svcctl event send"
echo "check-package: svcctl event send -> $(head -c 80 "$work/sent.txt")"
field 'r.users[0].password' | run SERVICE_BASE_URL="$base_url" "$bin" login --email "$(field 'r.users[0].email')" \
  --password-stdin >"$work/token.txt" || fail "svcctl login"
[ "$(tr -cd . <"$work/token.txt" | wc -c)" = 2 ] || fail "svcctl login printed no JWT"
echo "check-package: svcctl login -> a JWT"
run SERVICE_BASE_URL="$base_url" "$bin" mcp install --client cursor --mode remote --dry-run --no-input >"$work/diff.txt" 2>"$work/diff.err" ||
  fail "svcctl mcp install --dry-run"
grep -q '^+' "$work/diff.txt" || fail "mcp install --dry-run printed no diff"
echo "check-package: svcctl mcp install --dry-run printed a diff"
run "$bin" completion bash | grep -q 'complete -F' || fail "svcctl completion bash"
echo "check-package: svcctl completion bash ok"

start=$(now_ms)
(cd "$work" && run npm exec "${npm_quiet[@]}" --yes --cache "$work/npx.cache" --package "$tarball" -- svcctl --version >/dev/null) ||
  fail "npx-style run from the tarball"
echo "check-package: first npx-style run from the tarball (empty cache): $(($(now_ms) - start)) ms"
echo "check-package: passed"
