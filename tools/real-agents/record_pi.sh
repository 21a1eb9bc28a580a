#!/usr/bin/env bash
# Records real pi screens against the local mock (mock_api.ts) with `script` inside a 120x40 tmux
# pane, for testdata/corpus/agents/: its start, and its limit screens for an OpenAI-compatible
# provider's quota 429, a per-minute 429, and an Anthropic-style usage limit. Then run the oracle
# (the commands it prints) to write each NAME.json.
#
#   tools/real-agents/record_pi.sh /work/agents/pi@0.73.1/node_modules/.bin/pi OUTDIR
#
# No credentials: the mock takes placeholder keys. The workspace and HOME live under
# /home/guest/ai/ so the screens show no private path.
set -euo pipefail
PI=${1:?pi binary}
OUT=${2:?output folder}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=/home/guest/ai
PORT=${PORT:-47211}
mkdir -p "$OUT" "$ROOT"
SOCK="pi-rec-$$"
MOCK_LOG="$OUT/mock.jsonl"

deno run -A "$HERE/mock_api.ts" "$PORT" "$MOCK_LOG" 2> "$OUT/mock.err" &
MOCK=$!
trap 'kill $MOCK 2>/dev/null; tmux -L "$SOCK" kill-server 2>/dev/null || true' EXIT
until grep -q "mock on" "$OUT/mock.err" 2>/dev/null; do sleep 0.2; done

mock() { curl -s -X POST "127.0.0.1:$PORT/__mock/$1" > /dev/null; }
screen() { tmux -L "$SOCK" capture-pane -p; }
wait_for() { # text seconds
  for _ in $(seq 1 $(($2 * 4))); do screen | grep -qF -- "$1" && return 0; sleep 0.25; done
  echo "timed out waiting for: $1" >&2; screen >&2; return 1
}
type_line() { tmux -L "$SOCK" send-keys -l -- "$1"; sleep 0.4; tmux -L "$SOCK" send-keys Enter; }

# record NAME API (openai-completions | anthropic-messages) LIMIT-QUERY
record() {
  local name=$1 api=$2 limit=$3
  local home="$ROOT/home" ws="$ROOT/proj"
  rm -rf "$home" "$ws"
  mkdir -p "$home/.pi/agent" "$ws"
  local base="http://127.0.0.1:$PORT"
  [[ $api == openai-completions ]] && base="$base/v1"
  cat > "$home/.pi/agent/models.json" <<EOF
{"providers":{"mock":{"baseUrl":"$base","api":"$api","apiKey":"mock-key-not-a-credential","compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},"models":[{"id":"mock-1","name":"Mock One"}]}}}
EOF
  echo '{"defaultProvider":"mock","defaultModel":"mock-1","enableInstallTelemetry":false}' \
    > "$home/.pi/agent/settings.json"
  mock ok
  rm -f "$OUT/$name.raw" "$OUT/$name.timing"
  tmux -L "$SOCK" -f /dev/null new-session -d -x 120 -y 40 -c "$ws" \
    "stty cols 120 rows 40; script -q -f -E never -O '$OUT/$name.raw' -T '$OUT/$name.timing' -c 'env -i HOME=$home PATH=/usr/bin:/bin TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 PI_OFFLINE=1 $PI'; sleep 600"
  tmux -L "$SOCK" set-option -g status off
  wait_for "mock-1" 60
  sleep 2
  if [[ $limit == none ]]; then
    sleep 1
  else
    type_line "Add a --dry-run flag to deploy.sh"
    wait_for "MOCKREPLY-" 60
    sleep 1
    mock "limit$limit"
    type_line "and a test for it"
    wait_for "Retry failed after" 120 || wait_for "Error:" 5
    sleep 2
  fi
  # Ctrl-C twice within 500 ms quits pi.
  tmux -L "$SOCK" send-keys C-c
  sleep 0.1
  tmux -L "$SOCK" send-keys C-c
  sleep 3
  tmux -L "$SOCK" kill-server 2>/dev/null || true
  echo "recorded $OUT/$name.raw ($(wc -c < "$OUT/$name.raw") bytes)"
}

record pi-startup openai-completions none
record pi-limit-quota openai-completions ""
record pi-limit-rate openai-completions "?provider=openai-rate"
record pi-limit-anthropic anthropic-messages ""
echo "now: deno run -A tools/xterm-oracle/expected.ts --new --cols 120 --rows 40 --description … --command … $OUT/NAME.raw"
