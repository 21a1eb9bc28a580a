#!/usr/bin/env bash
# Checks uuldana against the REAL Claude Code. It installs Claude Code from npm into a scratch folder
# (never the repo) and answers its API calls with a local mock on 127.0.0.1 that returns the
# usage-limit 429 (no account, no credentials). Then, in tmux:
#   1. automatic: `uuldana run claude --then codex`, a request typed; Claude's real limit screen must
#      make uuldana hand the framed conversation to the next agent (uuldana's simulated Codex, which
#      records what it received), and Claude must be stopped;
#   2. manual: `uuldana run codex --then claude`, a turn typed, then `/agent claude`; the framed
#      handoff must land in real Claude's input box and must NOT be sent (the mock sees no message);
#   3. hook road: `uuldana run codex --then claude` with the simulated Codex hitting its limit; real
#      Claude must start on the handoff through its SessionStart hook and the kickoff, so the first
#      message request Claude sends to the (mock) API carries the framed handoff;
#   4. cat: the mock answers like a working model that prints notes.txt with the Bash tool, a file
#      whose first line is Claude's own limit line, and ends its turn there; Claude shows that line
#      on its `⎿` row and goes idle, and uuldana must NOT switch (no Codex session, Claude running).
# Needs tmux (and npm registry access unless AGENTS_DIR holds claude@VERSION). Takes a few
# minutes. SCENARIOS="4" runs only those named. VERSION: default the current release (2.1.332).
#
#   tools/real-agents/check_claude_limit.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
sock="uuldana-real-$$-0"
more_socks="uuldana-real-$$-1 uuldana-real-$$-2 uuldana-real-$$-3 uuldana-real-$$-4"
source "$repo/tools/real-agents/script_world.sh" uuldana-real-claude

source "$repo/tools/real-agents/claude_world.sh"
version="${version:-$CLAUDE_CURRENT}"
install_claude
echo limit > "$work/mock-mode"
start_mock anthropic_mock.ts "$work/bodies.jsonl" "$work/mock-mode"
write_world
# Scenario 4's tool call runs without a permission prompt, in the default permission mode (2.1.332's
# auto mode asks a server-side safety check the mock cannot answer), its output shown in full.
mkdir -p "$work/home/.claude"
printf '{"permissions":{"allow":["Bash(sh show-notes.sh)","Bash(sh:*)"],"defaultMode":"default"},"verbose":true}' \
  > "$work/home/.claude/settings.json"

scenario=0
start() { # uuldana args…; each scenario gets its own tmux server
  tmux -L "$sock" kill-server 2>/dev/null || true
  scenario=$((scenario + 1))
  sock="uuldana-real-$$-$scenario"
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
    "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts $*; echo EXIT=\$?; sleep 600"
}
wait_for() { # extended regexp, seconds
  for _ in $(seq 1 $(($2 * 5))); do tmux -L "$sock" capture-pane -p | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
# Claude's (or the simulated Codex's) input box is drawn; 2.1.332 in the default permission mode may
# first offer auto mode, answered as a user keeping manual mode.
ready() {
  wait_for "$CLAUDE_READY|Make auto mode your default" 60
  if tmux -L "$sock" capture-pane -p | grep -q "Make auto mode your default"; then
    sleep 1; tmux -L "$sock" send-keys Down; sleep 0.5; tmux -L "$sock" send-keys Enter
    wait_for "$CLAUDE_READY" 30
  fi
  sleep 1
}
type_line() { tmux -L "$sock" send-keys -l "$1"; tmux -L "$sock" send-keys Enter; }
codex_sessions() { local n; n="$(grep -c '"persona":"codex".*"mode":"tui"' "$work/codex.log" 2>/dev/null || true)"; echo "${n:-0}"; }

want() { [[ " ${SCENARIOS:-1 2 3 4} " == *" $1 "* ]]; }

# 1. Automatic: Claude's real limit screen → the framed handoff reaches the next agent.
if want 1; then
start run claude
ready
type_line "Add a --dry-run flag to deploy.sh"
for _ in $(seq 1 150); do [[ "$(codex_sessions)" -ge 1 ]] && break; sleep 0.2; done
grep '"persona":"codex".*"mode":"tui"' "$work/codex.log" | grep -q 'BEGIN UULDANA HANDOFF' \
  || fail "codex did not start on the framed handoff"
grep -q "You've hit your" "$work/codex.log" || fail "the handoff lacks Claude's limit message"
# uuldana stops Claude in the background (quit keys, then TERM after 1.5 s, KILL after 2 s more).
for _ in $(seq 1 50); do [[ -z "$(claude_pids)" ]] && break; sleep 0.2; done
[[ -n "$(claude_pids)" ]] && fail "Claude Code is still running 10 s after the switch"
echo "ok 1: real Claude Code $version hit its (mock) limit; uuldana handed off framed and stopped it" >&2
fi

# 2. Manual: /agent claude pastes the framed handoff into real Claude's input box, unsent.
if want 2; then
start run codex --then claude
ready
type_line "refactor the parser into its own module"
sleep 2
type_line "/agent claude"
posts_before="$(grep -c 'POST /v1/messages' "$work/mock.log" || true)"
wait_for "Pasted text" 60
sleep 3
posts_after="$(grep -c 'POST /v1/messages' "$work/mock.log" || true)"
[[ "$posts_after" == "$posts_before" ]] || fail "the pasted handoff was sent to the API"
UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" runs --json \
  | grep -q '"status": "pasted"' || fail "the journal does not record the paste"
echo "ok 2: /agent claude pasted the framed handoff into real Claude's input box; nothing was sent" >&2
fi

# 3. Hook road: the simulated Codex hits its limit; real Claude starts on the handoff.
if want 3; then
python3 - "$work/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["agents"]["codex"]["env"]["SIM_LIMIT_AFTER"] = "1"
json.dump(config, open(path, "w"))
PY
: > "$work/bodies.jsonl"
# Scenario 1 left Claude's limit in uuldana's ledger (it would wait for Claude's reset instead).
UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" limits clear claude >/dev/null
start run codex --then claude
ready
type_line "Add a --dry-run flag to deploy.sh"
# Claude's first request may be its session-title one; the turn itself carries the hook context.
for _ in $(seq 1 300); do grep -q 'BEGIN UULDANA HANDOFF' "$work/bodies.jsonl" 2>/dev/null && break; sleep 0.2; done
[[ -s "$work/bodies.jsonl" ]] || fail "real Claude sent no message after the handoff"
grep -q 'BEGIN UULDANA HANDOFF' "$work/bodies.jsonl" || fail "no request from Claude carries the framed handoff"
grep -q 'Continue the work described in the uuldana handoff' "$work/bodies.jsonl" \
  || fail "Claude's request lacks the kickoff prompt"
echo "ok 3: real Claude ran the SessionStart hook: its turn carries the framed handoff as context" >&2
fi

# 4. cat: Claude's own limit line as a tool's output is not a limit.
if want 4; then
python3 - "$work/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["agents"]["codex"]["env"].pop("SIM_LIMIT_AFTER", None)
json.dump(config, open(path, "w"))
PY
# Both versions' limit line, and every row 2.1.332 draws at its limit.
cat > "$work/ws/notes.txt" <<'TXT'
You've hit your session limit · resets 3:01am (UTC)
You've hit your 5-hour limit · resets 9:44pm (UTC)
● Usage limit reached · set to continue automatically at 9:44pm
  ⚠ Usage limit reached · limit resets 9:44pm
    Continuing automatically at 9:44pm · Esc to cancel
Remember to ask for more credits.
TXT
echo 'cat notes.txt' > "$work/ws/show-notes.sh"
echo cat > "$work/mock-mode"
: > "$work/bodies.jsonl"
sessions_before="$(codex_sessions)"
start run claude
ready
type_line "show me notes.txt"
wait_for "Remember to ask for more credits" 60
# The turn ended on the tool's output; Claude is idle with its input box back. Give uuldana time.
for _ in $(seq 1 100); do [[ "$(grep -c tool_result "$work/bodies.jsonl" || true)" -ge 1 ]] && break; sleep 0.2; done
grep -q tool_result "$work/bodies.jsonl" || fail "Claude did not send the tool's result back"
sleep 5
[[ "$(codex_sessions)" == "$sessions_before" ]] || fail "uuldana switched on a limit line quoted by cat"
[[ -n "$(claude_pids)" ]] || fail "Claude Code was stopped"
tmux -L "$sock" capture-pane -p | grep -q "You've hit your session limit" \
  || fail "the quoted line is not on Claude's screen"
echo "ok 4: real Claude showed its own limit line as cat's output; uuldana did not switch" >&2
fi
UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" runs
