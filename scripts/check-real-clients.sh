#!/usr/bin/env bash
# Checks, offline, that real MCP clients accept the files `svcctl mcp install` writes,
# and that the command lines of `svcctl mcp command` add the same entry.
# Not part of `npm test` (the clients are big). Usage:
#   npm i --prefix /tmp/clients @openai/codex @anthropic-ai/claude-code @google/gemini-cli
#   npm run build && scripts/check-real-clients.sh [/tmp/clients]
set -u
CLIENTS_DIR=${1:-/tmp/clients}
BIN="$CLIENTS_DIR/node_modules/.bin"
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SVC="node $ROOT/bin/svcctl.js"
export SERVICE_BASE_URL=https://acme.example.com/api NO_COLOR=1
unset SERVICE_EMAIL SERVICE_PASSWORD SERVICE_ACCESS_TOKEN

run() { echo "\$ $*"; timeout 90 "$@" 2>&1 | grep -v -e '^WARNING: proceeding' -e 'Unknown user config'; echo "(exit ${PIPESTATUS[0]})"; }

# "helper": --token helper (Claude Code: headersHelper in remote mode; otherwise a `svcctl mcp proxy` stdio entry).
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
