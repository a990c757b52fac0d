#!/usr/bin/env bash
# The newest published version of every MCP client on npm, against `svcctl dev`: each client's
# own listing command, where it connects to each server (Claude Code, opencode, Gemini CLI, Qwen
# Code print Connected or Failed per server), run on what `svcctl mcp install` wrote. Three
# entries of one user at once per client (remote with the password, remote with a bearer token,
# proxy through mcp-remote), so a client that opens several sessions at once is covered.
# One line per client × entry, then "N passed, M failed". Not part of `npm test` (network, big
# downloads). Usage: npm run build && scripts/check-real-clients.sh --latest [dir]
# The clients are installed into dir (default /tmp/svcctl-latest-clients), never into the project;
# every run has its own temporary HOME.
set -u
DIR=${1:-/tmp/svcctl-latest-clients}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SVC="node $ROOT/bin/svcctl.js"
PACKAGES="@anthropic-ai/claude-code opencode-ai @google/gemini-cli @qwen-code/qwen-code @openai/codex mcp-remote"

mkdir -p "$DIR"
echo "installing the newest $PACKAGES into $DIR" >&2
(cd "$DIR" && [ -f package.json ] || npm init -y >/dev/null 2>&1)
(cd "$DIR" && npm install --no-audit --no-fund --loglevel=error $(for p in $PACKAGES; do printf '%s@latest ' "$p"; done) >&2) || { echo "npm install failed" >&2; exit 2; }
export PATH="$DIR/node_modules/.bin:$PATH"

HOME=$(mktemp -d); export HOME
cd "$HOME" || exit 2
# Gemini CLI disables every MCP server in a folder it does not trust: this temporary one is trusted.
mkdir -p "$HOME/.gemini" && printf '{"%s": "TRUST_FOLDER"}\n' "$HOME" > "$HOME/.gemini/trustedFolders.json"
eval "$($SVC dev --detach --format sh --log-file "$HOME/dev.log")"
trap 'kill "$SVCCTL_DEV_PID" 2>/dev/null; sleep 0.5; rm -rf "$HOME" 2>/dev/null' EXIT
SERVICE_ACCESS_TOKEN=$(printf '%s' "$SERVICE_PASSWORD" | $SVC login --email "$SERVICE_EMAIL" --password-stdin); export SERVICE_ACCESS_TOKEN

passed=0; failed=0
verdict() { # client version entry line-of-output
  local client=$1 version=$2 entry=$3 line=$4 result
  if printf '%s' "$line" | grep -qiE 'connected' && ! printf '%s' "$line" | grep -qiE 'disconnected|fail|error'; then result=connected; passed=$((passed + 1))
  elif [ "$5" = listed ] && [ -n "$line" ]; then result=listed; passed=$((passed + 1))
  else result="FAILED: ${line:-not listed}"; failed=$((failed + 1)); fi
  printf '%-10s %-12s %-8s %s\n' "$client" "$version" "$entry" "$result"
}

for client in claude-code opencode gemini qwen codex; do
  case $client in
    claude-code) program=claude; list="claude mcp list"; kind=connects ;;
    opencode) program=opencode; list="opencode mcp list"; kind=connects ;;
    gemini) program=gemini; list="gemini mcp list"; kind=connects ;;
    qwen) program=qwen; list="qwen mcp list"; kind=connects ;;
    codex) program=codex; list="codex mcp list"; kind=listed ;; # lists what it reads; connects only in a session
  esac
  version=$(timeout 30 "$program" --version 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+[^ ]*' | head -1)
  $SVC mcp install --client "$client" --name pw --mode remote >/dev/null 2>&1
  $SVC mcp install --client "$client" --name bearer --mode remote --auth bearer --token static >/dev/null 2>&1
  $SVC mcp install --client "$client" --name proxy --mode proxy >/dev/null 2>&1
  output=$(timeout 180 $list 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
  for entry in pw bearer proxy; do
    line=$(printf '%s\n' "$output" | grep -E "(^|[^a-z])$entry([^a-z]|$)" | grep -iE "$entry[: ]|$entry\$" | head -1 | tr -s ' ')
    # opencode prints the status on the line of the name: "✓ pw connected".
    verdict "$client" "${version:-?}" "$entry" "$line" "$kind"
  done
done
echo "$passed passed, $failed failed (svcctl $($SVC --version), $(date -u +%Y-%m-%d))"
[ "$failed" -eq 0 ]
