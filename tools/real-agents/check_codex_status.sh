#!/usr/bin/env bash
# Checks how uuldana reads the REAL Codex CLI's own status reports (OSC 7501, which Codex prints
# on every TTY: `working` in a turn, `error` when it fails, a usage limit and a server error
# alike) against a local mock of the OpenAI API on 127.0.0.1 (tools/real-agents/mock_api.ts; no
# account, no credentials), through `uuldana run codex` in tmux, with uuldana's simulated Claude
# as the next agent:
#
#   1. a normal turn;
#   2. the mock answers 500s: Codex retries, then shows `■ We're currently experiencing high
#      demand…` with its status `error`; uuldana must NOT hand off (waited 45 s after the turn);
#   3. the mock answers the usage-limit 429: uuldana hands off, acting on the limit row of a turn
#      whose status went `error`; prints the time from the mock's first limit answer to the
#      handoff and to the next agent's first model request.
#
# Then `uuldana debug detect 1` must replay the run to the same decisions. Needs tmux; Codex from
# $AGENTS_DIR/codex@VERSION (default /work/agents) or on PATH. Takes about 2 minutes.
#
#   tools/real-agents/check_codex_status.sh [CODEX_VERSION]
set -euo pipefail
version="${1:-0.171.0}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$repo/tools/real-agents/script_world.sh" uuldana-real-codex-status

bin="${AGENTS_DIR:-/work/agents}/codex@$version/node_modules/.bin/codex"
[[ -x "$bin" ]] || bin="$(command -v codex || true)"
[[ -x "$bin" ]] || fail "no codex@$version in ${AGENTS_DIR:-/work/agents} and none on PATH"
shown="$("$bin" --version 2>/dev/null | head -1)"
[[ "$shown" == *"$version"* ]] || fail "$bin says '$shown', not Codex $version"

"$deno" run -A "$repo/tools/real-agents/mock_api.ts" 0 "$work/mock.jsonl" 2>"$work/mock.log" &
mock_pid=$!
for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
[[ -n "$port" ]] || fail "the mock did not start: $(cat "$work/mock.log")"
mock() { curl -fsS -X POST "127.0.0.1:$port/__mock/$1" >/dev/null; }

mkdir -p "$work/home/.codex" "$work/ws" "$work/bin"
cat > "$work/home/.codex/config.toml" <<TOML
model = "mock-1"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "Mock"
base_url = "http://127.0.0.1:$port/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[projects."$work/ws"]
trust_level = "trusted"
TOML
"$deno" eval "import { installSimAgents } from '$repo/src/sim/install.ts';
  installSimAgents('$work/bin', ['claude'], [Deno.execPath(), 'run', '-A', '--config', '$repo/deno.json', '$repo/mod.ts']);"
cat > "$work/config.json" <<JSON
{"chain": ["codex", "claude"], "agents": {
  "codex": {"bin": "$bin", "env": {"HOME": "$work/home", "CODEX_HOME": "$work/home/.codex",
    "MOCK_API_KEY": "mock-key-not-a-credential"}},
  "claude": {"bin": "$work/bin/claude", "env": {"SIM_AGENT_LOG": "$work/next.log",
    "SIM_MODEL_URL": "http://127.0.0.1:$port/receiver/v1/chat/completions", "SIM_REPLY_MS": "50"}}}}
JSON
u() { UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" "$@"; }

tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
  "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts run codex; echo EXIT=\$?; sleep 600"
screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # extended regex, seconds
  for _ in $(seq 1 $(($2 * 5))); do screen | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
type_turn() { tmux -L "$sock" send-keys -l "$1"; sleep 0.5; tmux -L "$sock" send-keys Enter; }

wait_for '^› ' 120
sleep 1
type_turn "say hello"
wait_for 'MOCKREPLY-1' 60
sleep 1
echo "ok: a normal turn answered" >&2

mock "error?status=500"
type_turn "second request"
wait_for "high demand|temporary errors|server had an error" 90
sleep 45
started() { grep -q '"mode":"tui"' "$work/next.log" 2>/dev/null; } # probes log --version/--help
started && fail "uuldana handed off at a server error"
u show 1 --decisions >"$work/decisions-500.txt"
grep -qE "(screen|channel) acted" "$work/decisions-500.txt" && fail "a decision acted at a server error: $(cat "$work/decisions-500.txt")"
grep -q "OSC 7501): error" "$work/decisions-500.txt" || fail "no OSC 7501 error in the log: $(cat "$work/decisions-500.txt")"
echo "ok: a server error (Codex showed it, status error) did not switch; waited 45 s" >&2

mock ok
mock limit
type_turn "third request"
for _ in $(seq 1 150); do started && break; sleep 0.2; done
started || fail "no handoff after the usage limit"
sleep 3
u show 1 --decisions >"$work/decisions.txt"
grep -E "(screen|channel) acted" "$work/decisions.txt" >&2 || true
grep -q "its status (OSC 7501) went error in this turn" "$work/decisions.txt" \
  || fail "the handoff did not act on the status: $(cat "$work/decisions.txt")"
# Times from the mock's log: its first limit answer, the handoff, the next agent's first request.
u show 1 --json >"$work/show.json"
python3 - "$work/mock.jsonl" "$work/show.json" <<'PY' >&2
import json, sys, datetime
log = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
first = next((e for e in log if e.get("limited") and e.get("account") == "agent"), None)
nxt = next((e for e in log if e.get("account") == "receiver"), None)
h = (json.load(open(sys.argv[2])).get("handoffs") or [{}])[0]
at = lambda ms: f"{(ms - first['t']) / 1000:.2f} s"
created = h.get("createdAt")
made = datetime.datetime.fromisoformat(created.replace("Z", "+00:00")).timestamp() * 1000 if created else None
print("limit answer → handoff journaled: " + (at(made) if first and made else "?") +
      "; → next agent's first model request: " + (at(nxt["t"]) if first and nxt else "?"))
PY
u debug detect 1 2>&1 | tail -3 >&2
echo "work dir: $work" >&2
