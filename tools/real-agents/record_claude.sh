#!/usr/bin/env bash
# Records the REAL Claude Code for testdata/corpus/agents: each scenario runs Claude under util-linux
# `script` (-q -f -E never, output and classic timing) inside a detached tmux pane of 120x40, with
# `env -i`, a fresh scratch HOME, the placeholder token and a local mock of the Anthropic API on
# 127.0.0.1 (tools/real-agents/anthropic_mock.ts; no account, no credentials). Keys go in through
# `tmux send-keys`; once the screen to keep is drawn, Claude is stopped with SIGKILL (by its pid),
# so the recording ends on that screen. Then the xterm oracle writes each NAME.json
# (tools/xterm-oracle/expected.ts --new) unless NO_ORACLE=1; the agent fields (`limit`,
# `limitText`, …) are added by hand afterwards (testdata/README.md).
#
#   tools/real-agents/record_claude.sh VERSION OUTDIR [SCENARIO…]
#
# Scenarios (default: all): startup, turn, limit, limit-esc, limit-typed, limit-default,
# limit-tool, limit-tool-verbose, limit-weekly, cat, cat-collapsed, quote, trust, login,
# notloggedin (what each shows: the `finish` line of its case below). Files:
# OUTDIR/claude-VERSION-SCENARIO.{raw,timing,json}. The scratch folder's name is replaced in the
# bytes by one of the same length (/tmp/uuldana-rec-000000). Claude comes from
# $AGENTS_DIR/claude@VERSION when that exists (e.g. AGENTS_DIR=/work/agents), else npm. Takes
# about five minutes for all of them.
set -euo pipefail
version="${1:?usage: record_claude.sh VERSION OUTDIR [SCENARIO…]}"
out="$(cd "${2:?usage: record_claude.sh VERSION OUTDIR [SCENARIO…]}" && pwd)"
shift 2
scenarios="${*:-startup turn limit limit-esc limit-typed limit-default limit-tool limit-tool-verbose limit-weekly cat cat-collapsed quote trust login notloggedin}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fake="/tmp/uuldana-rec-000000"
cleanup_more() { rm -rf "$work"; }
# In /tmp whatever TMPDIR says: the path is replaced by $fake, of the same length.
TMPDIR=/tmp source "$repo/tools/real-agents/script_world.sh" uuldana-rec

source "$repo/tools/real-agents/claude_world.sh"
claude="$(claude_bin)"
echo "recording $("$claude" --version) into $out" >&2
echo ok > "$work/mode"
start_mock anthropic_mock.ts "$work/bodies.jsonl" "$work/mode"

screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # extended regexp, seconds
  for _ in $(seq 1 $(($2 * 5))); do screen | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
type_line() { tmux -L "$sock" send-keys -l "$1"; sleep 0.5; tmux -L "$sock" send-keys Enter; }
# The input box is drawn (2.1.197: "? for shortcuts"; 2.1.332: the permission-mode footer).
READY='for shortcuts|shift\+tab to cycle'

# home NAME onboarded|fresh trusted|untrusted [SETTINGS]: a scratch HOME for Claude; prints its
# path. SETTINGS is the JSON of its ~/.claude/settings.json (default: `sh` allowed for Bash).
# 2.1.332 starts in auto mode, whose server-side safety check the mock cannot answer, so the
# scenarios that run a tool use the default permission mode ($MANUAL).
home() {
  local h="$work/home-$1"
  mkdir -p "$h"
  if [[ "$2" == onboarded ]]; then
    local trust=false
    [[ "$3" == trusted ]] && trust=true
    printf '{"hasCompletedOnboarding":true,"theme":"dark","projects":{"%s":{"hasTrustDialogAccepted":%s}}}' \
      "$work/ws" "$trust" > "$h/.claude.json"
    mkdir -p "$h/.claude"
    printf '%s' "${4:-$AUTO}" > "$h/.claude/settings.json"
  fi
  echo "$h"
}
AUTO='{"permissions":{"allow":["Bash(sh:*)"]}}'
MANUAL='{"permissions":{"allow":["Bash(sh:*)"],"defaultMode":"default"}}'
# …and with the tools' output shown in full (`verbose`), as 2.1.197 showed it.
VERBOSE='{"permissions":{"allow":["Bash(sh:*)"],"defaultMode":"default"},"verbose":true}'

# record NAME HOME TOKEN: starts Claude under script in a fresh tmux server (TOKEN "": none).
record() {
  local name="claude-$version-$1"
  tmux -L "$sock" kill-server 2>/dev/null || true
  rm -f "$out/$name.raw" "$out/$name.timing" "$out/$name.json"
  local env=(env -i PATH=/usr/bin:/bin "HOME=$2" TERM=xterm-256color COLORTERM=truecolor
    LANG=C.UTF-8 "ANTHROPIC_BASE_URL=http://127.0.0.1:$port" DISABLE_AUTOUPDATER=1
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1)
  [[ -n "$3" ]] && env+=("CLAUDE_CODE_OAUTH_TOKEN=$3")
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$work/ws" \
    "${env[*]} script -q -f -E never -O $work/$name.raw -T $work/$name.timing -c $claude; sleep 600"
  current="$name"
}

# finish DESCRIPTION: SIGKILLs Claude (the processes under this pane's `script`), fixes the
# scratch path in the bytes and writes the side file.
finish() {
  local pane script_pid kids
  pane="$(tmux -L "$sock" display -p '#{pane_pid}')"
  # No `script` left: Claude ended by itself (the recording is already complete).
  script_pid="$(pgrep -P "$pane" -x script || true)"
  descendants() { local p; for p in $(pgrep -P "$1"); do echo "$p"; descendants "$p"; done; }
  if [[ -n "$script_pid" ]]; then
    kids="$(descendants "$script_pid")"
    # shellcheck disable=SC2086
    [[ -n "$kids" ]] && kill -KILL $kids
    for _ in $(seq 1 50); do kill -0 "$script_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  # Claude's own exit (modes restored, "Resume this session with") means it was not the SIGKILL
  # that ended it: the screen to keep is gone.
  if [[ -n "$script_pid" ]] && tail -c 2000 "$work/$current.raw" | grep -q "Resume this session"; then
    fail "$current: Claude exited by itself before it was stopped; record it again"
  fi
  local raw="$out/$current.raw"
  sed "s#$work#$fake#g" "$work/$current.raw" > "$raw"
  cp "$work/$current.timing" "$out/$current.timing"
  [[ "$(wc -c < "$raw")" == "$(wc -c < "$work/$current.raw")" ]] || fail "path replacement changed the size"
  if grep -q "${work#/tmp/}" "$raw"; then fail "$current: the scratch path is still in the bytes"; fi
  if [[ "${NO_ORACLE:-}" != 1 ]]; then
    "$deno" run -A "$repo/tools/xterm-oracle/expected.ts" --new --cols 120 --rows 40 \
      --description "$1" --command "claude" "$raw" >&2
  fi
  echo "recorded $current" >&2
}

mkdir -p "$work/ws"
printf '#!/bin/sh\necho "deploying…"\n' > "$work/ws/deploy.sh"
printf 'echo "compiling 1/3"; sleep 1; echo "compiling 2/3"; sleep 1; echo "compiling 3/3"\n' > "$work/ws/slow.sh"
# Everything Claude Code 2.1.332 draws at its limit, as a file's text.
cat > "$work/ws/notes.txt" <<'TXT'
You've hit your 5-hour limit · resets 9:44pm (UTC)
● Usage limit reached · set to continue automatically at 9:44pm
  ⚠ Usage limit reached · limit resets 9:44pm
    Continuing automatically at 9:44pm · Esc to cancel
TXT
echo 'cat notes.txt' > "$work/ws/show-notes.sh"

# ready: waits for the input box; 2.1.332 in the default permission mode first offers auto mode
# ("Make auto mode your default permission mode?"), answered the way a user keeps manual mode.
ready() {
  wait_for "$READY|Make auto mode your default" 60
  if screen | grep -q "Make auto mode your default"; then
    sleep 1
    tmux -L "$sock" send-keys Down
    sleep 0.5
    tmux -L "$sock" send-keys Enter
    wait_for "$READY" 30
  fi
}

want() { [[ " $scenarios " == *" $1 "* ]]; }
turn() { # mock mode, prompt, pattern to wait for, seconds[, settings JSON]
  echo "$1" > "$work/mode"
  record "$scenario" "$(home "$scenario" onboarded trusted "${5:-}")" dummy-not-a-real-token
  ready
  sleep 2
  type_line "$2"
  wait_for "$3" "$4"
  sleep 3
}

for scenario in $scenarios; do
  case "$scenario" in
    startup)
      record startup "$(home startup onboarded trusted)" dummy-not-a-real-token
      wait_for "$READY" 60
      sleep 3
      finish "Startup in a trusted folder, onboarded, placeholder token: the banner and the empty input box; no turn."
      ;;
    turn)
      turn ok "add a --dry-run flag to deploy.sh" "Want me to write the patch" 60
      finish "One normal turn against the mock (mode ok): the prompt echo, a seven-line answer, the input box back."
      ;;
    limit)
      turn limit "add a --dry-run flag to deploy.sh" "Continuing automatically|Stop and wait" 60
      finish "The mock's five-hour usage-limit 429 on the first turn: the limit row under the echo, and Claude waiting for its own reset."
      ;;
    limit-esc)
      turn limit "add a --dry-run flag to deploy.sh" "Continuing automatically|Stop and wait" 60
      tmux -L "$sock" send-keys Escape
      wait_for "cancelled|Stop and wait" 20
      sleep 3
      finish "The five-hour limit as in -limit, then Esc: the automatic continue is cancelled; Claude idle at its limit."
      ;;
    limit-tool)
      turn tool-limit "run the slow build" "Continuing automatically|Stop and wait" 90 "$MANUAL"
      finish "The model runs sh slow.sh (Bash, three lines over two seconds); the request with its result gets the five-hour 429."
      ;;
    limit-typed)
      turn limit "add a --dry-run flag to deploy.sh" "Continuing automatically|Stop and wait" 60
      tmux -L "$sock" send-keys -l "is it over yet"
      sleep 3
      finish "The five-hour limit as in -limit, then the user types 'is it over yet' into the input box (not sent) while Claude waits."
      ;;
    limit-default)
      turn limit "add a --dry-run flag to deploy.sh" "Continuing automatically|Stop and wait" 60 "$MANUAL"
      finish "The five-hour limit as in -limit, with Claude in its default permission mode (not auto mode)."
      ;;
    limit-weekly)
      turn limit-weekly "add a --dry-run flag to deploy.sh" "Continuing automatically|Stop and wait|weekly" 60
      sleep 2
      finish "The mock's weekly usage-limit 429 (representative claim seven_day, reset in 4 days 3 hours) on the first turn."
      ;;
    cat)
      turn cat "show me notes.txt" "for [0-9]+s" 60 "$VERBOSE"
      sleep 2
      finish "NOT a limit: the model runs sh show-notes.sh, which cats notes.txt, a file holding every limit row 2.1.332 draws; the turn ends on that output (shown in full: verbose)."
      ;;
    cat-collapsed)
      turn cat "show me notes.txt" "for [0-9]+s" 60 "$MANUAL"
      sleep 1
      tmux -L "$sock" send-keys C-o
      wait_for "detailed transcript" 20
      sleep 2
      finish "NOT a limit: as -cat in the default view, where the output collapses to 'Ran 1 shell command'; then Ctrl-O shows the detailed transcript with the file's limit rows."
      ;;
    limit-tool-verbose)
      turn tool-limit "run the slow build" "Continuing automatically|Stop and wait" 90 "$VERBOSE"
      finish "As -limit-tool with the tools' output shown in full (verbose): the tool's output block, then the limit row."
      ;;
    quote)
      turn quote "what does this screen mean?" "switch agents" 60
      sleep 2
      finish "NOT a limit: the model's answer quotes 2.1.332's whole limit screen (the limit row, the ● row, the footer rows), in a code block and as text."
      ;;
    trust)
      record trust "$(home trust onboarded untrusted)" dummy-not-a-real-token
      wait_for "trust|Trust" 60
      sleep 3
      finish "Startup in a folder not yet trusted: the trust dialog."
      ;;
    login)
      record login "$(home login fresh)" ""
      wait_for "Unable to connect|[Ll]ogin|[Ss]ign in|[Tt]heme" 60
      sleep 3
      finish "Startup with a fresh HOME and no token: Claude's first-run welcome (offline here, it says it cannot reach Anthropic)."
      ;;
    notloggedin)
      record notloggedin "$(home notloggedin onboarded trusted)" ""
      wait_for "$READY|[Ll]ogin" 60
      sleep 2
      type_line "hello"
      sleep 5
      finish "Onboarded and trusted, but no token: startup, then a prompt typed (Claude asks to log in)."
      ;;
    *) fail "unknown scenario: $scenario" ;;
  esac
done
