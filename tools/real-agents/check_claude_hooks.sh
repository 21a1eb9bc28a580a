#!/usr/bin/env bash
# Checks uuldana's channel (Claude's hooks through its inline `--settings`) against the REAL Claude
# Code, typed through `uuldana run claude` in tmux, Claude pointed at the local mock API
# (mock_api.ts on 127.0.0.1: it logs every request the model gets; no account, no credentials):
#   1. user hook: the scratch HOME's ~/.claude/settings.json has the user's own UserPromptSubmit
#      hook, which prints a line (Claude adds it to the model's context) and notes that it ran.
#      Two turns, then the mock's usage limit on a third: both hooks fire (the user's note; uuldana's
#      channel reports `hooks` with records read), the user's line reaches the model in each
#      turn's request, no request the model got holds any uuldana text (the word, its relay, its
#      channel folder), and the handoff carries both turns.
#   2. managed settings: hooks disabled by managed (policy) settings (`disableAllHooks`): by
#      default through Claude's `--managed-settings` policy flag in the agent's args, for this
#      process only; with MANAGED=file as /etc/claude-code/managed-settings.json, the documented
#      path on Linux (root only; removed again on exit, and it applies to every Claude on the
#      machine meanwhile). The screen takes over: uuldana says once that it reads the screen
#      only, the limit on the third turn still hands off, and `uuldana agents` says `screen only`.
# Needs tmux (and npm registry access unless AGENTS_DIR holds claude@VERSION). SCENARIOS="2" runs
# only those named. VERSION: default the current release (2.1.332).
#
#   tools/real-agents/check_claude_hooks.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
managed_file=/etc/claude-code/managed-settings.json
cleanup_more() {
  if [[ -n "${placed_managed:-}" ]]; then rm -f "$managed_file"; rmdir /etc/claude-code 2>/dev/null || true; fi
}
# No "uuldana" in the scratch path: the model sees the working folder, and the check greps for it.
source "$repo/tools/real-agents/script_world.sh" claude-hooks

source "$repo/tools/real-agents/claude_world.sh"
version="${version:-$CLAUDE_CURRENT}"
install_claude
start_mock mock_api.ts "$work/api.jsonl"
write_world
mkdir -p "$work/home/.claude"
cat > "$work/home/.claude/settings.json" <<JSON
{"permissions": {"defaultMode": "default"},
 "hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
   "command": "echo USER-HOOK-CONTEXT-7731; echo fired >> $work/user-hook.log"}]}]}}
JSON

uu() { UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" "$@"; }
replies() { grep -c '"kind":"anthropic"' "$work/api.jsonl" 2>/dev/null || true; }
codex_started() { grep -q '"persona":"codex".*"mode":"tui"' "$work/codex.log" 2>/dev/null; }
# Two answered turns, then the mock's limit on the third: uuldana hands off to the simulated Codex.
session() {
  : > "$work/codex.log"
  curl -s -X POST "127.0.0.1:$port/__mock/ok" >/dev/null
  tmux -L "$sock" kill-server 2>/dev/null || true
  # uuldana's own lines (stderr) stay on the terminal and are kept in status.log too.
  cat > "$work/run.sh" <<SH
#!/bin/bash
export UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color
$deno run -A $repo/mod.ts run claude 2> >(tee -a $work/status.log >&2)
echo EXIT=\$?
sleep 600
SH
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" "bash $work/run.sh"
  ready
  type_line "Add a --dry-run flag to deploy.sh"
  wait_for "MOCKREPLY-[0-9]+" 90
  sleep 1
  type_line "and a test for it"
  local n
  n="$(screen | grep -oE 'MOCKREPLY-[0-9]+' | sort -u | wc -l)"
  for _ in $(seq 1 300); do
    [[ "$(screen | grep -oE 'MOCKREPLY-[0-9]+' | sort -u | wc -l)" -gt "$n" ]] && break
    sleep 0.2
  done
  sleep 1
  curl -s -X POST "127.0.0.1:$port/__mock/limit" >/dev/null
  type_line "then ship it"
  for _ in $(seq 1 300); do codex_started && break; sleep 0.2; done
  codex_started || fail "no handoff to the next agent after the limit"
  grep '"persona":"codex".*"mode":"tui"' "$work/codex.log" | grep -q 'and a test for it' \
    || fail "the handoff lacks the second turn"
}
want() { [[ " ${SCENARIOS:-1 2} " == *" $1 "* ]]; }
# The channel state `uuldana agents --json` reports for claude.
channel_state() {
  uu agents --json | python3 -c 'import json,sys; a=[x for x in json.load(sys.stdin) if x["name"]=="claude"][0]; c=a["channel"]; print(c["channel"] + (" (" + c["why"] + ")" if c.get("why") else ""))'
}

if want 1; then
  session
  fired="$(wc -l < "$work/user-hook.log" 2>/dev/null || echo 0)"
  [[ "$fired" -ge 3 ]] || fail "the user's UserPromptSubmit hook ran $fired times for 3 turns"
  state="$(channel_state)"
  [[ "$state" == hooks* ]] || fail "uuldana's channel did not speak: $state"
  python3 - "$work/api.jsonl" "$work" <<'PY' || fail "the model's requests are not what they should be"
import json, re, sys
log, work = sys.argv[1], sys.argv[2]
reqs = [json.loads(l) for l in open(log) if l.strip()]
claude = [r for r in reqs if r.get("kind") == "anthropic" and r.get("body")]
turns = [r for r in claude if "Add a --dry-run flag" in r["body"]]
assert turns, "no model request carries the first turn"
missing = [i for i, r in enumerate(turns) if "USER-HOOK-CONTEXT-7731" not in r["body"]]
assert not missing, f"the user's hook output is missing from {len(missing)} of {len(turns)} turn requests"
bad = [m.group(0) for r in claude for m in [re.search(r"(?i)uuldana|relay-v1|/data/", r["body"])] if m]
assert not bad, f"uuldana text reached the model: {bad[:3]}"
print(f"{len(claude)} model requests from Claude: the user's hook output in all {len(turns)} turn requests, no uuldana text")
PY
  echo "ok 1: a user's own UserPromptSubmit hook and uuldana's both fired ($fired user-hook runs; channel: $state); the model got the user's output and nothing of uuldana's; the handoff carries both turns" >&2
fi

if want 2; then
  : > "$work/status.log"
  if [[ "${MANAGED:-flag}" == file ]]; then
    [[ ! -e "$managed_file" ]] || fail "$managed_file exists already: not replacing an admin's policy"
    mkdir -p /etc/claude-code
    placed_managed=1
    printf '{"disableAllHooks": true}' > "$managed_file"
    how="$managed_file"
  else
    python3 - "$work/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["agents"]["claude"]["args"] = ["--managed-settings", json.dumps({"disableAllHooks": True})]
json.dump(config, open(path, "w"))
PY
    how="--managed-settings"
  fi
  : > "$work/user-hook.log"
  session
  [[ ! -s "$work/user-hook.log" ]] || fail "a hook ran although managed settings disable them all"
  grep -q "reads its screen only" "$work/status.log" <(screen) 2>/dev/null \
    || screen | grep -q "screen only" || fail "the user was not told the screen is read only"
  state="$(channel_state)"
  [[ "$state" == "screen only"* ]] || fail "uuldana agents says '$state', not screen only"
  echo "ok 2: hooks disabled by managed settings ($how): the screen took over (handed off at the limit), the user was told; agents: $state" >&2
fi
uu runs
