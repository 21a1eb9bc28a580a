# Shared by the real-Claude checks (sourced, not run): installs Claude Code from npm into
# $work/agents, starts a mock of the Anthropic API on 127.0.0.1, and writes a uuldana config whose
# chain is real Claude (a fresh HOME, a dummy token, the mock as its API) then uuldana's simulated
# Codex (logging what it receives to $work/codex.log). Needs $repo, $deno, $work, $version and a
# `fail` function; sets $mock_pid and $port.

# install_claude: Claude Code $version into $work/agents (the npm cache is reused when it has it).
install_claude() {
  echo "installing @anthropic-ai/claude-code@$version into $work/agents" >&2
  npm install --prefix "$work/agents" --no-audit --no-fund --loglevel=error --prefer-offline \
    "@anthropic-ai/claude-code@$version" >&2
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
  "claude": {"bin": "$work/agents/node_modules/.bin/claude", "env": {"HOME": "$work/home",
    "CLAUDE_CODE_OAUTH_TOKEN": "dummy-not-a-real-token", "ANTHROPIC_BASE_URL": "http://127.0.0.1:$port",
    "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}},
  "codex": {"bin": "$work/bin/codex", "env": {"SIM_AGENT_LOG": "$work/codex.log"}}}}
JSON
}
