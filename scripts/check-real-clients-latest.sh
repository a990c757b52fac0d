#!/usr/bin/env bash
# The newest published version of every MCP client on npm, against `svcctl dev`: each client's
# own listing command, where it connects to each server (Claude Code, opencode, Gemini CLI, Qwen
# Code and Factory droid print a status per server), run on what `svcctl mcp install` wrote (user scope,
# secrets by reference in each client's own syntax, the variables exported by `svcctl dev --format sh`). Three
# entries of one user at once per client (remote with the password, remote with a bearer token,
# proxy through mcp-remote), so a client that opens several sessions at once is covered.
# One line per client × entry, then "N passed, M failed, K not installable here". A client whose
# newest release cannot be installed on this machine (a platform package missing from npm, a
# binary downloaded from elsewhere) gets one "not installable here" line: not ours to fix, and not
# a pass. Then a team's sync (docs/teams.md), after the client's first start (its list above, which may rewrite its
# file): `svcctl mcp sync --file` declares two entries (syncpw, syncbearer) for the client and must exit 0, its own
# list must show both, and the pw entry `mcp install` wrote must be gone (svcctl's by its value, whatever the client
# did to the rest of the file); the file then drops syncbearer, and a second sync must remove it from the list
# (docs/real-clients.md).
# Not part of `npm test` (network, big downloads). LATEST_CLIENTS="claude-code codex" checks those only.
# Usage: npm run build && scripts/check-real-clients.sh --latest [dir]
# Each client is installed into its own folder under dir (default /tmp/svcctl-latest-clients), never
# into the project; every run has its own temporary HOME.
set -u
DIR=${1:-/tmp/svcctl-latest-clients}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SVC="node $ROOT/bin/svcctl.js"
# client id : npm package : program : kind (connects: its list prints a status per server; listed: it only lists)
CLIENTS="claude-code:@anthropic-ai/claude-code:claude:connects opencode:opencode-ai:opencode:connects
gemini:@google/gemini-cli:gemini:connects qwen:@qwen-code/qwen-code:qwen:connects codex:@openai/codex:codex:listed
droid:droid:droid:connects copilot:@github/copilot:copilot:listed auggie:@augmentcode/auggie:auggie:listed
kilo:@kilocode/cli:kilo:listed amp:@ampcode/cli:amp:listed crush:@charmland/crush:crush:listed"
if [ -n "${LATEST_CLIENTS:-}" ]; then
  CLIENTS=$(for row in $CLIENTS; do case " $LATEST_CLIENTS " in *" ${row%%:*} "*) echo "$row" ;; esac; done)
fi

# Installs the newest version of a package into its own folder and runs the install scripts that only
# link a platform binary (npm may skip them); prints the program's path, or nothing when it cannot run.
install_latest() { # folder package program
  local dir=$1 package=$2 program=$3
  mkdir -p "$dir"
  (cd "$dir" && { [ -f package.json ] || echo '{}' > package.json; } &&
    timeout 600 npm install --no-audit --no-fund --loglevel=error "$package@latest" >/dev/null 2>&1
    for script in node_modules/*/install.cjs node_modules/*/install.js node_modules/*/*/install.cjs; do
      [ -f "$script" ] && (cd "$(dirname "$script")" && timeout 120 node "$(basename "$script")" >/dev/null 2>&1)
    done)
  local bin=$dir/node_modules/.bin/$program
  [ -x "$bin" ] && HOME=$(mktemp -d) timeout 60 "$bin" --version </dev/null >/dev/null 2>&1 && echo "$bin"
}

echo "installing the newest version of each client into $DIR (one folder each)" >&2
install_latest "$DIR/mcp-remote" mcp-remote mcp-remote >/dev/null || { echo "npm install of mcp-remote failed" >&2; exit 2; }
export PATH="$DIR/mcp-remote/node_modules/.bin:$PATH"

HOME=$(mktemp -d); export HOME XDG_CONFIG_HOME=$HOME/.config
cd "$HOME" || exit 2
# Gemini CLI disables every MCP server in a folder it does not trust: this temporary one is trusted.
mkdir -p "$HOME/.gemini" && printf '{"%s": "TRUST_FOLDER"}\n' "$HOME" > "$HOME/.gemini/trustedFolders.json"
eval "$($SVC dev --detach --format sh --log-file "$HOME/dev.log")"
trap 'kill "$SVCCTL_DEV_PID" 2>/dev/null; sleep 0.5; rm -rf "$HOME" 2>/dev/null' EXIT
SERVICE_ACCESS_TOKEN=$(printf '%s' "$SERVICE_PASSWORD" | $SVC login --email "$SERVICE_EMAIL" --password-stdin); export SERVICE_ACCESS_TOKEN

passed=0; failed=0; missing=0
verdict() { # client version entry line-of-output kind
  local client=$1 version=$2 entry=$3 line=$4 result
  if printf '%s' "$line" | grep -qiE 'connected' && ! printf '%s' "$line" | grep -qiE 'disconnected|fail|error'; then result=connected; passed=$((passed + 1))
  # droid prints its status after a few seconds: a proxy still starting mcp-remote then is read, not failed.
  elif printf '%s' "$line" | grep -qiE 'connecting' && ! printf '%s' "$line" | grep -qiE 'fail|error'; then result='listed (still connecting when it printed)'; passed=$((passed + 1))
  elif [ "$5" = listed ] && [ -n "$line" ]; then result=listed; passed=$((passed + 1))
  else result="FAILED: ${line:-not listed}"; failed=$((failed + 1)); fi
  printf '%-11s %-22s %-8s %s\n' "$client" "$version" "$entry" "$result"
}

# The sync file for one client: both servers, or (second run) syncpw alone.
sync_file() { # client with-bearer
  printf 'clients = ["%s"]\nscope = "user"\n\n[[server]]\nname = "syncpw"\nbase_url = "%s"\nmode = "remote"\n' "$1" "$SERVICE_BASE_URL"
  [ "$2" = yes ] && printf '\n[[server]]\nname = "syncbearer"\nbase_url = "%s"\nmode = "remote"\nauth = "bearer"\ntoken = "static"\n' "$SERVICE_BASE_URL"
}

# Runs the sync, which must exit 0; its lines are printed when it does not.
run_sync() { # client version
  local out code
  out=$($SVC mcp sync --file "$HOME/svcctl-mcp.toml" --no-backup --yes 2>&1); code=$?
  if [ "$code" -eq 0 ]; then printf '%-11s %-22s %-8s %s\n' "$1" "$2" sync "exit 0"; passed=$((passed + 1)); return; fi
  printf '%-11s %-22s %-8s %s\n' "$1" "$2" sync "FAILED: svcctl mcp sync exit $code"; failed=$((failed + 1))
  printf '%s\n' "$out" | sed 's/^/    /'
}

client_list() { # program bin-folder
  PATH="$2:$PATH" timeout 180 "$1" mcp list </dev/null 2>&1 | sed 's/\x1b\[[0-9;]*m//g'
}

entry_line() { printf '%s\n' "$1" | grep -E "(^|[^a-z])$2([^a-z]|$)" | grep -iE "$2[: ]|$2\$" | head -1 | tr -s ' '; }

check_sync() { # client version program bin-folder kind
  local client=$1 version=$2 output line result
  sync_file "$client" yes >"$HOME/svcctl-mcp.toml"; run_sync "$client" "$version"
  output=$(client_list "$3" "$4")
  for entry in syncpw syncbearer; do verdict "$client" "$version" "$entry" "$(entry_line "$output" "$entry")" "$5"; done
  # Sync makes the file hold exactly the declaration among svcctl's entries: `mcp install`'s pw goes.
  if [ -z "$(entry_line "$output" pw)" ]; then result="removed (mcp install's, not declared)"; passed=$((passed + 1))
  else result="FAILED: still listed after sync"; failed=$((failed + 1)); fi
  printf '%-11s %-22s %-8s %s\n' "$client" "$version" pw "$result"
  sync_file "$client" no >"$HOME/svcctl-mcp.toml"; run_sync "$client" "$version"
  output=$(client_list "$3" "$4")
  verdict "$client" "$version" syncpw "$(entry_line "$output" syncpw)" "$5"
  line=$(entry_line "$output" syncbearer)
  if [ -z "$line" ]; then result='removed by the second sync'; passed=$((passed + 1)); else result="FAILED: still listed after the second sync: $line"; failed=$((failed + 1)); fi
  printf '%-11s %-22s %-8s %s\n' "$client" "$version" syncbearer "$result"
}

for row in $CLIENTS; do
  IFS=: read -r client package program kind <<<"$row"
  newest=$(npm view "$package" version 2>/dev/null | tail -1)
  bin=$(install_latest "$DIR/$client" "$package" "$program")
  if [ -z "$bin" ]; then
    printf '%-11s %-22s %-8s %s\n' "$client" "${newest:-?}" all "not installable here (npm install or its platform binary failed)"
    missing=$((missing + 1)); continue
  fi
  version=$(timeout 30 "$bin" --version </dev/null 2>/dev/null | grep -oE '[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?' | head -1 | sed 's/\.$//')
  $SVC mcp install --client "$client" --name pw --mode remote >/dev/null 2>&1
  $SVC mcp install --client "$client" --name bearer --mode remote --auth bearer --token static >/dev/null 2>&1
  $SVC mcp install --client "$client" --name proxy --mode proxy >/dev/null 2>&1
  seen=$(wc -l <"$HOME/dev.log")
  output=$(PATH="$(dirname "$bin"):$PATH" timeout 180 "$program" mcp list </dev/null 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
  # The MCP revisions it used: the sandbox logs a 2026 request with its revision and a 2025 handshake as a new session.
  eras=$(tail -n +"$((seen + 1))" "$HOME/dev.log" | grep -oE '2026-07-28 server/discover|new session' | sed 's/new session/2025-11-25 initialize/' | sort -u | paste -sd, -)
  for entry in pw bearer proxy; do
    line=$(printf '%s\n' "$output" | grep -E "(^|[^a-z])$entry([^a-z]|$)" | grep -iE "$entry[: ]|$entry\$" | head -1 | tr -s ' ')
    # opencode prints the status on the line of the name: "✓ pw connected".
    verdict "$client" "${version:-?}" "$entry" "$line" "$kind"
  done
  printf '%-11s %-22s %-8s %s\n' "$client" "${version:-?}" eras "${eras:-no MCP request reached the sandbox}"
  check_sync "$client" "${version:-?}" "$program" "$(dirname "$bin")" "$kind"
done
echo "$passed passed, $failed failed, $missing not installable here (svcctl $($SVC --version), $(date -u +%Y-%m-%d))"
[ "$failed" -eq 0 ]
