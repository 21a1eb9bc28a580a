#!/usr/bin/env bash
# Checks that uuldana writes nothing into the REAL Claude Code's screen while it runs, typed through
# `uuldana run claude` in tmux, Claude pointed at the local mock API (mock_api.ts on 127.0.0.1; no
# account, no credentials), its hooks off (`--settings {}`, as `error_matrix.ts --channel-off`):
# uuldana finds the channel silent 4 s after the first submit, the moment the error matrix once saw
# `uuldana: claude's channel is silent…` drawn over Claude's input box and the next keys garbled.
#   1. After that moment, text typed into Claude's input box stands alone on its row, and no byte of
#      uuldana's own text reached the outer terminal (tmux's pipe-pane) while Claude ran.
#   2. `/agent nosuch` is answered over Claude's screen (Claude is on the alternate screen), and
#      after a key Claude repaints it as it was (uuldana's resize nudge).
#   3. Once Claude is gone (Ctrl-C twice) the line is said once, and `uuldana show` keeps it with
#      the run (`channel    silent (…)`).
# Needs tmux (and npm registry access unless AGENTS_DIR holds claude@VERSION). VERSION: default the
# current release (2.1.332).
#
#   tools/real-agents/check_claude_untouched.sh [CLAUDE_VERSION]
set -euo pipefail
version="${1:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$repo/tools/real-agents/script_world.sh" claude-untouched
source "$repo/tools/real-agents/claude_world.sh"
version="${version:-$CLAUDE_CURRENT}"
install_claude
start_mock mock_api.ts "$work/api.jsonl"
write_world
python3 - "$work/config.json" <<'PY'
import json, sys
path = sys.argv[1]
config = json.load(open(path))
config["agents"]["claude"]["args"] = ["--settings", "{}"]
json.dump(config, open(path, "w"))
PY

uu() { UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data" "$deno" run -A "$repo/mod.ts" "$@"; }
# The user turns the journal holds for the newest run (kept as typed once the channel is silent).
user_turns() {
  uu show last --json 2>/dev/null \
    | python3 -c 'import json,sys; print(sum(1 for e in json.load(sys.stdin)["entries"] if e["role"]=="user"))' \
    2>/dev/null || echo 0
}

typed="typed after the silence"
curl -s -X POST "127.0.0.1:$port/__mock/ok" >/dev/null
cat > "$work/run.sh" <<SH
#!/bin/bash
export UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data TERM=xterm-256color
$deno run -A $repo/mod.ts run claude
echo EXIT=\$?
sleep 600
SH
tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" "bash $work/run.sh"
ready
# From Claude's first frame on, every byte the outer terminal is sent.
tmux -L "$sock" pipe-pane -O "cat >> $work/outer.bytes"
type_line "Add a --dry-run flag to deploy.sh"
wait_for "MOCKREPLY-[0-9]+" 90
for _ in $(seq 1 150); do [[ "$(user_turns)" -ge 1 ]] && break; sleep 0.2; done
[[ "$(user_turns)" -ge 1 ]] || fail "the channel was never found silent (no turn kept as typed)"
sleep 1
tmux -L "$sock" send-keys -l "$typed"
wait_for "$typed" 30
sleep 1
row="$(screen | grep -F -- "$typed")"
echo "input row: $row" >&2
[[ "$(screen | grep -cF -- "$typed")" -eq 1 ]] || fail "the typed text shows on more than one row"
# The row holds the prompt and what was typed, nothing else (Claude's box: `❯ TEXT` or `│ > TEXT │`).
stripped="$(python3 -c 'import re,sys; print(re.sub(r"^[\s│|]*(❯|>)\s*|[\s│|]*$", "", sys.argv[1]))' "$row")"
[[ "$stripped" == "$typed" ]] || fail "the input row is not what was typed: '$row'"
! screen | grep -q "uuldana:" || fail "uuldana's text is on Claude's screen"
! grep -aq "uuldana:" "$work/outer.bytes" || fail "uuldana wrote into Claude's screen: $(grep -ao 'uuldana:.\{0,80\}' "$work/outer.bytes" | head -3)"
echo "ok 1: the channel was found silent; '$typed' stands alone in Claude's input box; no uuldana text reached the terminal while Claude ran" >&2

tmux -L "$sock" send-keys C-u
sleep 2
# `/agent nosuch`: uuldana's answer is drawn over Claude's screen (it is on the alternate screen
# itself), and after a key Claude repaints its screen as it was.
before="$(screen)"
type_line "/agent nosuch"
wait_for "any key: back to claude" 30
! screen | grep -q "MOCKREPLY" || fail "the answer was drawn beside Claude's screen, not over it"
tmux -L "$sock" send-keys Escape
back=0
for _ in $(seq 1 75); do [[ "$(screen)" == "$before" ]] && { back=1; break; }; sleep 0.2; done
[[ "$back" == 1 ]] || fail "Claude's screen did not come back as it was: $(diff <(echo "$before") <(screen))"
echo "ok 2: /agent nosuch was answered over Claude's screen; after a key Claude repainted it as it was" >&2

tmux -L "$sock" send-keys C-c
sleep 0.5
tmux -L "$sock" send-keys C-c
wait_for "EXIT=" 60
said="$(tmux -L "$sock" capture-pane -p -J -S - | grep -c "uuldana: claude's channel is silent" || true)"
[[ "$said" -eq 1 ]] || fail "the silent line was said $said times after Claude exited"
shown="$(uu show last)"
grep -qE "channel +silent \(no event came 4 s after a submit" <<<"$shown" \
  || fail "uuldana show does not keep the channel's silence: $shown"
echo "ok 3: once Claude was gone the line was said once; uuldana show: $(grep -E '^ +channel' <<<"$shown" | sed 's/^ *//')" >&2
