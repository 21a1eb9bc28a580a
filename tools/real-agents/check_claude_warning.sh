#!/usr/bin/env bash
# Checks `handoffEarly` against the REAL Claude Code (issue 29's acceptance): the mock provider
# (mock_api.ts, 127.0.0.1, no account) answers Claude's first turn normally but with the provider's
# warning headers (lane `anthropic-warning`: `anthropic-ratelimit-unified-status: allowed_warning`,
# 91 % of the 5-hour window), then normally, each answer 12 s late so a turn is long. In tmux,
# `uuldana run claude` with `handoffEarly` on (then uuldana's simulated Codex):
#   1. turn 1 is answered with the warning headers; turn 2 is typed as soon as that answer came;
#   2. Claude draws its warning (`You've used 91% of your 5-hour limit · resets …`) — while turn 2
#      runs, or at its end;
#   3. uuldana keeps the warning in its ledger (`uuldana limits --json`: near, not limited) and hands
#      off only once turn 2's answer came and Claude is idle with its input box empty: the simulated
#      Codex starts on the framed handoff after the mock sent turn 2's answer, never before.
# Needs tmux. Takes about a minute. VERSION: default the current release (2.1.332).
#
#   AGENTS_DIR=/work/agents tools/real-agents/check_claude_warning.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$repo/tools/real-agents/script_world.sh" uuldana-real-warning
source "$repo/tools/real-agents/claude_world.sh"
version="${version:-$CLAUDE_CURRENT}"
install_claude
start_mock mock_api.ts "$work/mock.jsonl"
write_world
python3 - "$work/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["handoffEarly"] = True
json.dump(config, open(path, "w"))
PY
mkdir -p "$work/home/.claude"
printf '{"permissions":{"defaultMode":"default"}}' > "$work/home/.claude/settings.json"
mock() { curl -fsS -X POST "127.0.0.1:$port/__mock/$1" >/dev/null; }
uuldana() { UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" "$@"; }
wait_for() { # extended regexp, seconds
  for _ in $(seq 1 $(($2 * 5))); do tmux -L "$sock" capture-pane -p | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
type_line() { tmux -L "$sock" send-keys -l "$1"; tmux -L "$sock" send-keys Enter; }
# The model requests of Claude's account (its turns) in the mock's log.
turns() { grep -c '"path":"/v1/messages","account":"agent"' "$work/mock.jsonl" 2>/dev/null || true; }

tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
  "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color $deno run -A $repo/mod.ts run claude; echo EXIT=\$?; sleep 600"
wait_for "$CLAUDE_READY|Make auto mode your default" 60
if tmux -L "$sock" capture-pane -p | grep -q "Make auto mode your default"; then
  sleep 1; tmux -L "$sock" send-keys Down; sleep 0.5; tmux -L "$sock" send-keys Enter
  wait_for "$CLAUDE_READY" 30
fi
sleep 1

# 1. Turn 1: the warning headers ride on a normal answer, 12 s late.
mock "lane?name=anthropic-warning"
mock "delay?ms=12000"
type_line "Add a --dry-run flag to deploy.sh"
for _ in $(seq 1 150); do [[ "$(turns)" -ge 1 ]] && break; sleep 0.2; done
[[ "$(turns)" -ge 1 ]] || fail "Claude sent no model request"
grep '"account":"agent"' "$work/mock.jsonl" | head -1 | grep -q '"lane":"anthropic-warning"' \
  || fail "turn 1 was not answered on the warning lane"
# From now on: normal answers (the lane's headers stay on turn 1's answer), still 12 s late.
mock ok
mock "delay?ms=12000"
wait_for "MOCKREPLY-1" 30

# 2. Turn 2 at once: its answer comes 12 s later; the warning shows meanwhile or at its end.
type_line "Now document the flag in README.md"
for _ in $(seq 1 100); do [[ "$(turns)" -ge 2 ]] && break; sleep 0.2; done
[[ "$(turns)" -ge 2 ]] || fail "Claude sent no request for turn 2"
turn2_sent="$(grep '"account":"agent"' "$work/mock.jsonl" | sed -n 2p | sed 's/^{"t":\([0-9]*\).*/\1/')"
turn2_answered=$((turn2_sent + 12000))

# 3. The handoff: Codex starts on the framed handoff, after turn 2's answer.
for _ in $(seq 1 300); do grep -q '"persona":"codex".*"mode":"tui"' "$work/codex.log" 2>/dev/null && break; sleep 0.2; done
start_line="$(grep '"persona":"codex".*"mode":"tui"' "$work/codex.log" | head -1)" \
  || fail "uuldana never handed off after Claude's warning"
codex_started="$("$deno" eval "console.log(Date.parse(JSON.parse(Deno.args[0]).time))" "$start_line")"
[[ "$start_line" == *"BEGIN UULDANA HANDOFF"* ]] || fail "codex did not start on the framed handoff"
[[ "$start_line" == *"near its usage limit"* ]] || fail "the handoff does not say Claude warned"
[[ "$start_line" == *"document the flag"* ]] || fail "the handoff lacks turn 2"
(( codex_started >= turn2_answered )) \
  || fail "handed off $((turn2_answered - codex_started)) ms before turn 2's answer: mid-turn"
state="$(uuldana limits --json)"
"$deno" eval '
  const [s] = JSON.parse(Deno.args[0]);
  if (s.agent !== "claude" || !s.near || s.limited || !/^You.ve used \d+% of your 5-hour limit/.test(s.message)) {
    console.error(JSON.stringify(s)); Deno.exit(1);
  }' "$state" || fail "uuldana limits does not show Claude near its limit"
# The run's end is journaled once Claude has quit (uuldana stops it in the background).
ended_early() { [[ "$(uuldana runs --json)" == *'"endReason": "early"'* ]]; }
for _ in $(seq 1 75); do ended_early && break; sleep 0.2; done
# Claude's run ended early, and when its screen showed the warning (the decision log's record; the
# run's clock starts at its journal start, to the millisecond).
warned_at="$("$deno" eval --config "$repo/deno.json" "
  import { Journal } from '$repo/src/journal/journal.ts';
  const j = Journal.open('$work/data');
  const run = j.runs().find((r) => r.agent === 'claude');
  if (run?.endReason !== 'early') { console.error(JSON.stringify(run)); Deno.exit(1); }
  const w = j.decisions(run.id).find((d) => d.verdict === 'warning');
  if (!w) Deno.exit(1);
  console.log(Math.round(Date.parse(run.startedAt) + w.atMs));
  j.close();")" || fail "Claude's run did not end early on a warning record"
echo "ok: real Claude Code $version warned ($(sed -n 's/.*"message": "\([^"]*\)".*/\1/p' <<<"$state" | head -1));" \
  "its screen showed it $((warned_at - turn2_answered)) ms after turn 2's answer was sent" \
  "(negative: mid-turn); uuldana handed off $((codex_started - turn2_answered)) ms after that answer" >&2
