#!/usr/bin/env bash
# Checks "What was done" against REAL agents: a local model (tool_mock.ts on 127.0.0.1) makes the
# agent do CALLS tool calls a turn for TURNS turns — create a file, run `sh check.sh T N` (every
# tenth one exits 1), in the agent's own tool names — then answers its next turn with the
# provider's usage-limit error. uuldana must hand off to its simulated Codex (simulated Claude
# after Codex) with a "What was done" that lists every tool call the agent completed, in order, as
# the mock asked for them, and the files must be in the workspace. An exit code the handoff states
# must be the right one; one it does not state (Claude's and Qwen's successes, every Codex command:
# their hooks give none) is counted apart. No account, no credentials.
#
#   AGENTS_DIR=/work/agents tools/real-agents/check_tool_actions.sh [claude opencode codex …]
# CALLS (default 10) and TURNS (default 3): 30 tool calls before the limit. EXEC=1: the same
# through `uuldana exec` (the agent's JSON mode): one task of CALLS×TURNS calls, whose limit comes
# mid-turn (the mock's MOCK_LIMIT_IN_TURN); the handoff file is checked.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
source "$repo/tools/real-agents/script_world.sh" uuldana-tools
calls="${CALLS:-10}"
turns="${TURNS:-3}"
exec_mode="${EXEC:-}"
if [[ -n "$exec_mode" ]]; then calls=$((calls * turns)); turns=1; export MOCK_LIMIT_IN_TURN=1; fi
agents=("${@:-claude opencode}")
[[ $# -gt 0 ]] || agents=(claude opencode)

# Every agent works in $work/ws (made anew for each), which the mock names in absolute paths.
"$deno" run -A "$repo/tools/real-agents/tool_mock.ts" 0 "$work/mock.jsonl" "$calls" "$turns" "$work/ws" 2>"$work/mock.log" &
mock_pid=$!
for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
[[ -n "$port" ]] || fail "the mock did not start"
base="http://127.0.0.1:$port"
"$deno" eval "import { installSimAgents } from '$repo/src/sim/install.ts';
  installSimAgents('$work/bin', ['codex', 'claude'], [Deno.execPath(), 'run', '-A', '--config', '$repo/deno.json', '$repo/mod.ts']);"

agent_bin() { # NAME PACKAGE VERSION
  local bin="${AGENTS_DIR:-/nonexistent}/$1@$3/node_modules/.bin/$1"
  [[ -x "$bin" ]] || { npm install --prefix "$work/a-$1" --no-audit --no-fund --loglevel=error "$2@$3" >&2; bin="$work/a-$1/node_modules/.bin/$1"; }
  echo "$bin"
}

run_tui() { # AGENT: the turns typed into `uuldana run` in tmux, until the handoff starts
  local agent="$1" ws="$work/ws" t
  sock="uuldana-tools-$$-$agent"
  tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 -c "$ws" \
    "env UULDANA_CONFIG=$work/config.json UULDANA_HOME=$work/data-$agent TERM=xterm-256color $deno run -A $repo/mod.ts run; echo EXIT=\$?; sleep 600"
  for _ in $(seq 1 900); do tmux -L "$sock" capture-pane -p | grep -qE "$ready" && break; sleep 0.2; done
  sleep 3
  for t in $(seq 1 $((turns + 1))); do
    tmux -L "$sock" send-keys -l "do step $t of the work"; sleep 0.5; tmux -L "$sock" send-keys Enter
    if ((t <= turns)); then
      for _ in $(seq 1 600); do grep -q "MOCKDONE-$t" <(tmux -L "$sock" capture-pane -p) && break; sleep 0.2; done
      grep -q "MOCKDONE-$t" <(tmux -L "$sock" capture-pane -p) || fail "$agent: turn $t did not end"
      sleep 2
    fi
  done
  for _ in $(seq 1 1000); do grep -q '"mode":"tui"' "$work/next-$agent.log" 2>/dev/null && break; sleep 0.2; done
  grep -q '"mode":"tui"' "$work/next-$agent.log" 2>/dev/null || fail "$agent: no handoff to codex"
}

check() { # AGENT: one agent's run
  local agent="$1" ws="$work/ws" home="$work/home-$1" env_json ready args='[]' next=codex
  rm -rf "$ws" "$home"; mkdir -p "$ws/work" "$home"
  printf 'case "$2" in *0) echo "check $1.$2 failed"; exit 1 ;; esac\necho "check $1.$2 ok"\n' > "$ws/check.sh"
  git -C "$ws" init -q -b main && git -C "$ws" add . && git -C "$ws" -c user.name=t -c user.email=t@example.com commit -qm base
  : > "$work/mock.jsonl"
  case "$agent" in
    claude)
      local bin; bin="$(agent_bin claude @anthropic-ai/claude-code 2.1.332)"
      printf '{"hasCompletedOnboarding":true,"theme":"dark","projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$ws" > "$home/.claude.json"
      mkdir -p "$home/.claude"
      printf '{"permissions":{"allow":["Write","Edit","Bash(sh check.sh:*)"],"defaultMode":"acceptEdits"}}' > "$home/.claude/settings.json"
      env_json="{\"HOME\": \"$home\", \"CLAUDE_CODE_OAUTH_TOKEN\": \"dummy-not-a-real-token\", \"ANTHROPIC_BASE_URL\": \"$base\", \"DISABLE_AUTOUPDATER\": \"1\", \"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC\": \"1\"}"
      ready='for shortcuts|shift\+tab to cycle|accept edits' ;;
    opencode|kilo)
      local pkg=opencode-ai ver=1.18.33 var=OPENCODE_CONFIG_CONTENT
      [[ "$agent" == kilo ]] && pkg=@kilocode/cli ver=7.7.7 var=KILO_CONFIG_CONTENT
      local bin; bin="$(agent_bin "$agent" "$pkg" "$ver")"
      local conf="{\\\"model\\\":\\\"mock/mock-1\\\",\\\"permission\\\":{\\\"edit\\\":\\\"allow\\\",\\\"bash\\\":\\\"allow\\\"},\\\"provider\\\":{\\\"mock\\\":{\\\"npm\\\":\\\"@ai-sdk/openai-compatible\\\",\\\"name\\\":\\\"Mock\\\",\\\"options\\\":{\\\"baseURL\\\":\\\"$base/v1\\\",\\\"apiKey\\\":\\\"mock-key-not-a-credential\\\"},\\\"models\\\":{\\\"mock-1\\\":{\\\"name\\\":\\\"Mock One\\\",\\\"tool_call\\\":true}}}}}"
      env_json="{\"HOME\": \"$home\", \"XDG_DATA_HOME\": \"$home/.local/share\", \"OPENCODE_DISABLE_AUTOUPDATE\": \"1\", \"KILO_DISABLE_AUTOUPDATE\": \"1\", \"$var\": \"$conf\"}"
      ready='ctrl\+p|tab .*agents|Ask anything' ;;
    qwen)
      local bin; bin="$(agent_bin qwen @qwen-code/qwen-code 0.24.4)"
      mkdir -p "$home/.qwen"
      printf '{"security":{"auth":{"selectedType":"openai"},"folderTrust":{"enabled":false}},"general":{"disableAutoUpdate":true},"privacy":{"usageStatisticsEnabled":false}}' > "$home/.qwen/settings.json"
      env_json="{\"HOME\": \"$home\", \"OPENAI_API_KEY\": \"mock-key-not-a-credential\", \"OPENAI_BASE_URL\": \"$base/v1\", \"OPENAI_MODEL\": \"mock-1\"}"
      args='["--yolo"]'
      ready='Type your message|YOLO' ;;
    pi)
      local bin; bin="$(agent_bin pi @mariozechner/pi-coding-agent 0.73.1)"
      mkdir -p "$home/.pi/agent"
      printf '{"providers":{"mock":{"baseUrl":"%s/v1","api":"openai-completions","apiKey":"mock-key-not-a-credential","compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},"models":[{"id":"mock-1","name":"Mock One"}]}}}' "$base" > "$home/.pi/agent/models.json"
      printf '{"defaultProvider":"mock","defaultModel":"mock-1","enableInstallTelemetry":false}' > "$home/.pi/agent/settings.json"
      env_json="{\"HOME\": \"$home\", \"PI_OFFLINE\": \"1\", \"PI_SKIP_VERSION_CHECK\": \"1\"}"
      ready='mock-1' ;;
    copilot)
      local bin; bin="$(agent_bin copilot @github/copilot 1.0.102)"
      mkdir -p "$home/.copilot"
      printf '{"firstLaunchAt":"2026-12-01T00:00:00.000Z","appTipShown":true,"trustedFolders":["%s"]}' "$ws" > "$home/.copilot/config.json"
      env_json="{\"HOME\": \"$home\", \"COPILOT_HOME\": \"$home/.copilot\", \"COPILOT_PROVIDER_BASE_URL\": \"$base/v1\", \"COPILOT_PROVIDER_API_KEY\": \"mock-key-not-a-credential\", \"COPILOT_MODEL\": \"mock-1\", \"COPILOT_OFFLINE\": \"true\", \"COPILOT_AUTO_UPDATE\": \"false\"}"
      args='["--allow-all-tools"]'
      if [[ -n "${CAPTURE:-}" ]]; then # the raw hook payloads too, for testdata
        mkdir -p "$CAPTURE/plugin"
        printf '{"name":"capture","version":"1.0.0","hooks":"hooks.json"}' > "$CAPTURE/plugin/plugin.json"
        printf '{"version":1,"hooks":{"postToolUse":[{"type":"command","bash":"cat > %s/postToolUse.$$.json","timeoutSec":5}]}}' "$CAPTURE" > "$CAPTURE/plugin/hooks.json"
        args="[\"--allow-all-tools\", \"--plugin-dir\", \"$CAPTURE/plugin\"]"
      fi
      ready='Type @ to mention|shift\+tab|/ commands|Enter to send' ;;
    codex)
      local bin; bin="$(agent_bin codex @openai/codex 0.171.0)"
      mkdir -p "$home/.codex"
      # Codex knows no `mock-1`: a model catalog (its own format, the fields 0.171.0 requires)
      # gives it one whose tools include the freeform apply_patch, as its own models have.
      printf '{"models":[{"slug":"mock-1","display_name":"Mock One","base_instructions":"You are a coding agent.","apply_patch_tool_type":"freeform","shell_type":"shell_command","supported_reasoning_levels":[{"effort":"medium","description":"medium"}],"visibility":"list","supported_in_api":true,"priority":1,"support_verbosity":false,"truncation_policy":{"mode":"tokens","limit":10000},"experimental_supported_tools":[]}]}' > "$home/catalog.json"
      cat > "$home/.codex/config.toml" <<TOML
model = "mock-1"
model_provider = "mock"
model_catalog_json = "$home/catalog.json"
check_for_update_on_startup = false
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.mock]
name = "Mock"
base_url = "$base/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"

[projects."$ws"]
trust_level = "trusted"
TOML
      env_json="{\"HOME\": \"$home\", \"CODEX_HOME\": \"$home/.codex\", \"MOCK_API_KEY\": \"mock-key-not-a-credential\"}"
      next=claude
      ready='for shortcuts|context left|Ask Codex' ;;
    *) fail "no recipe for $agent" ;;
  esac
  cat > "$work/config.json" <<JSON
{"chain": ["$agent", "$next"], "agents": {
  "$agent": {"bin": "$bin", "args": $args, "env": $env_json},
  "$next": {"bin": "$work/bin/$next", "env": {"SIM_AGENT_LOG": "$work/next-$agent.log"}}}}
JSON
  local told
  if [[ -n "$exec_mode" ]]; then
    (cd "$ws" && env UULDANA_CONFIG="$work/config.json" UULDANA_HOME="$work/data-$agent" \
      "$deno" run -A "$repo/mod.ts" exec "do step 1 of the work" >"$work/exec-$agent.out" 2>"$work/exec-$agent.err") || true
    told="$(ls -t "$work/data-$agent"/handoffs/*.md 2>/dev/null | head -1)"
    [[ -n "$told" ]] || fail "$agent: no handoff from exec: $(tail -5 "$work/exec-$agent.err")"
  else
    run_tui "$agent"
    told="$work/next-$agent.log"
  fi
  python3 - "$work/mock.jsonl" "$told" "$ws" "$agent" <<'PY'
import json, os, re, sys
mock, codex, ws, agent = sys.argv[1:]
# One ask per call: an agent that sends the same request again (Qwen does) is asked the same call.
asked = list({(a["turn"], a["n"]): a for a in (json.loads(l) for l in open(mock) if '"n":' in l)}.values())
if codex.endswith(".md"):  # exec: the saved handoff
    prompt = open(codex).read()
else:
    start = next(json.loads(l) for l in open(codex) if '"mode":"tui"' in l)
    prompt = start.get("prompt") or ""
# A next agent that takes the handoff as session context (Claude) gets a pointer to the file.
pointer = re.search(r"full text: (/\S+\.md)\)", prompt)
if "What was done" not in prompt and pointer: prompt = open(pointer.group(1)).read()
done = prompt[prompt.index("What was done"):prompt.index("Conversation so far")]
said = [l[2:] for l in done.splitlines() if l.startswith("- ")]
def expect(a):
    if a["kind"] == "created":
        return f"created {a['target']}"
    code = 1 if str(a["n"]).endswith("0") else 0
    return f"ran `{a['target']}` → exit {code}"
want = [re.sub(r"^created .*?(work/t\d+-\d+\.txt)$", r"created \1", expect(a)) for a in asked]
# Paths as the agent named them (absolute or not). A command whose exit code the agent does not
# report (Claude's and Qwen's successes, every Codex command) matches on the command alone.
got = [re.sub(r"^created .*?(work/t\d+-\d+\.txt)$", r"created \1", s) for s in said]
unstated = sum(g.startswith("ran ") and "→" not in g for g in got)
got = [next((w for w in want if w.startswith(g + " → ")), g) if g.startswith("ran ") and "→" not in g else g for g in got]
missing = [w for w in want if w not in got]
files = sum(os.path.exists(os.path.join(ws, a["target"])) for a in asked if a["kind"] == "created")
print(f"{agent}: the mock asked for {len(asked)} tool calls; What was done lists {len(said)}; "
      f"{len(want) - len(missing)} of them match in order: {got == want}; "
      f"{files} of {sum(a['kind'] == 'created' for a in asked)} files in the workspace; "
      f"{unstated} commands with no exit code stated")
if missing: print("  missing:", missing[:5]); print("  said:", said[:8])
sys.exit(0 if not missing and got == want else 1)
PY
  tmux -L "$sock" kill-server 2>/dev/null || true
}

for a in "${agents[@]}"; do check "$a"; done
