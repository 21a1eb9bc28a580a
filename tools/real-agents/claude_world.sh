# Shared by the real-Claude checks (sourced, not run): finds or installs Claude Code $version
# exactly, starts a mock of the Anthropic API on 127.0.0.1, and writes a uuldana config whose
# chain is real Claude (a fresh HOME, a dummy token, the mock as its API) then uuldana's simulated
# Codex (logging what it receives to $work/codex.log), and helpers for the tmux pane ($sock) it runs
# in (screen, wait_for, type_line, ready). Needs $repo, $deno, $work, $version and a
# `fail` function; sets $mock_pid and $port.

# The current release the checks run by default (`npm view @anthropic-ai/claude-code version`).
CLAUDE_CURRENT=2.1.332
# Claude's input box is drawn (2.1.197: "? for shortcuts"; 2.1.332 in auto mode: its mode footer).
CLAUDE_READY='for shortcuts|shift\+tab to cycle'

# stop_claudes: SIGKILLs every Claude process left whose HOME is under $work (the `script` and shell
# it runs under end with it): killing a tmux server ends neither a `script` nor its child.
stop_claudes() {
  local pid parent
  for pid in $(pgrep -f "claude" 2>/dev/null); do
    { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -q "^HOME=$work/" || continue
    grep -qa "claude" "/proc/$pid/cmdline" 2>/dev/null || continue
    kill -KILL "$pid" 2>/dev/null || true
  done
}

# claude_pids: the running Claude processes of this check (its binary, HOME=$work/home), one a line;
# other runs of the same binary on the machine are not ours.
claude_pids() {
  local pid
  for pid in $(pgrep -x claude 2>/dev/null; pgrep -f "${claude_path:-/nonexistent}" 2>/dev/null); do
    { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qx "HOME=$work/home" && echo "$pid"
  done | sort -u
}

# claude_bin: prints the path of Claude Code $version: $AGENTS_DIR/claude@$version when it is there
# (AGENTS_DIR=/work/agents on the team's machine), else installed by exact version into
# $work/agents (the npm cache is reused; a release asking for a newer Node than this one is still
# installed exactly, never replaced by an older one). Fails unless `claude --version` is $version.
claude_bin() {
  local bin="${AGENTS_DIR:-/nonexistent}/claude@$version/node_modules/.bin/claude"
  if [[ ! -x "$bin" ]]; then
    echo "installing @anthropic-ai/claude-code@$version into $work/agents" >&2
    npm install --prefix "$work/agents" --no-audit --no-fund --loglevel=error --prefer-offline \
      "@anthropic-ai/claude-code@$version" >&2
    bin="$work/agents/node_modules/.bin/claude"
  fi
  local shown
  shown="$("$bin" --version 2>/dev/null | head -1)"
  [[ "$shown" == "$version "* || "$shown" == "$version" ]] \
    || fail "$bin says '$shown', not Claude Code $version"
  echo "$bin"
}

# install_claude: sets $claude_path to Claude Code $version (see claude_bin).
install_claude() {
  claude_path="$(claude_bin)"
}

# start_mock MOCK.ts ARGS…: runs the mock (port 0: any free one) and waits for its port.
start_mock() {
  local mock="$1"
  shift
  "$deno" run -A "$repo/tools/real-agents/$mock" 0 "$@" 2>"$work/mock.log" &
  mock_pid=$!
  for _ in $(seq 1 100); do grep -q "^mock on " "$work/mock.log" && break; sleep 0.1; done
  port="$(sed -n 's/^mock on \([0-9]*\)$/\1/p' "$work/mock.log")"
  [[ -n "$port" ]] || fail "the mock did not start: $(cat "$work/mock.log")"
}

# write_world: Claude's HOME (onboarded, $work/ws trusted), the simulated Codex, the config.
write_world() {
  mkdir -p "$work/home" "$work/ws" "$work/bin"
  printf '{"hasCompletedOnboarding":true,"theme":"dark","projects":{"%s":{"hasTrustDialogAccepted":true}}}' "$work/ws" > "$work/home/.claude.json"
  "$deno" eval "import { installSimAgents } from '$repo/src/sim/install.ts';
    installSimAgents('$work/bin', ['codex'], [Deno.execPath(), 'run', '-A', '--config', '$repo/deno.json', '$repo/mod.ts']);"
  cat > "$work/config.json" <<JSON
{"chain": ["claude", "codex"], "agents": {
  "claude": {"bin": "$claude_path", "env": {"HOME": "$work/home",
    "CLAUDE_CODE_OAUTH_TOKEN": "dummy-not-a-real-token", "ANTHROPIC_BASE_URL": "http://127.0.0.1:$port",
    "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}},
  "codex": {"bin": "$work/bin/codex", "env": {"SIM_AGENT_LOG": "$work/codex.log"}}}}
JSON
}

# The tmux pane ($sock) Claude runs in, for a check: `screen` prints it, `wait_for RE SECONDS` waits
# for an extended regexp on it, `type_line TEXT` types a line and Enter, `ready` waits for Claude's
# input box (past its auto-mode dialog).
screen() { tmux -L "$sock" capture-pane -p; }
wait_for() { # extended regexp, seconds
  for _ in $(seq 1 $(($2 * 5))); do screen | grep -qE -- "$1" && return 0; sleep 0.2; done
  fail "timed out waiting for: $1"
}
type_line() { tmux -L "$sock" send-keys -l "$1"; sleep 0.3; tmux -L "$sock" send-keys Enter; }
ready() {
  wait_for "$CLAUDE_READY|Make auto mode your default" 90
  if screen | grep -q "Make auto mode your default"; then
    sleep 1; tmux -L "$sock" send-keys Down; sleep 0.5; tmux -L "$sock" send-keys Enter
    wait_for "$CLAUDE_READY" 30
  fi
  sleep 1
}
