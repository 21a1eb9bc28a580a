/**
 * A simulated coding agent: a small real TUI that behaves like Claude Code, Codex, Gemini,
 * OpenCode, Qwen or Copilot for uuldana's end-to-end tests and `uuldana demo` — same flags, same
 * `--help` proof lines, similar screens and terminal modes, deterministic replies, the real
 * usage-limit layouts on demand — and logs everything it receives. This file is its entry: the
 * launch read, the one-shot modes (`--help`, `--version`, `opencode import`, print mode) run here,
 * an interactive session handed to session.ts.
 *
 * Environment: `SIM_AGENT_LOG` (JSON-lines log), `SIM_LIMIT_AFTER=N` (the N-th turn hits the
 * limit), `SIM_RESET_AT` (reset time shown), `SIM_RESET_IN=S` (Claude's reset: the first whole
 * minute S seconds after its limit), `SIM_HELP_WITHOUT_PROMPT=1` (help lacks the proof
 * line), `SIM_STATE_DIR` (OpenCode sessions), `SIM_REPLY_MS` (reply delay, default 150),
 * `SIM_STARTUP_MS` (delay before the prompt is ready), `SIM_RETRY_MS` (OpenCode retry tick),
 * `SIM_IMPORT_MS` (how long `opencode import` takes),
 * `SIM_LOADING_MS` (with bracketed paste already on, the screen stays blank and input is dropped
 * this long before the first frame, as real OpenCode 1.18 and Kilo 7.7 do while they load),
 * `SIM_DEAF_MS` (after the first frame, input is dropped this long: an agent whose input box
 * shows but does not take input yet), `SIM_PASTE_SHOW_MS` (a paste is taken at once but drawn only
 * this long after it arrives, as a loaded TUI draws late),
 * `SIM_LIMIT_SESSIONS=N` (only the first N sessions, counted in `SIM_STATE_DIR`, hit it),
 * `SIM_RELAUNCH_MS` (Gemini and Qwen: every start, `--help` included, first costs this long, as
 * their launcher relaunching itself does, unless `GEMINI_CLI_NO_RELAUNCH`/`QWEN_CODE_NO_RELAUNCH`
 * is set), `SIM_HELP_MS` (`--help` takes this long whatever the environment),
 * `SIM_DEFAULT_MODEL` (OpenCode: the model the user's own configuration picks, `provider/model`;
 * default `opencode/big-pickle`),
 * `SIM_LIMIT_TEXT` (the provider's limit text OpenCode's footer and Copilot's `✗` line show; for
 * Claude, the text of its `⎿` limit row and its StopFailure hook),
 * `SIM_QWEN_FAIL_FAST=1` (Qwen's limit is a 429 naming its reset: `✕ Quota exhausted: …` at once
 * and its StopFailure hook), `SIM_COPILOT_RETRIES=N` (Copilot retries the failed call N times,
 * `SIM_RETRY_MS` apart, busy with its footer's `◉ Working` glyph turning every 90 ms, its
 * errorOccurred hook each time, the first one `SIM_COPILOT_HOOK_MS` late (default 1000: the real
 * 1.0.102 ran it 0.55–1.9 s after the 429), before its `✗` row),
 * `SIM_RETRY_GIVEUP=N` (OpenCode stops retrying after attempt N and ends the turn with its `┃`
 * error block), `SIM_SPLIT_MS` (the frame showing the limit is written in two parts this many ms
 * apart, cut inside the reset clause), `SIM_TOOL_CAT=FILE` (Claude answers a turn by running
 * `cat FILE` and ends the turn on its output), `SIM_TOOL_CALLS=JSON` (Claude: the tool calls each
 * turn makes, reported by its PostToolUse/PostToolUseFailure hooks; see env.ts), `SIM_HOOKS_OFF=1` (no hook or plugin runs at all: Claude as
 * under managed settings with `disableAllHooks`), `SIM_MODEL_URL` (every submitted turn is also
 * POSTed there as an OpenAI chat-completions request, so a local mock sees this agent's model
 * requests beside a real agent's: the real-agent matrix times a handoff by them),
 * `SIM_WARN_AFTER=N` (Claude: the N-th turn shows a usage warning against the right edge above its
 * input box as the turn starts, as 2.1.332 does; `SIM_WARN_TEXT` its text). One-shot with its
 * JSON flag (`-o stream-json` for gemini and qwen, `--output-format json` for copilot, `-p
 * --output-format stream-json` for claude) it prints JSON lines as the real CLI does for
 * `uuldana exec`, its limit as the real one reports it headless (headless.ts), and copilot takes
 * its prompt from a piped stdin.
 *
 * @module
 */
import { ImportError, simStateDir, storeSession } from "./opencode_store.ts";
import { codexLimitLine, copilotLimitLine, qwenLimitLine } from "./limit.ts";
import { parseLaunch, type SimLaunch } from "./launch.ts";
import { SimLog } from "./log.ts";
import { findPersona, helpText, type Persona, PERSONA_NAMES } from "./persona.ts";
import { replyLines } from "./reply.ts";
import { type HeadlessScript, jsonAnswer, jsonLimit, wantsJson } from "./headless.ts";
import { SimSession } from "./session.ts";
import { countSession, env, envInt, limitAfter, sleep, termSize, write } from "./env.ts";

// The variable that stops a persona's launcher from starting itself a second time.
const _RELAUNCH_VARS: Partial<Record<string, string>> = {
  gemini: "GEMINI_CLI_NO_RELAUNCH",
  qwen: "QWEN_CODE_NO_RELAUNCH",
};

/**
 * Runs persona `persona` with the command-line `args` (what follows the agent's name) and
 * returns its exit code. Interactive sessions need a terminal on stdin and stdout.
 */
export async function runSimAgent(persona: string, args: string[]): Promise<number> {
  const p = findPersona(persona);
  if (!p) {
    write(
      Deno.stderr,
      `sim-agent: unknown persona ${JSON.stringify(persona)} (one of: ${
        PERSONA_NAMES.join(", ")
      })\n`,
    );
    return 2;
  }
  const launch = parseLaunch(p, args);
  const log = new SimLog(env("SIM_AGENT_LOG") ?? null);
  log.write({
    event: "start",
    persona: p.name,
    argv: args,
    cwd: Deno.cwd(),
    size: Deno.stdout.isTerminal() ? termSize() : null,
    mode: launch.mode,
    prompt: launch.prompt,
    unknown: launch.unknown,
    flags: launch.flags,
    ...(launch.droppedPrompt !== null ? { droppedPrompt: launch.droppedPrompt } : {}),
  });
  const relaunchVar = _RELAUNCH_VARS[p.name];
  if (relaunchVar && !env(relaunchVar)) await sleep(envInt("SIM_RELAUNCH_MS", 0));
  let code: number;
  switch (launch.mode) {
    case "help":
      await sleep(envInt("SIM_HELP_MS", 0));
      write(Deno.stdout, helpText(p, env("SIM_HELP_WITHOUT_PROMPT") === "1"));
      code = 0;
      break;
    case "version":
      write(Deno.stdout, p.versionText + "\n");
      code = 0;
      break;
    case "import": {
      // SIM_IMPORT_MS: a slow import (a big store), so a test can kill uuldana in the middle of it.
      const slow = envInt("SIM_IMPORT_MS", 0);
      if (slow > 0) {
        log.write({ event: "import-start", pid: Deno.pid });
        await new Promise((r) => setTimeout(r, slow));
      }
      code = _import(launch, log);
      break;
    }
    case "print":
      code = await _printMode(p, launch, log, args);
      break;
    default:
      countSession(p.name);
      code = await new SimSession(p, launch, log, args).run();
  }
  log.write({ event: "exit", code });
  return code;
}

// Prints a JSON-mode run, stands still as long as the real CLI would (a retry's wait), exits.
async function _script(script: HeadlessScript): Promise<number> {
  for (const line of script.stdout) write(Deno.stdout, line + "\n");
  for (const line of script.stderr) write(Deno.stderr, line + "\n");
  await sleep(script.waitMs);
  return script.exitCode;
}

function _import(launch: SimLaunch, log: SimLog): number {
  const file = launch.importFile;
  if (!file) {
    write(Deno.stderr, "Not enough non-option arguments: got 0, need at least 1\n");
    return 1;
  }
  try {
    const doc = JSON.parse(Deno.readTextFileSync(file));
    const s = storeSession(simStateDir(), doc, Deno.cwd());
    log.write({ event: "import", file, id: s.id, firstMessage: s.firstMessage });
    write(Deno.stdout, `Imported session: ${s.id}\n`);
    return 0;
  } catch (e) {
    const msg = e instanceof ImportError || e instanceof SyntaxError
      ? e.message
      : e instanceof Deno.errors.NotFound
      ? `File not found: ${file}`
      : String(e);
    log.write({ event: "import", file, error: msg });
    write(Deno.stderr, `Error: ${msg}\n`);
    return 1;
  }
}

async function _printMode(
  p: Persona,
  launch: SimLaunch,
  log: SimLog,
  args: readonly string[],
): Promise<number> {
  const json = wantsJson(p.name, args);
  let prompt = launch.prompt;
  if (json && !Deno.stdin.isTerminal()) {
    // The real CLIs' JSON modes read a piped stdin: the prompt, or text before a short one.
    const piped = (await new Response(Deno.stdin.readable).text()).trim();
    if (piped) prompt = prompt ? `${piped}\n${prompt}` : piped;
  } else if (prompt === null && !Deno.stdin.isTerminal()) {
    prompt = (await new Response(Deno.stdin.readable).text()).trim();
  }
  if (!prompt) {
    write(Deno.stderr, "Error: no prompt given\n");
    return 1;
  }
  log.write({ event: "submit", text: prompt, turn: 1 });
  if (limitAfter() === 1 && json) {
    log.write({ event: "limit", turn: 1 });
    return await _script(jsonLimit(p.name, env("SIM_RESET_AT"), prompt));
  }
  if (json) return await _script(jsonAnswer(p.name, replyLines(p.name, prompt, 1), prompt));
  if (limitAfter() === 1) {
    const reset = env("SIM_RESET_AT");
    const text = p.name === "claude"
      ? `You've hit your weekly limit · resets ${reset ?? "Dec 3, 1:15am"} (UTC)`
      : p.name === "codex"
      ? codexLimitLine(reset).slice(2)
      : p.name === "copilot"
      ? copilotLimitLine(reset).slice(2)
      : p.name === "qwen"
      ? qwenLimitLine().slice(2)
      : "Usage limit reached for all Pro models.";
    log.write({ event: "limit", turn: 1 });
    write(Deno.stdout, text + "\n");
    return 1;
  }
  write(Deno.stdout, replyLines(p.name, prompt, 1).join("\n") + "\n");
  return 0;
}
