#!/usr/bin/env bash
# Checks capture fidelity against the REAL Claude Code: it installs Claude Code from npm into a
# scratch folder (never the repo), points it at a local mock of the Anthropic API on 127.0.0.1
# that converses and logs what the model received (no account, no credentials), and types into
# it through `uuldana run claude` in tmux the way people do: a session with tool calls (one behind a
# permission dialog answered with its digit), `\`+Enter,
# /help + Esc, history (Up, Up + edit), editing keys (Ctrl-U, Backspace, Left + insert, Tab
# completion of an @path, Ctrl-W), Alt+Enter, Ctrl-J, Shift+Enter (CSI 13;2u), a bracketed
# 40-line paste, Esc during a reply, non-ASCII text, a 3,000-character prompt, a message typed
# while a reply still streams (queued: 2.1.332 announces it under the running turn's prompt_id,
# 2.1.197 under its own), and replies long
# enough to scroll far past 120 lines, until the mock's usage limit hands off to uuldana's
# simulated Codex. Then it compares what the model received with what the journal recorded and
# with the delivered handoff (tools/real-agents/compare_capture.ts), and prints N of M exact.
# Needs tmux (and npm registry access unless AGENTS_DIR holds claude@VERSION). Takes about two
# minutes. VERSION: default the current release (2.1.332). Claude runs in its default permission
# mode (2.1.332's auto mode asks a server-side safety check the mock cannot answer).
#
#   tools/real-agents/check_claude_capture.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
limit=18
source "$repo/tools/real-agents/script_world.sh" uuldana-real-capture

source "$repo/tools/real-agents/claude_world.sh"
version="${version:-$CLAUDE_CURRENT}"
install_claude
mkdir -p "$work/ws/src"
printf 'export function discount(total: number): number {\n  return total * 0.9;\n}\n' > "$work/ws/src/discount.ts"
start_mock anthropic_chat_mock.ts "$work/requests.jsonl" "$limit" "$work/ws/src/discount.ts"
write_world
mkdir -p "$work/home/.claude"
printf '{"permissions":{"defaultMode":"default"}}' > "$work/home/.claude/settings.json"

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

# 2.1.332 in the default permission mode may first offer auto mode: keep manual mode.
for _ in $(seq 1 300); do screen | grep -qE "$CLAUDE_READY|Make auto mode your default" && break; sleep 0.2; done
if screen | grep -q "Make auto mode your default"; then keys Down Enter; fi
for _ in $(seq 1 150); do screen | grep -qE "$CLAUDE_READY" && break; sleep 0.2; done
screen | grep -qE "$CLAUDE_READY" || fail "Claude's input box never showed"
sleep 1
text "Read src/discount.ts and explain it"; keys Enter; answered 1
# A permission dialog: the digit that answers it is not part of the next message.
text "run the tests"; keys Enter; wait_for "proceed" 30; sleep 0.5; keys 1; answered 2
text 'first line\'; keys Enter; text "second line"; keys Enter; answered 3
text "/help"; keys Enter; sleep 2; keys Escape; sleep 0.5
text "explain it"; keys Enter; answered 4
keys Up; sleep 0.5; keys Enter; answered 5
keys Up; sleep 0.5; text " too"; keys Enter; answered 6
text "wrong start"; keys C-u; text "fix teh"; keys BSpace BSpace; text "he bug"
keys Left Left Left; text "nasty "; keys Enter; answered 7
text "read @src/disc"; sleep 1; keys Tab; sleep 0.5; text " please oops"; keys C-w; sleep 0.3
keys Enter; answered 8
text "alt"; keys M-Enter; text "enter"; keys Enter; answered 9
text "ctrl"; keys C-j; text "j"; keys Enter; answered 10
text "shift"; tmux -L "$sock" send-keys -l $'\e[13;2u'; sleep 0.2; text "enter"; keys Enter; answered 11
text "see this log: "
seq 1 40 | sed 's/^/log line /' > "$work/paste.txt"
tmux -L "$sock" load-buffer -b capture "$work/paste.txt"
tmux -L "$sock" paste-buffer -p -d -b capture; sleep 1; keys Enter; answered 12
text "start a long refactor"; keys Enter; sleep 2; keys Escape; wait_for "Interrupted" 20; sleep 1
text "non-ASCII: grüße, 日本語, 🎉"; keys Enter; answered 14
long="$(python3 -c "print(' '.join(f'word{i:04d}' for i in range(334))[:3000])")"
text "$long"; sleep 1; keys Enter; answered 15
# Typed while the reply streams (the mock sends a "long" one a line per 400 ms): Claude queues it
# and answers it after that turn.
text "another long one"; keys Enter; wait_for "Answer 16, line 3" 30
text "queued msg"; keys Enter; wait_for "Answer 16, line 30" 60; answered 17
text "now add a test"; keys Enter

for _ in $(seq 1 150); do grep -q '"mode":"tui"' "$work/codex.log" 2>/dev/null && break; sleep 0.2; done
grep -q 'BEGIN UULDANA HANDOFF' "$work/codex.log" || fail "codex did not start on the framed handoff"
echo "ok: real Claude Code $version hit its (mock) limit after $limit messages; uuldana handed off" >&2
UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" show 1 >"$work/show.txt"
UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" show 1 --json >"$work/show.json"
"$deno" run -A "$repo/tools/real-agents/compare_capture.ts" "$work/requests.jsonl" "$work/show.json" "$work/codex.log"
echo "work dir: $work (show.txt has the transcript uuldana recorded)" >&2
