#!/usr/bin/env bash
# Checks profiles against the REAL agents: the same agent on two accounts, each account a lane of
# the local mock (mock_api.ts on 127.0.0.1: the first account at `/`, the second at `/receiver/`,
# which is never limited). No real account, no credentials. In tmux:
#   1. claude: `uuldana run` with chain [claude, claude-work] (claude-work: its own HOME and its own
#      lane). Two turns answered, the third limited: claude-work must start on the framed handoff
#      through Claude's SessionStart hook, its first model request on its own lane carrying the
#      frame, within 3 s of the first limit answer; `uuldana limits` shows claude alone limited;
#      a new `uuldana run` starts claude-work at once and says why.
#   2. codex: the same with [codex, codex-work] (each its own CODEX_HOME) on the prompt road.
#   3. exec: `uuldana exec` with --agents codex,codex-work while the first lane is limited.
# Needs tmux; the agents at AGENTS_DIR (NAME@VERSION, as the matrix installs them) or installed
# into a scratch folder by exact version. SCENARIOS="2 3" runs only those named.
#
#   AGENTS_DIR=/work/agents tools/real-agents/check_profiles.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
more_socks="uuldana-profiles-$$-1 uuldana-profiles-$$-2 uuldana-profiles-$$-3 uuldana-profiles-$$-4"
source "$repo/tools/real-agents/script_world.sh" uuldana-profiles
source "$repo/tools/real-agents/claude_world.sh"
version="$CLAUDE_CURRENT"
CODEX_CURRENT=0.171.0

want() { [[ " ${SCENARIOS:-1 2 3} " == *" $1 "* ]]; }
uuldana() { UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" "$@"; }

"$deno" run -A "$repo/tools/real-agents/mock_api.ts" 0 "$work/mock.jsonl" 2>"$work/mock.log" &
mock_pid=$!
for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
[[ -n "$port" ]] || fail "the mock did not start: $(cat "$work/mock.log")"
base="http://127.0.0.1:$port"
mock() { curl -fsS -X POST "$base/__mock/$1" >/dev/null; }
mkdir -p "$work/ws"

scenario=0
start() { # uuldana args…; each start gets its own tmux server
  tmux -L "$sock" kill-server 2>/dev/null || true
  scenario=$((scenario + 1))
  sock="uuldana-profiles-$$-$scenario"
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
    "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts $*; echo EXIT=\$?; sleep 600"
}
wait_for() { # extended regexp, seconds
  for _ in $(seq 1 $(($2 * 5))); do tmux -L "$sock" capture-pane -p | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
# Quits the agent as a user does: Ctrl-C, and a second one only while it still runs (a second one
# after uuldana exited would end the pane's shell).
quit() {
  local _round
  for _round in 1 2 3; do
    tmux -L "$sock" send-keys C-c
    sleep 0.4
    tmux -L "$sock" capture-pane -p | grep -q "EXIT=" && return 0
    tmux -L "$sock" send-keys C-c
    for _ in $(seq 1 25); do tmux -L "$sock" capture-pane -p | grep -q "EXIT=" && return 0; sleep 0.2; done
  done
  fail "uuldana did not exit after Ctrl-C"
}
type_line() { tmux -L "$sock" send-keys -l "$1"; sleep 0.3; tmux -L "$sock" send-keys Enter; }
replies() { grep -c '"account":"agent".*"limited":false' "$work/mock.jsonl" 2>/dev/null || true; }
# The ms from the first limited answer on the first lane to the first model request on the second.
handoff_ms() {
  python3 - "$work/mock.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
limit = next((r["t"] for r in rows if r.get("limited")), None)
recv = next((r["t"] for r in rows if r["account"] == "receiver" and r.get("kind") and limit and r["t"] >= limit), None)
print(recv - limit if limit and recv else "none")
PY
}
framed_on_receiver() {
  python3 - "$work/mock.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(any(r["account"] == "receiver" and "BEGIN UULDANA HANDOFF" in r.get("body", "") for r in rows))
PY
}
agent_bin() { # NAME PACKAGE VERSION: the binary at $AGENTS_DIR/NAME@VERSION, else installed here
  local bin="${AGENTS_DIR:-/nonexistent}/$1@$3/node_modules/.bin/$1"
  if [[ ! -x "$bin" ]]; then
    npm install --prefix "$work/agents-$1" --no-audit --no-fund --loglevel=error "$2@$3" >&2
    bin="$work/agents-$1/node_modules/.bin/$1"
  fi
  echo "$bin"
}
limited_only() { # NAME: `uuldana limits --json` names NAME alone, limited
  uuldana limits --json | python3 -c "import json,sys; l=json.load(sys.stdin); sys.exit(0 if [(x['agent'], x['limited']) for x in l] == [('$1', True)] else 1)" \
    || fail "uuldana limits does not show $1 alone limited: $(uuldana limits --json)"
}
handoff_is() { # TO ROAD: the journal's one handoff went to TO on ROAD and was delivered
  local got
  got="$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT to_agent, road, status FROM handoffs').fetchall())" "$work/data/journal.db")"
  [[ "$got" == "[('$1', '$2', 'delivered')]" ]] || fail "the journal's handoffs: $got"
}
reset_lanes() { mock ok; : > "$work/mock.jsonl"; rm -rf "$work/data"; }

if want 1; then
  claude="$(agent_bin claude @anthropic-ai/claude-code "$CLAUDE_CURRENT")"
  for h in home home-work; do
    mkdir -p "$work/$h"
    printf '{"hasCompletedOnboarding":true,"theme":"dark","projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$work/ws" > "$work/$h/.claude.json"
  done
  cat > "$work/config.json" <<JSON
{"chain": ["claude", "claude-work"],
 "agents": {"claude": {"bin": "$claude", "env": {"HOME": "$work/home",
   "CLAUDE_CODE_OAUTH_TOKEN": "dummy-not-a-real-token", "ANTHROPIC_BASE_URL": "$base",
   "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}}},
 "profiles": {"claude-work": {"agent": "claude", "env": {"HOME": "$work/home-work",
   "ANTHROPIC_BASE_URL": "$base/receiver"}}}}
JSON
  reset_lanes
  start run
  wait_for "$CLAUDE_READY|Make auto mode your default" 90
  if tmux -L "$sock" capture-pane -p | grep -q "Make auto mode your default"; then
    sleep 1; tmux -L "$sock" send-keys Down; sleep 0.5; tmux -L "$sock" send-keys Enter
  fi
  sleep 1
  type_line "Add a --dry-run flag to deploy.sh"
  wait_for "MOCKREPLY-" 60
  type_line "and a test for it"
  for _ in $(seq 1 150); do [[ "$(tmux -L "$sock" capture-pane -p | grep -c MOCKREPLY-)" -ge 2 ]] && break; sleep 0.2; done
  mock limit
  type_line "run the tests"
  for _ in $(seq 1 150); do [[ "$(framed_on_receiver)" == True ]] && break; sleep 0.2; done
  [[ "$(framed_on_receiver)" == True ]] || fail "claude-work sent no request carrying the framed handoff"
  ms="$(handoff_ms)"
  echo "claude → claude-work: first request on the second lane ${ms} ms after the first limit answer (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  quit
  limited_only claude
  handoff_is claude-work hook
  uuldana runs | grep -q "claude-work" || fail "uuldana runs does not name claude-work"
  start run
  wait_for "claude is limited until .*starting claude-work" 30
  echo "ok 1: real Claude Code $CLAUDE_CURRENT: claude → claude-work on the hook road in ${ms} ms; only claude limited; a new run starts claude-work and says why" >&2
fi

codex_home() { # DIR LANE_URL
  mkdir -p "$1"
  cat > "$1/config.toml" <<TOML
model = "mock-1"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "Mock"
base_url = "$2/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[projects."$work/ws"]
trust_level = "trusted"
TOML
}

if want 2 || want 3; then
  codex="$(agent_bin codex @openai/codex "$CODEX_CURRENT")"
  codex_home "$work/codex-a" "$base"
  codex_home "$work/codex-b" "$base/receiver"
  cat > "$work/config.json" <<JSON
{"chain": ["codex", "codex-work"],
 "agents": {"codex": {"bin": "$codex", "env": {"CODEX_HOME": "$work/codex-a",
   "MOCK_API_KEY": "mock-key-not-a-credential"}}},
 "profiles": {"codex-work": {"agent": "codex", "env": {"CODEX_HOME": "$work/codex-b"}}}}
JSON
fi

if want 2; then
  reset_lanes
  start run
  wait_for "›" 90
  sleep 2
  type_line "Add a --dry-run flag to deploy.sh"
  wait_for "MOCKREPLY-" 60
  mock limit
  type_line "and a test for it"
  for _ in $(seq 1 150); do [[ "$(framed_on_receiver)" == True ]] && break; sleep 0.2; done
  [[ "$(framed_on_receiver)" == True ]] || fail "codex-work sent no request carrying the framed handoff"
  ms="$(handoff_ms)"
  sleep 2
  quit
  limited_only codex
  handoff_is codex-work prompt
  echo "codex → codex-work: first request on the second lane ${ms} ms after the first limit answer (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  echo "ok 2: real Codex $CODEX_CURRENT: codex → codex-work on the prompt road in ${ms} ms; only codex limited" >&2
fi

if want 3; then
  reset_lanes
  mock limit
  out="$(cd "$work/ws" && uuldana exec "Add a --dry-run flag to deploy.sh" --agents codex,codex-work 2>"$work/exec.err")" \
    || fail "exec failed: $(cat "$work/exec.err")"
  grep -q "handing off from codex to codex-work" "$work/exec.err" || fail "exec did not hand off: $(cat "$work/exec.err")"
  [[ "$(framed_on_receiver)" == True ]] || fail "codex-work's request does not carry the framed handoff"
  grep -q "MOCKREPLY-" <<<"$out" || fail "exec printed no answer: $out"
  limited_only codex
  echo "ok 3: uuldana exec, real Codex $CODEX_CURRENT: codex → codex-work, answer printed; only codex limited" >&2
fi
