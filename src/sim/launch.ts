/**
 * Turns a simulated agent's argv into what to do: print help or the version, import a session,
 * answer one prompt and exit, or start the TUI with an opening prompt. Pure.
 *
 * @module
 */
import { parseArgv, type ParsedArgv, stringOption } from "./options.ts";
import { type Persona, personaOptions } from "./persona.ts";
import { promptFromStdin } from "./headless.ts";

/** What one invocation asks for. */
export interface SimLaunch {
  /** `tui` is the interactive program; `print` answers `prompt` on stdout and exits. */
  mode: "help" | "version" | "import" | "print" | "tui";
  /** The opening prompt (interactive) or the one-shot prompt (`print`). */
  prompt: string | null;
  /** Claude `--settings` (inline JSON or a file path). */
  settings: string | null;
  /** Session to open (OpenCode `-s`) or to create (Claude `--session-id`). */
  sessionId: string | null;
  /** OpenCode `import FILE`. */
  importFile: string | null;
  /** Flags given that the simulation honours by name (e.g. `--no-daemon`). */
  flags: string[];
  /** Options the real CLI does not know (ignored leniently, but recorded). */
  unknown: string[];
  /** Everything parsed, for the log. */
  parsed: ParsedArgv;
  /** A prompt given that the real CLI silently drops (OpenCode `--prompt` with `-s`). */
  droppedPrompt: string | null;
}

/** Interprets `args` for persona `p`. */
export function parseLaunch(p: Persona, args: readonly string[]): SimLaunch {
  const parsed = parseArgv(args, personaOptions(p));
  const o = parsed.options;
  const launch: SimLaunch = {
    mode: "tui",
    prompt: null,
    settings: null,
    sessionId: null,
    importFile: null,
    flags: Object.keys(o).filter((k) => o[k] === true).map((k) => `--${k}`),
    unknown: parsed.unknown,
    parsed,
    droppedPrompt: null,
  };
  if (o.help) return { ...launch, mode: "help" };
  if (o.version) return { ...launch, mode: "version" };
  const pos = parsed.positionals;
  switch (p.name) {
    case "claude":
      launch.prompt = pos[0] ?? null;
      launch.settings = stringOption(parsed, "settings") ?? null;
      launch.sessionId = stringOption(parsed, "session-id") ?? null;
      if (o.print) launch.mode = "print";
      break;
    case "codex":
      if (pos[0] === "exec" || pos[0] === "e") {
        launch.mode = "print";
        launch.prompt = pos[1] ?? null;
      } else {
        launch.prompt = pos[0] ?? null;
      }
      break;
    case "gemini":
    case "qwen": {
      const interactive = stringOption(parsed, "prompt-interactive");
      const headless = stringOption(parsed, "prompt");
      const query = pos.length ? pos.join(" ") : null;
      if (interactive !== undefined) launch.prompt = interactive;
      else if (headless !== undefined) {
        launch.mode = "print";
        launch.prompt = query ? `${query}\n${headless}` : headless;
      } else if (query !== null) {
        launch.prompt = query;
        if (p.name === "qwen") launch.mode = "print"; // qwen's positional prompt is one-shot
      }
      break;
    }
    case "opencode":
      if (pos[0] === "import") {
        launch.mode = "import";
        launch.importFile = pos[1] ?? null;
        break;
      }
      if (pos[0] === "run") {
        launch.mode = "print";
        launch.prompt = pos.slice(1).join(" ") || null;
        break;
      }
      launch.sessionId = stringOption(parsed, "session") ?? null;
      launch.prompt = stringOption(parsed, "prompt") ?? null;
      if (launch.sessionId !== null && launch.prompt !== null) {
        // The real 1.18 drops --prompt together with -s (PROVIDERS.md §3, "Known bug").
        launch.droppedPrompt = launch.prompt;
        launch.prompt = null;
      }
      break;
    case "copilot":
      if (stringOption(parsed, "prompt") !== undefined) {
        launch.mode = "print";
        launch.prompt = stringOption(parsed, "prompt")!;
      } else if (promptFromStdin(p.name, args)) {
        launch.mode = "print"; // `--output-format json` with its prompt on a piped stdin
      } else {
        launch.prompt = stringOption(parsed, "interactive") ?? null;
      }
      break;
  }
  return launch;
}
