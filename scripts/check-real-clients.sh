#!/usr/bin/env bash
# Checks, offline, that real MCP clients accept the files `svcctl mcp install` writes,
# and that the command lines of `svcctl mcp command` add the same entry.
# Not part of `npm test` (the clients are big). Usage (the CLI agents: --agents, see check_agents; the newest
# versions connecting to `svcctl dev`: --latest; only Claude Code's ${VAR} expansion per scope: --claude-vars):
#   npm i --prefix /tmp/clients @openai/codex @anthropic-ai/claude-code @google/gemini-cli
#   npm run build && scripts/check-real-clients.sh [/tmp/clients]
set -u
# --latest: the newest version of each client from npm, connecting to `svcctl dev` (check-real-clients-latest.sh).
if [ "${1:-}" = "--latest" ]; then shift; exec "$(dirname "$0")/check-real-clients-latest.sh" "$@"; fi
if [ "${1:-}" = "--agents" ]; then AGENTS_ONLY=1; shift; fi
if [ "${1:-}" = "--claude-vars" ]; then CLAUDE_VARS_ONLY=1; shift; fi
CLIENTS_DIR=${1:-/tmp/clients}
BIN="$CLIENTS_DIR/node_modules/.bin"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SVC="node $ROOT/bin/svcctl.js"
export SERVICE_BASE_URL=https://acme.example.com/api NO_COLOR=1
unset SERVICE_EMAIL SERVICE_PASSWORD SERVICE_ACCESS_TOKEN

run() { echo "\$ $*"; timeout 90 "$@" 2>&1 | grep -v -e '^WARNING: proceeding' -e 'Unknown user config'; echo "(exit ${PIPESTATUS[0]})"; }

# Claude Code, Gemini CLI and Codex (the first clients): their files and their own add commands.
check_core() {
# "helper": --token helper (Claude Code, Codex: their headers command in remote mode; otherwise a `svcctl mcp proxy` stdio entry).
for variant in "local password" "remote password" "remote bearer" "proxy password" "proxy bearer" "remote bearer helper" "proxy bearer helper"; do
  set -- $variant; mode=$1; auth=$2; token=${3:+--token $3}
  echo "=================== mode=$mode auth=$auth $token"
  home=$(mktemp -d); mkdir -p "$home/.codex" "$home/.gemini"
  HOME=$home CODEX_HOME=$home/.codex $SVC mcp install --client codex --client claude-code --client gemini \
    --mode "$mode" --auth "$auth" $token --no-input >/dev/null 2>&1 || echo "(svcctl mcp install failed)"
  echo "--- codex (config.toml written by svcctl mcp install)"; cat "$home/.codex/config.toml"
  HOME=$home CODEX_HOME=$home/.codex run "$BIN/codex" mcp get service --json
  echo "--- claude (~/.claude.json written by svcctl mcp install)"
  HOME=$home run "$BIN/claude" mcp get service
  echo "--- gemini (~/.gemini/settings.json written by svcctl mcp install)"
  HOME=$home run "$BIN/gemini" mcp list
  rm -rf "$home"

  echo "--- the same entries added by the clients' own commands (svcctl mcp command)"
  for client in claude-code gemini codex; do
    home=$(mktemp -d); mkdir -p "$home/.codex"
    line=$($SVC mcp command --client "$client" --mode "$mode" --auth "$auth" $token 2>/dev/null) || { echo "$client: svcctl mcp command refused this mode (see README)"; rm -rf "$home"; continue; }
    expected=$($SVC --json mcp print --client "$client" --mode "$mode" --auth "$auth" $token 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(JSON.parse(s).entry)))')
    echo "\$ $line"
    (cd "$home" && HOME=$home CODEX_HOME=$home/.codex PATH="$BIN:$PATH" timeout 90 bash -c "$line" >/dev/null 2>&1); echo "(exit $?)"
    case $client in
      claude-code) file=$home/.claude.json; key=mcpServers ;;
      gemini) file=$home/.gemini/settings.json; key=mcpServers ;;
      codex) file=$home/.codex/config.toml; key=mcp_servers ;;
    esac
    actual=$(cd "$ROOT" && node --input-type=module -e "
      import { readFileSync } from 'node:fs'; import { parse } from 'smol-toml';
      const text = readFileSync(process.argv[1], 'utf8');
      const doc = process.argv[1].endsWith('.toml') ? parse(text) : JSON.parse(text);
      const sort = (v) => Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v;
      console.log(JSON.stringify(sort(doc['$key']?.service ?? null)));" "$file" 2>&1)
    expected_sorted=$(node -e 'const sort=(v)=>Array.isArray(v)?v.map(sort):v&&typeof v==="object"?Object.fromEntries(Object.keys(v).sort().map(k=>[k,sort(v[k])])):v;console.log(JSON.stringify(sort(JSON.parse(process.argv[1]))))' "$expected")
    if [ "$actual" = "$expected_sorted" ]; then echo "$client: same entry as svcctl mcp print"; else echo "$client: DIFFERENT$( [ $client = codex ] && echo " (expected: codex mcp add cannot write env_vars; the shell fills literal values in)")"; echo "  client wrote: $actual"; echo "  print shows:  $expected_sorted"; fi
    rm -rf "$home"
  done
done
}

# ---------------------------------------------------------------------------
# CLI agents (issue 9): each client installed from npm at a pinned version into
# $AGENTS_DIR/<client>, `svcctl mcp install` into a temp HOME per mode × auth,
# then the client's own offline list command must show the entry. `npx` is a
# stub on PATH, so clients that start servers while listing run nothing.
# Prints a Markdown table (the README's). Run: scripts/check-real-clients.sh --agents [dir]
# ---------------------------------------------------------------------------
# AGENT_PACKAGES may be set to check a few only, e.g. AGENT_PACKAGES=cline-cli:cline@3.0.65.
AGENT_PACKAGES=${AGENT_PACKAGES:-"opencode:opencode-ai@1.18.33 kilo:@kilocode/cli@7.7.7 copilot:@github/copilot@1.0.102 qwen:@qwen-code/qwen-code@0.24.4
auggie:@augmentcode/auggie@0.36.0 droid:droid@0.215.0 amp:@ampcode/cli@0.0.1790142911-g7618fb crush:@charmland/crush@0.96.1
cline-cli:cline@3.0.65"}

agent_bin() { case $1 in copilot) echo copilot ;; qwen) echo qwen ;; auggie) echo auggie ;; droid) echo droid ;; amp) echo amp ;; kilo) echo kilo ;; crush) echo crush ;; cline-cli) echo cline ;; *) echo "$1" ;; esac; }

# Cline CLI has no offline list command (`cline config` wants a terminal and a provider): its own settings
# reader (@cline/core, installed with it; Node 22 or later) lists what it registers, errors included.
cline_list() {
  node22=$(npx -y node@22 -p process.execPath 2>/dev/null) || { echo "no Node 22 (npx -y node@22)"; return; }
  (cd "$AGENTS_DIR/cline-cli" && "$node22" --input-type=module -e "
    import { resolveDefaultMcpSettingsPath, resolveMcpServerRegistrations } from '@cline/core';
    for (const r of resolveMcpServerRegistrations({ filePath: resolveDefaultMcpSettingsPath() })) console.log(r.name, r.transport.type);
  " 2>&1)
}

install_agents() {
  for pair in $AGENT_PACKAGES; do
    client=${pair%%:*}; spec=${pair#*:}; dir=$AGENTS_DIR/$client
    [ -x "$dir/node_modules/.bin/$(agent_bin "$client")" ] && continue
    mkdir -p "$dir" && (cd "$dir" && { [ -f package.json ] || echo '{}' > package.json; } && timeout 600 npm install --no-audit --no-fund --save-exact "$spec" >/dev/null 2>&1)
    # Packages whose postinstall only links the platform binary: run it (npm may skip install scripts).
    for script in "$dir"/node_modules/*/install.cjs "$dir"/node_modules/*/install.js "$dir"/node_modules/*/*/install.cjs; do
      [ -f "$script" ] && (cd "$(dirname "$script")" && timeout 120 node "$(basename "$script")" >/dev/null 2>&1)
    done
  done
}

# The client's list command, run in the temp HOME; prints its output.
agent_list() {
  client=$1 home=$2 bin=$AGENTS_DIR/$1/node_modules/.bin/$(agent_bin "$1")
  if [ "$client" = cline-cli ]; then HOME=$home USERPROFILE=$home cline_list; return; fi
  (cd "$home" && HOME=$home XDG_CONFIG_HOME=$home/.config USERPROFILE=$home PATH="$STUBS:$PATH" NO_COLOR=1 \
    timeout 90 "$bin" mcp list </dev/null 2>&1)
}

# accepted: the list shows the entry named service and no config error.
agent_verdict() {
  out=$1
  if printf '%s' "$out" | grep -qi -e 'invalid' -e 'unrecognized key' -e 'failed to parse' -e 'error parsing'; then echo rejected; return; fi
  if printf '%s' "$out" | grep -q -E '(^|[^A-Za-z-])service([^A-Za-z-]|$)'; then echo accepted; else echo rejected; fi
}

# The entry the client's own `mcp add` wrote (the line `svcctl mcp command` prints) against `svcctl mcp print`.
agent_command_verdict() {
  client=$1 mode=$2 auth=$3 home=$(mktemp -d)
  line=$($SVC mcp command --client "$client" --mode "$mode" --auth "$auth" 2>/dev/null) || { echo "refused"; rm -rf "$home"; return; }
  printed=$(HOME=$home XDG_CONFIG_HOME=$home/.config $SVC --json mcp print --client "$client" --mode "$mode" --auth "$auth" 2>/dev/null)
  (cd "$home" && HOME=$home XDG_CONFIG_HOME=$home/.config USERPROFILE=$home PATH="$AGENTS_DIR/$client/node_modules/.bin:$STUBS:$PATH" \
    timeout 90 bash -c "$line" </dev/null >/dev/null 2>&1)
  (cd "$ROOT" && node --input-type=module -e "
    import { readFileSync } from 'node:fs'; import { parse } from 'jsonc-parser';
    const sort = (v) => Array.isArray(v) ? v.map(sort) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort(v[k])])) : v;
    const printed = JSON.parse(process.argv[1]);
    let got;
    try { got = printed.entry_path.reduce((node, key) => node?.[key], parse(readFileSync(printed.file, 'utf8'))); } catch {}
    if (got === undefined) { console.log('wrote nothing'); process.exit(); }
    delete got.disabled; // droid adds disabled: false
    console.log(JSON.stringify(sort(got)) === JSON.stringify(sort(printed.entry)) ? 'same' : 'different: ' + JSON.stringify(got));
  " "$printed")
  rm -rf "$home"
}

check_agents() {
  AGENTS_DIR=${1:-/tmp/svcctl-agents}
  STUBS=$(mktemp -d); printf '#!/bin/sh\nexit 1\n' > "$STUBS/npx"; chmod +x "$STUBS/npx"
  install_agents
  variants="local:password remote:password remote:bearer proxy:password proxy:bearer"
  echo "| client | version | $(for v in $variants; do printf '%s | ' "${v/:/ }"; done)"
  echo "|---|---|$(for v in $variants; do printf -- '---|'; done)"
  for pair in $AGENT_PACKAGES; do
    client=${pair%%:*}; bin=$AGENTS_DIR/$client/node_modules/.bin/$(agent_bin "$client")
    version=$(HOME=$(mktemp -d) timeout 60 "$bin" --version </dev/null 2>/dev/null | grep -o -E '[0-9]+\.[0-9]+\.[0-9]+(-[0-9a-z.]+)?' | head -1)
    row="| $client | ${version:-not installable offline} |"
    for v in $variants; do
      mode=${v%%:*}; auth=${v#*:}
      if [ -z "$version" ]; then row="$row no offline command |"; continue; fi
      home=$(mktemp -d)
      # The values are for clients that take literals (Cline CLI); the others write references.
      if ! HOME=$home XDG_CONFIG_HOME=$home/.config SERVICE_EMAIL=ann@acme.example SERVICE_PASSWORD=pw SERVICE_ACCESS_TOKEN=tok \
        $SVC mcp install --client "$client" --mode "$mode" --auth "$auth" --no-input >/dev/null 2>&1; then
        row="$row svcctl refused |"; rm -rf "$home"; continue
      fi
      out=$(SERVICE_EMAIL=ann@acme.example SERVICE_PASSWORD=pw SERVICE_ACCESS_TOKEN=tok agent_list "$client" "$home")
      [ -n "${VERBOSE:-}" ] && { echo "--- $client $mode $auth"; printf '%s\n' "$out"; } >&2
      row="$row $(agent_verdict "$out") |"
      rm -rf "$home"
    done
    echo "$row"
  done
  echo
  echo "The clients' own \`mcp add\` lines (\`svcctl mcp command\`), run in a temp HOME: same entry as \`svcctl mcp print\`?"
  echo
  echo "| client | $(for v in $variants; do printf '%s | ' "${v/:/ }"; done)"
  echo "|---|$(for v in $variants; do printf -- '---|'; done)"
  for pair in $AGENT_PACKAGES; do
    client=${pair%%:*}
    [ -x "$AGENTS_DIR/$client/node_modules/.bin/$(agent_bin "$client")" ] || { echo "| $client | not installable offline (and no \`mcp add\` command) |"; continue; }
    row="| $client |"
    for v in $variants; do row="$row $(agent_command_verdict "$client" "${v%%:*}" "${v#*:}") |"; done
    echo "$row"
  done
  rm -rf "$STUBS"
}

# Online (needs nothing but svcctl dev): the real Claude Code runs svcctl's headersHelper and proxy.
check_helper_online() {
echo "=================== online: the real Claude Code runs svcctl's headersHelper and proxy against svcctl dev --token-ttl 2"
home=$(mktemp -d); mkdir -p "$home/bin"; ln -s "$ROOT/bin/svcctl.js" "$home/bin/svcctl"
log=$home/dev.log
HOME=$home $SVC dev --token-ttl 2 --user helper@example.com:helper-pw > "$home/ready.json" 2> "$log" &
dev_pid=$!
for _ in $(seq 50); do [ -s "$home/ready.json" ] && break; sleep 0.1; done
base=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0]).base_url)' "$home/ready.json")
export -n SERVICE_BASE_URL
(
  export HOME=$home PATH="$home/bin:$PATH" SERVICE_BASE_URL=$base SERVICE_PASSWORD=helper-pw
  svcctl login --save --email helper@example.com >/dev/null
  svcctl mcp install --client claude-code --mode remote --auth bearer --token helper >/dev/null 2>&1
  svcctl mcp install --client claude-code --mode proxy --auth bearer --token helper --name svcproxy >/dev/null 2>&1
  run "$BIN/claude" mcp get service; sleep 2.5; run "$BIN/claude" mcp get service
  run "$BIN/claude" mcp get svcproxy
)
echo "--- svcctl dev's log of /mcp (a new token each time the helper ran past the 2 s lifetime):"
grep ' /mcp ' "$log" | sed 's/^[^ ]* //'
kill "$dev_pid"; wait "$dev_pid" 2>/dev/null; rm -rf "$home"
}

# Online: the real Claude Code expands the ${VAR} references of `mcp install --mode remote` in each scope
# (user and local in ~/.claude.json, project in .mcp.json): with the variables set every entry connects
# (svcctl dev answers 401 without credentials); with them unset only the headersHelper entries do.
# The project's servers are approved and its folder trusted in the temp HOME, as a person would in `claude`.
check_claude_variables() {
echo "=================== online: Claude Code expands \${VAR} in user, local and project scope (svcctl dev)"
home=$(mktemp -d); mkdir -p "$home/bin" "$home/proj" "$home/.claude"; ln -s "$ROOT/bin/svcctl.js" "$home/bin/svcctl"
printf '{"enableAllProjectMcpServers": true}\n' > "$home/.claude/settings.json"
(
  export HOME=$home PATH="$home/bin:$PATH"; export -n SERVICE_BASE_URL; cd "$home/proj" || exit 2
  eval "$(svcctl dev --detach --format sh --log-file "$home/dev.log")"
  trap 'kill "$SVCCTL_DEV_PID"; while kill -0 "$SVCCTL_DEV_PID" 2>/dev/null; do sleep 0.1; done' EXIT
  SERVICE_ACCESS_TOKEN=$(printf '%s' "$SERVICE_PASSWORD" | svcctl login --email "$SERVICE_EMAIL" --password-stdin)
  printf '%s' "$SERVICE_PASSWORD" | svcctl login --save --email "$SERVICE_EMAIL" --password-stdin >/dev/null
  export SERVICE_ACCESS_TOKEN
  for scope in user local project; do
    s=${scope:0:1}
    svcctl mcp install --client claude-code --scope $scope --mode remote --name $s-pw >/dev/null 2>&1
    svcctl mcp install --client claude-code --scope $scope --mode remote --auth bearer --token static --name $s-bearer >/dev/null 2>&1
    svcctl mcp install --client claude-code --scope $scope --mode remote --auth bearer --token helper --name $s-helper >/dev/null 2>&1
  done
  node -e 'const fs=require("fs"),[f,d]=process.argv.slice(1),j=JSON.parse(fs.readFileSync(f));j.projects[d].hasTrustDialogAccepted=true;fs.writeFileSync(f,JSON.stringify(j,null,2))' "$home/.claude.json" "$home/proj"
  echo "--- variables set"; run "$BIN/claude" mcp list
  echo "--- variables unset"; (unset SERVICE_EMAIL SERVICE_PASSWORD SERVICE_ACCESS_TOKEN; run "$BIN/claude" mcp list)
  echo "--- svcctl dev's log of /mcp: requests per answer and credential"
  grep ' POST /mcp ' "$home/dev.log" | sed -E 's/^[^ ]* POST \/mcp ([0-9]+)( \(closed\))? [0-9.]+ms +/\1 /; s/ 20[0-9-]+ [a-z/]+$//; s/ sha256:[0-9a-f]+//' | sort | uniq -c
)
rm -rf "$home"
}

if [ -n "${CLAUDE_VARS_ONLY:-}" ]; then check_claude_variables; exit; fi
if [ -n "${AGENTS_ONLY:-}" ]; then check_agents "${1:-}"; else check_core; check_helper_online; check_claude_variables; fi
