#!/usr/bin/env bash
# Records what REAL Claude Code sends uuldana's channel hooks: the JSON on each hook's stdin, in
# the order Claude fires them, into testdata/channels/claude-VERSION/ (NN-Event.json; the scratch
# paths are written as /WORK). Claude talks to a local mock of the Anthropic API on 127.0.0.1
# (anthropic_chat_mock.ts: no account, no credentials) in a scratch HOME, in tmux, typed as a user
# types: a turn that reads a file (a tool call, then 30 lines), a pasted two-line turn, /cost (a
# slash command: no hook), a turn that hits the 5-hour usage limit, then Ctrl-C twice, twice.
#
#   tools/real-agents/record_claude_channel.sh [CLAUDE_BIN] [VERSION]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${1:-/work/agents/claude@2.1.332/node_modules/.bin/claude}"
version="${2:-$("$bin" --version | sed 's/ .*//')}"
out="$repo/testdata/channels/claude-$version"
source "$repo/tools/real-agents/script_world.sh" uuldana-claude-channel

mkdir -p "$work/home" "$work/ws" "$work/ev"
printf 'hello notes\n' > "$work/ws/notes.txt"
printf '{"hasCompletedOnboarding":true,"theme":"dark","projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$work/ws" > "$work/home/.claude.json"
cat > "$work/hook.sh" <<SH
#!/bin/sh
n=\$(date +%s%N)
cat > "$work/ev/\$n.\$1.json"
exit 0
SH
settings="$(python3 -c '
import json, sys
events = ["SessionStart", "UserPromptSubmit", "MessageDisplay", "Stop", "StopFailure", "SessionEnd"]
print(json.dumps({"hooks": {e: [{"hooks": [{"type": "command", "command": f"/bin/sh {sys.argv[1]} {e}", "timeout": 5}]}] for e in events}}))
' "$work/hook.sh")"
"$deno" run -A "$repo/tools/real-agents/anthropic_chat_mock.ts" 0 "$work/chat.jsonl" 3 "$work/ws/notes.txt" 2>"$work/mock.log" &
mock_pid=$!
for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
[[ -n "$port" ]] || fail "the mock did not start"
printf '%s' "$settings" > "$work/settings.json"
cat > "$work/run.sh" <<SH
cd "$work/ws"
exec env HOME="$work/home" CLAUDE_CODE_OAUTH_TOKEN=dummy-not-a-real-token ANTHROPIC_BASE_URL=http://127.0.0.1:$port \
  DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 TERM=xterm-256color \
  "$bin" --settings "\$(cat "$work/settings.json")"
SH
tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "sh $work/run.sh; sleep 600"
wait_for() { for _ in $(seq 1 $(($2 * 5))); do tmux -L "$sock" capture-pane -p | grep -q -- "$1" && return 0; sleep 0.2; done; fail "timed out waiting for: $1"; }
wait_for "auto mode\|for shortcuts" 60
sleep 1
tmux -L "$sock" send-keys -l "Read the notes"; tmux -L "$sock" send-keys Enter
wait_for "Answer 1, line 30" 60
sleep 1
tmux -L "$sock" send-keys -l $'\e[200~first line\nsecond  line with  spaces\e[201~'; sleep 0.5; tmux -L "$sock" send-keys Enter
wait_for "Answer 2, line 30" 60
sleep 1
tmux -L "$sock" send-keys -l "/cost"; tmux -L "$sock" send-keys Enter; sleep 2; tmux -L "$sock" send-keys Escape; sleep 1
tmux -L "$sock" send-keys -l "A3 add a --dry-run flag to deploy.sh"; tmux -L "$sock" send-keys Enter
wait_for "limit" 60
sleep 2
tmux -L "$sock" capture-pane -p > "$work/limit-screen.txt"
for _ in 1 2; do
  ls "$work/ev" | grep -q SessionEnd && break
  tmux -L "$sock" send-keys C-c; sleep 0.3; tmux -L "$sock" send-keys C-c; sleep 2
done
for _ in $(seq 1 25); do ls "$work/ev" | grep -q SessionEnd && break; sleep 0.2; done
rm -rf "$out"; mkdir -p "$out"
i=0
for f in $(ls "$work/ev" | sort -n); do
  i=$((i + 1))
  event="${f#*.}"; event="${event%.json}"
  sed "s|$work|/WORK|g" "$work/ev/$f" > "$out/$(printf '%02d' "$i")-$event.json"
done
sed "s|$work|/WORK|g" "$work/limit-screen.txt" > "$out/limit-screen.txt"
ls "$out"
