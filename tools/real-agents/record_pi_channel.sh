#!/usr/bin/env bash
# Records what REAL pi sends uuldana's channel extension (adapters/channels/pi_extension.ts, loaded
# with `pi -e FILE`): the records it writes, in the order pi fired the events, into
# testdata/channels/pi-VERSION/ (NN-event.json; the scratch folder is written /WORK), plus
# limit-screen.txt (`tmux capture-pane` at the limit). pi talks to mock_api.ts on 127.0.0.1 as a
# custom OpenAI-compatible provider (its models.json in a scratch HOME; no account), in a 120x40
# tmux, typed as a user types: an opening prompt from a file (`@FILE`, as uuldana's prompt road
# starts pi), a typed turn, a pasted two-line turn, `/session` (a slash command), a turn that hits
# the provider's quota 429 (pi retries it three times), then Ctrl-C twice.
#
#   tools/real-agents/record_pi_channel.sh [PI_BIN] [VERSION]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="${1:-/work/agents/pi@0.73.1/node_modules/.bin/pi}"
version="${2:-$(HOME=/tmp "$bin" --version 2>&1 | tail -1)}"
out="$repo/testdata/channels/pi-$version"
source "$repo/tools/real-agents/script_world.sh" uuldana-pi-channel

mkdir -p "$work/home/.pi/agent" "$work/ws" "$work/ch"
chmod 700 "$work/ch"
"$deno" run -A "$repo/tools/real-agents/mock_api.ts" 0 "$work/mock.jsonl" 2>"$work/mock.log" &
mock_pid=$!
for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
[[ -n "$port" ]] || fail "the mock did not start"
cat > "$work/home/.pi/agent/models.json" <<EOF
{"providers":{"mock":{"baseUrl":"http://127.0.0.1:$port/v1","api":"openai-completions","apiKey":"mock-key-not-a-credential","compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},"models":[{"id":"mock-1","name":"Mock One"}]}}}
EOF
echo '{"defaultProvider":"mock","defaultModel":"mock-1","enableInstallTelemetry":false}' \
  > "$work/home/.pi/agent/settings.json"
"$deno" eval "import { PI_EXTENSION_SOURCE } from '$repo/adapters/channels/pi_extension.ts'; await Deno.writeTextFile('$work/ext.mjs', PI_EXTENSION_SOURCE);"
printf 'Opening prompt from a file.\nSecond line of it.\n' > "$work/opening.md"

screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # text seconds
  for _ in $(seq 1 $(($2 * 4))); do screen | grep -qF -- "$1" && return 0; sleep 0.25; done
  fail "timed out waiting for: $1"
}
type_line() { tmux -L "$sock" send-keys -l -- "$1"; sleep 0.4; tmux -L "$sock" send-keys Enter; }

tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
  "env -i HOME='$work/home' PATH=/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 PI_OFFLINE=1 UULDANA_PI_CHANNEL='$work/ch' '$bin' -e '$work/ext.mjs' '@$work/opening.md'; sleep 600"
wait_for "MOCKREPLY-1" 90
sleep 1
type_line "Add a --dry-run flag to deploy.sh"
wait_for "MOCKREPLY-2" 60
sleep 1
tmux -L "$sock" set-buffer -b p -- $'first pasted line\nsecond pasted line'
tmux -L "$sock" paste-buffer -p -d -b p
sleep 0.6
tmux -L "$sock" send-keys Enter
wait_for "MOCKREPLY-3" 60
sleep 1
type_line "/session"
sleep 2
tmux -L "$sock" send-keys Escape
sleep 1
curl -s -X POST "127.0.0.1:$port/__mock/limit" > /dev/null
type_line "and a test for it"
wait_for "Retry failed after" 120
sleep 1
screen > "$work/limit-screen.txt"
tmux -L "$sock" send-keys C-c
sleep 0.1
tmux -L "$sock" send-keys C-c
sleep 3

rm -rf "$out"
mkdir -p "$out"
i=0
while read -r event file; do
  i=$((i + 1))
  sed "s#$work#/WORK#g" "$work/ch/$file" > "$out/$(printf %02d "$i")-$event.json"
done < "$work/ch/events"
sed "s#$work#/WORK#g" "$work/limit-screen.txt" > "$out/limit-screen.txt"
echo "recorded $i records into $out"
ls "$out"
