/**
 * `uuldana exec [TASK] [--agents a,b,c] …`: run a task headless (CI) through the agents' JSON
 * modes, failing over on usage limits.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { resolve } from "node:path";
import { existsSync, statSync } from "node:fs";
import { ExitCode, ExitWith, UsageError } from "../errors.ts";
import { execTask } from "../exec/exec_task.ts";
import { parseDuration } from "../exec/duration.ts";
import type { ExecSummary } from "../exec/summary.ts";
import { openContext } from "../context.ts";
import { Notifier } from "../notify/notifier.ts";
import { status } from "./style.ts";

/** Stall bound used by `--handoff-on-stall` when `--stall` is not given. */
const _DEFAULT_STALL = "10m";

/** `uuldana exec`: run a task headless (CI) through the agents' JSON modes, failing over on usage limits. */
export function execCommand() {
  return new Command("exec")
    .description(
      "run a task headless (CI) through the agents' JSON modes, failing over on usage limits",
    )
    .argument("[task]", "the task; `-` or absent (with stdin not a terminal) reads it from stdin")
    .option(
      "--agents <list>",
      "agents or profiles to try, in order, comma-separated (default: your chain)",
    )
    .option("--max-handoffs <n>", "hand off at most N times (default: until the agents run out)")
    .option("--timeout <duration>", "time limit for the whole task, e.g. 90s, 10m, 1h")
    .option("--stall <duration>", "treat an agent with no output for this long as stalled")
    .option(
      "--handoff-on-stall",
      `hand a stalled agent's work to the next agent (stall bound: --stall, default ${_DEFAULT_STALL})`,
    )
    .option("--json", "print one JSON summary (runs, handoffs, final text, status) on stdout")
    .option("--cwd <dir>", "workspace the agents run in (default: the current directory)")
    .addHelpText(
      "after",
      `
The first agent runs the task through its structured JSON mode. When it reports a usage limit,
the conversation is handed to the next agent as its opening prompt, framed as untrusted history.
No terminal needed. Each agent's JSON output and stderr are read as they arrive: an agent that
says it waits to retry a quota (qwen's retry events, copilot's failed calls) is stopped at once and
the work handed on, with the reset its message gives when it gives one.

How each agent starts. The task is one argument when it fits; a handoff is never an argument (any
local user can read a process's command line), always stdin:
  claude    claude -p --output-format stream-json --verbose -- TASK   handoff: stdin
  codex     codex exec --json --skip-git-repo-check -- TASK          handoff: stdin (-)
  gemini    gemini -o stream-json --prompt=TASK                      handoff: stdin, a short --prompt
  opencode  opencode run --format json TASK                          handoff: stdin, a short message
  qwen      qwen -o stream-json TASK                                 handoff: stdin, a short -p
  copilot   copilot --output-format json --prompt=TASK               handoff: stdin (piped, no -p)

Output: the final agent's answer on stdout; progress on stderr.
Exit code: 0 done; 1 an agent failed (or the task timed out); 2 bad usage; 3 every agent was
limited; 127 no agent installed; 130 interrupted (143 on SIGTERM).

Examples:
  uuldana exec "fix the failing test" --agents claude,codex
  uuldana exec --agents codex,gemini --timeout 20m < task.md
  uuldana exec "update the changelog" --json > summary.json
  uuldana exec "run the migration" --stall 5m --handoff-on-stall --max-handoffs 1`,
    )
    .action(async (task, opts) => {
      const text = await _task(task);
      const agents = opts.agents === undefined ? null : _agentList(opts.agents);
      const maxHandoffs = opts.maxHandoffs === undefined
        ? Number.POSITIVE_INFINITY
        : _count(opts.maxHandoffs, "--max-handoffs");
      const timeoutMs = opts.timeout === undefined
        ? null
        : parseDuration(opts.timeout, "--timeout");
      const stallMs = opts.stall !== undefined
        ? parseDuration(opts.stall, "--stall")
        : opts.handoffOnStall
        ? parseDuration(_DEFAULT_STALL, "--stall")
        : null;
      const cwd = _workspace(opts.cwd);

      const ctx = openContext({ live: { report: status } });
      const abort = new AbortController();
      const signals: Deno.Signal[] = ["SIGINT", "SIGTERM"];
      const listeners = signals.map((s) => [s, () => abort.abort(s)] as const);
      for (const [s, fn] of listeners) Deno.addSignalListener(s, fn);
      // The answer owns stdout: only the `notify` command hears of a handoff, never the terminal.
      const notifier = new Notifier({ config: ctx.config.notify, terminal: null, status });
      let summary: ExecSummary;
      try {
        summary = await execTask({
          ctx,
          task: text,
          agents,
          maxHandoffs,
          timeoutMs,
          stallMs,
          handoffOnStall: opts.handoffOnStall === true,
          cwd,
          progress: status,
          signal: abort.signal,
          notify: (event) => notifier.notify(event),
        });
        await notifier.settled();
      } finally {
        for (const [s, fn] of listeners) Deno.removeSignalListener(s, fn);
        ctx.journal.close();
      }
      if (opts.json) {
        _write(Deno.stdout, JSON.stringify(summary, _finite, 2) + "\n");
      } else if (summary.exitCode === ExitCode.ok) {
        _write(
          Deno.stdout,
          summary.finalText.endsWith("\n") ? summary.finalText : summary.finalText + "\n",
        );
      }
      if (summary.status === "limited") status("every agent tried hit its usage limit");
      if (summary.status === "interrupted") status("interrupted; the agent was stopped");
      if (summary.exitCode !== ExitCode.ok) throw new ExitWith(summary.exitCode);
    });
}

async function _task(arg: string | undefined): Promise<string> {
  let text: string;
  if (arg === undefined || arg === "-") {
    if (arg === undefined && Deno.stdin.isTerminal()) {
      throw new UsageError(
        "no task given",
        'pass it as an argument (uuldana exec "fix the test") or pipe it on stdin',
      );
    }
    text = await new Response(Deno.stdin.readable).text();
  } else {
    text = arg;
  }
  if (text.trim() === "") throw new UsageError("the task is empty");
  return text;
}

function _agentList(value: string): string[] {
  const names = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError("--agents needs at least one agent name");
  return names;
}

function _count(value: string, option: string): number {
  if (!/^\d+$/.test(value.trim())) {
    throw new UsageError(`${option} must be a whole number (0 or more), got "${value}"`);
  }
  return Number(value);
}

function _workspace(dir: string | undefined): string {
  const path = resolve(dir ?? Deno.cwd());
  if (!existsSync(path) || !statSync(path).isDirectory()) {
    throw new UsageError(`--cwd: ${path} is not a directory`);
  }
  return path;
}

// JSON has no Infinity; an unbounded count prints as null.
function _finite(_key: string, value: unknown): unknown {
  return typeof value === "number" && !Number.isFinite(value) ? null : value;
}

function _write(file: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = new TextEncoder().encode(text);
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}
