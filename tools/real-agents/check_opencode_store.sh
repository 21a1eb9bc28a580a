#!/usr/bin/env bash
# Checks the store road against the REAL OpenCode: installs opencode-ai from npm into a scratch folder
# (never the repo), runs `uuldana run claude --then opencode` in tmux with uuldana's simulated Claude
# (which hits its usage limit on the first turn) and OpenCode set to the store road. OpenCode must
# import a new session whose first user message is the framed handoff (checked with its own
# `opencode export`), open it with -s, and get the one-line kickoff submitted. No account is needed;
# OpenCode's model call itself fails offline, which is fine. Needs npm registry access and tmux.
#
#   tools/real-agents/check_opencode_store.sh [OPENCODE_VERSION]
set -euo pipefail
version="${1:-1.18.33}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
deno="$repo/tools/deno.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/uuldana-real-opencode-XXXXXX")"
sock="uuldana-real-oc-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true' EXIT
fail() { echo "FAIL: $*" >&2; tmux -L "$sock" capture-pane -p >&2 2>/dev/null || true; exit 1; }

echo "installing opencode-ai@$version into $work/agents" >&2
npm install --prefix "$work/agents" --no-audit --no-fund --loglevel=error "opencode-ai@$version" >&2
mkdir -p "$work/home" "$work/ws" "$work/bin"
"$deno" eval "import { installSimAgents } from '$repo/src/sim/install.ts';
  installSimAgents('$work/bin', ['claude'], [Deno.execPath(), 'run', '-A', '--config', '$repo/deno.json', '$repo/mod.ts']);"
oc_env="\"HOME\": \"$work/home\", \"XDG_DATA_HOME\": \"$work/home/.local/share\""
cat > "$work/config.json" <<JSON
{"chain": ["claude", "opencode"], "agents": {
  "claude": {"bin": "$work/bin/claude", "env": {"SIM_LIMIT_AFTER": "1"}},
  "opencode": {"bin": "$work/agents/node_modules/.bin/opencode", "road": "store", "env": {$oc_env}}}}
JSON
tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
  "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts run; echo EXIT=\$?; sleep 600"
wait_for() { # pattern, seconds
  for _ in $(seq 1 $(($2 * 5))); do tmux -L "$sock" capture-pane -p | grep -q -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
wait_for "for shortcuts" 60
sleep 1
tmux -L "$sock" send-keys -l "Add a --dry-run flag to deploy.sh"
tmux -L "$sock" send-keys Enter
wait_for "Continue the work described in the handoff message above" 90
session="$(cd "$work/ws" && HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" \
  "$work/agents/node_modules/.bin/opencode" session list 2>/dev/null | grep -o 'ses_[A-Za-z0-9]*' | tail -n 1 || true)"
[[ -n "$session" ]] || fail "no OpenCode session was created"
(cd "$work/ws" && HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" \
  "$work/agents/node_modules/.bin/opencode" export "$session" 2>/dev/null) > "$work/export.json"
grep -q 'BEGIN UULDANA HANDOFF' "$work/export.json" || fail "the imported session does not hold the framed handoff"
grep -q 'Add a --dry-run flag to deploy.sh' "$work/export.json" || fail "the handoff lacks the original request"
echo "OK: real OpenCode $version imported the framed handoff as a new session and got the kickoff" >&2
