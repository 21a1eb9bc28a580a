#!/usr/bin/env bash
# Checks capture fidelity against the REAL Claude Code: it installs Claude Code from npm into a
# scratch folder (never the repo), points it at a local mock of the Anthropic API on 127.0.0.1
# that converses and logs what the model received (no account, no credentials), and types into
# it through `uuldana run claude` in tmux the way people do: a session with a tool call, `\`+Enter,
# /help + Esc, history (Up, Up + edit), editing keys (Ctrl-U, Backspace, Left + insert, Tab
# completion of an @path, Ctrl-W), Alt+Enter, Ctrl-J, Shift+Enter (CSI 13;2u), a bracketed
# 40-line paste, Esc during a reply, non-ASCII text, a 3,000-character prompt, and replies long
# enough to scroll far past 120 lines, until the mock's usage limit hands off to uuldana's
# simulated Codex. Then it compares what the model received with what the journal recorded and
# with the delivered handoff (tools/real-agents/compare_capture.ts), and prints N of M exact.
# Needs npm registry access and tmux. Takes about two minutes.
#
#   tools/real-agents/check_claude_capture.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-2.1.197}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
deno="$repo/tools/deno.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/uuldana-real-capture-XXXXXX")"
sock="uuldana-capture-$$"
limit=15
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  kill "${mock_pid:-0}" 2>/dev/null || true
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; tmux -L "$sock" capture-pane -p >&2 2>/dev/null || true; exit 1; }

echo "installing @anthropic-ai/claude-code@$version into $work/agents" >&2
npm install --prefix "$work/agents" --no-audit --no-fund --loglevel=error --prefer-offline \
  "@anthropic-ai/claude-code@$version" >&2
mkdir -p "$work/home" "$work/ws/src" "$work/bin"
printf 'export function discount(total: number): number {\n  return total * 0.9;\n}\n' > "$work/ws/src/discount.ts"
"$deno" run -A "$repo/tools/real-agents/anthropic_chat_mock.ts" 0 "$work/requests.jsonl" "$limit" \
  "$work/ws/src/discount.ts" 2>"$work/mock.log" &
mock_pid=$!
for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
[[ -n "$port" ]] || fail "the mock did not start: $(cat "$work/mock.log")"

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
screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # pattern, seconds
  for _ in $(seq 1 $(($2 * 5))); do screen | grep -qF -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
keys() { for k in "$@"; do tmux -L "$sock" send-keys "$k"; sleep 0.15; done; }
text() { tmux -L "$sock" send-keys -l "$1"; sleep 0.3; }
answered() { wait_for "Answer $1, line 30" 60; sleep 1; }

wait_for "for shortcuts" 60
sleep 1
text "Read src/discount.ts and explain it"; keys Enter; answered 1
text 'first line\'; keys Enter; text "second line"; keys Enter; answered 2
text "/help"; keys Enter; sleep 2; keys Escape; sleep 0.5
text "explain it"; keys Enter; answered 3
keys Up; sleep 0.5; keys Enter; answered 4
keys Up; sleep 0.5; text " too"; keys Enter; answered 5
text "wrong start"; keys C-u; text "fix teh"; keys BSpace BSpace; text "he bug"
keys Left Left Left; text "nasty "; keys Enter; answered 6
text "read @src/disc"; sleep 1; keys Tab; sleep 0.5; text " please oops"; keys C-w; sleep 0.3
keys Enter; answered 7
text "alt"; keys M-Enter; text "enter"; keys Enter; answered 8
text "ctrl"; keys C-j; text "j"; keys Enter; answered 9
text "shift"; tmux -L "$sock" send-keys -l $'\e[13;2u'; sleep 0.2; text "enter"; keys Enter; answered 10
text "see this log: "
seq 1 40 | sed 's/^/log line /' > "$work/paste.txt"
tmux -L "$sock" load-buffer -b capture "$work/paste.txt"
tmux -L "$sock" paste-buffer -p -d -b capture; sleep 1; keys Enter; answered 11
text "start a long refactor"; keys Enter; sleep 2; keys Escape; wait_for "Interrupted" 20; sleep 1
text "non-ASCII: grüße, 日本語, 🎉"; keys Enter; answered 13
long="$(python3 -c "print(' '.join(f'word{i:04d}' for i in range(334))[:3000])")"
text "$long"; sleep 1; keys Enter; answered 14
text "now add a test"; keys Enter

for _ in $(seq 1 150); do grep -q '"mode":"tui"' "$work/codex.log" 2>/dev/null && break; sleep 0.2; done
grep -q 'BEGIN UULDANA HANDOFF' "$work/codex.log" || fail "codex did not start on the framed handoff"
echo "ok: real Claude Code $version hit its (mock) limit after $limit messages; uuldana handed off" >&2
UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" show 1 >"$work/show.txt"
UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" show 1 --json >"$work/show.json"
"$deno" run -A "$repo/tools/real-agents/compare_capture.ts" "$work/requests.jsonl" "$work/show.json" "$work/codex.log"
echo "work dir: $work (show.txt has the transcript uuldana recorded)" >&2
