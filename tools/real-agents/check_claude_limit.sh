#!/usr/bin/env bash
# Checks uuldana against the REAL Claude Code: installs it from npm into a scratch folder (never the
# repo), answers its API calls with a local mock on 127.0.0.1 that returns the usage-limit 429,
# runs `uuldana run claude --then codex` in tmux, types a request, and checks that Claude's real
# limit screen made uuldana hand the framed conversation to the next agent (uuldana's simulated
# Codex, which records what it received). Needs npm registry access and tmux. Takes ~1 minute.
#
#   tools/real-agents/check_claude_limit.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-2.1.197}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
deno="$repo/tools/deno.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/uuldana-real-claude-XXXXXX")"
port=18080
sock="uuldana-real-$$"
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; kill "${mock_pid:-0}" 2>/dev/null || true; }
trap cleanup EXIT

echo "installing @anthropic-ai/claude-code@$version into $work/agents" >&2
npm install --prefix "$work/agents" --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$version" >&2
"$deno" run -A "$repo/tools/real-agents/anthropic_mock.ts" "$port" 2>"$work/mock.log" &
mock_pid=$!

mkdir -p "$work/home" "$work/ws" "$work/bin"
printf '{"hasCompletedOnboarding":true,"theme":"dark","projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$work/ws" > "$work/home/.claude.json"
"$deno" eval "import { installSimAgents } from '$repo/src/sim/install.ts';
  installSimAgents('$work/bin', ['codex'], [Deno.execPath(), 'run', '-A', '--config', '$repo/deno.json', '$repo/mod.ts']);"
cat > "$work/config.json" <<JSON
{"chain": ["claude", "codex"], "agents": {
  "claude": {"bin": "$work/agents/node_modules/.bin/claude", "env": {"HOME": "$work/home",
    "CLAUDE_CODE_OAUTH_TOKEN": "dummy-not-a-real-token", "ANTHROPIC_BASE_URL": "http://127.0.0.1:$port",
    "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}},
  "codex": {"bin": "$work/bin/codex", "env": {"SIM_AGENT_LOG": "$work/codex.log"}}}}
JSON

tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
  "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts run claude; echo EXIT=\$?; sleep 600"
wait_for() { # pattern, seconds
  for _ in $(seq 1 $(($2 * 5))); do tmux -L "$sock" capture-pane -p | grep -q "$1" && return 0; sleep 0.2; done
  echo "timed out waiting for: $1" >&2; tmux -L "$sock" capture-pane -p >&2; return 1
}
wait_for "for shortcuts" 60
sleep 1
tmux -L "$sock" send-keys -l "Add a --dry-run flag to deploy.sh"
tmux -L "$sock" send-keys Enter
for _ in $(seq 1 150); do grep -q '"persona":"codex".*"mode":"tui"' "$work/codex.log" 2>/dev/null && break; sleep 0.2; done
grep '"persona":"codex".*"mode":"tui"' "$work/codex.log" | grep -q 'BEGIN UULDANA HANDOFF' \
  || { echo "FAIL: codex did not start on the framed handoff" >&2; tmux -L "$sock" capture-pane -p >&2; exit 1; }
grep -q "You've hit your session limit" "$work/codex.log" \
  || { echo "FAIL: the handoff does not carry Claude's limit message" >&2; exit 1; }
sleep 1
if pgrep -f "$work/agents" >/dev/null; then echo "FAIL: Claude Code is still running" >&2; exit 1; fi
UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" runs
echo "OK: real Claude Code $version hit its (mock) usage limit; uuldana handed off framed; Claude was stopped." >&2
