#!/usr/bin/env bash
# Checks usage warnings against the REAL Codex CLI (issue 29): the mock provider (mock_api.ts,
# 127.0.0.1, no account) answers Codex's first turn normally but with the provider's usage headers
# near the limit (lane `codex-usage-warning`: `x-codex-primary-used-percent: 91`,
# `x-codex-secondary-used-percent: 93`), 8 s late, then normally. Through `uuldana run codex` with
# `handoffEarly` on, in tmux, uuldana's simulated Claude next:
#   1. Codex draws `⚠ Heads up, you have less than 10% of your weekly limit left. …` after the turn;
#   2. `uuldana limits --json` shows Codex near its limit, not limited;
#   3. the handoff comes after the turn's answer, at Codex's idle moment: the simulated Claude
#      starts on the framed handoff, and Codex's run ended `early` on a `warning` record.
# Needs tmux; Codex from $AGENTS_DIR/codex@VERSION (default /work/agents) or on PATH.
#
#   tools/real-agents/check_codex_warning.sh [CODEX_VERSION]
set -euo pipefail
version="${1:-0.171.0}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$repo/tools/real-agents/script_world.sh" uuldana-real-codex-warning

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
python3 - "$work/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["handoffEarly"] = True
json.dump(config, open(path, "w"))
PY
u() { UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" "$@"; }

tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
  "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts run codex; echo EXIT=\$?; sleep 600"
screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # extended regex, seconds
  for _ in $(seq 1 $(($2 * 5))); do screen | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
type_turn() { tmux -L "$sock" send-keys -l "$1"; sleep 0.5; tmux -L "$sock" send-keys Enter; }
started() { grep -q '"mode":"tui"' "$work/next.log" 2>/dev/null; } # probes log --version/--help

wait_for '^› ' 120
sleep 1
mock "lane?name=codex-usage-warning"
mock "delay?ms=8000"
type_turn "say hello"
for _ in $(seq 1 100); do grep -q '"lane":"codex-usage-warning"' "$work/mock.jsonl" 2>/dev/null && break; sleep 0.2; done
asked="$(grep '"lane":"codex-usage-warning"' "$work/mock.jsonl" | head -1 | sed 's/^{"t":\([0-9]*\).*/\1/')"
[[ -n "$asked" ]] || fail "Codex sent no request on the warning lane"
answered=$((asked + 8000))
sleep 4
started && fail "uuldana handed off while Codex waited for its answer"
wait_for 'MOCKREPLY' 30
mock ok
for _ in $(seq 1 150); do started && break; sleep 0.2; done
started || fail "uuldana never handed off after Codex's warning"
line="$(grep '"mode":"tui"' "$work/next.log" | head -1)"
at="$("$deno" eval "console.log(Date.parse(JSON.parse(Deno.args[0]).time))" "$line")"
(( at >= answered )) || fail "handed off $((answered - at)) ms before the turn's answer"
# The simulated Claude takes it on the hook road: the framed handoff is the file its hook reads.
handoff="$(grep -l "BEGIN UULDANA HANDOFF" "$work"/data/handoffs/* 2>/dev/null | head -1)"
[[ -n "$handoff" ]] && grep -q "near its usage limit" "$handoff" && grep -q "say hello" "$handoff" \
  || fail "no framed warning handoff carrying the turn was saved"
[[ "$line" == *"$(basename "$handoff")"* ]] || fail "the next agent did not start on that handoff"
"$deno" eval '
  const [s] = JSON.parse(Deno.args[0]);
  if (s.agent !== "codex" || !s.near || s.limited || !/^Heads up, you have less than/.test(s.message)) {
    console.error(JSON.stringify(s)); Deno.exit(1);
  }' "$(u limits --json)" || fail "uuldana limits does not show Codex near its limit"
u show 1 --decisions >"$work/decisions.txt"
grep -q "warning" "$work/decisions.txt" || fail "no warning record: $(cat "$work/decisions.txt")"
# The run's end is journaled once Codex has quit (uuldana stops it in the background).
ended_early() { [[ "$(u runs --json)" == *'"endReason": "early"'* ]]; }
for _ in $(seq 1 75); do ended_early && break; sleep 0.2; done
ended_early || fail "Codex's run did not end early"
echo "ok: real Codex $version warned ($(sed -n 's/.*"message": "\([^"]*\)".*/\1/p' <<<"$(u limits --json)" | head -1));" \
  "uuldana handed off $((at - answered)) ms after the turn's answer was sent" >&2
