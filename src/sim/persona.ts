/**
 * The simulated agents' identities: names, version lines, help texts with their proof lines,
 * command-line conventions and screen kinds. Pure data plus lookups.
 *
 * @module
 */
// Generated from testdata/reference/help (tools/sim/help_texts.ts); JSON, so a compiled binary
// carries it like any module.
import helpTexts from "./help_texts.json" with { type: "json" };
import { type HelpStyle, type OptionTable, optionTable } from "./options.ts";

/** Names of the simulated agents. */
export type PersonaName = "claude" | "codex" | "gemini" | "opencode" | "qwen" | "copilot";

/** One simulated agent. */
export interface Persona {
  /** The CLI's command name. */
  name: PersonaName;
  /** What `--version` prints (says it is simulated). */
  versionText: string;
  /** Version shown on the welcome screen. */
  version: string;
  /** The real top-level `--help` lines. */
  helpLines: readonly string[];
  /** The help line that proves the CLI takes a first prompt (PROVIDERS.md §1.2). */
  proofLine: RegExp;
  /** How the real CLI parses its options. */
  helpStyle: HelpStyle;
  /** Inline (prints into the scrollback) or the alternate screen. */
  screen: "inline" | "alt";
  /** The option that carries an interactive first prompt, or null for a positional prompt. */
  promptOption: string | null;
  /** Terminal title (OSC 0) while ready. */
  title: (cwd: string) => string;
}

const _PERSONAS: Record<PersonaName, Persona> = {
  claude: {
    name: "claude",
    version: "2.1.197-sim",
    versionText: "2.1.197-sim (Claude Code)",
    helpLines: helpTexts.claude.split("\n"),
    proofLine: /^Usage: claude \[options\] \[command\] \[prompt\]/,
    helpStyle: "commander",
    screen: "inline",
    promptOption: null,
    title: () => "✳ Claude Code",
  },
  codex: {
    name: "codex",
    version: "0.171.0-sim",
    versionText: "codex-cli 0.171.0-sim",
    helpLines: helpTexts.codex.split("\n"),
    proofLine: /^Usage: codex \[OPTIONS\] \[PROMPT\]/,
    helpStyle: "commander",
    screen: "alt",
    promptOption: null,
    title: (cwd) => _basename(cwd),
  },
  gemini: {
    name: "gemini",
    version: "0.61.0-sim",
    versionText: "0.61.0-sim",
    helpLines: helpTexts.gemini.split("\n"),
    proofLine: /^\s+-i, --prompt-interactive\b/,
    helpStyle: "yargs",
    screen: "inline",
    promptOption: "prompt-interactive",
    title: (cwd) => `◇  Ready (${_basename(cwd)})`,
  },
  opencode: {
    name: "opencode",
    version: "1.18.33-sim",
    versionText: "1.18.33-sim",
    helpLines: helpTexts.opencode.split("\n"),
    proofLine: /^\s+--prompt\s+prompt to use/,
    helpStyle: "yargs",
    screen: "alt",
    promptOption: "prompt",
    title: () => "OpenCode",
  },
  qwen: {
    name: "qwen",
    version: "0.24.4-sim",
    versionText: "0.24.4-sim",
    helpLines: helpTexts.qwen.split("\n"),
    proofLine: /^\s+-i, --prompt-interactive\b/,
    helpStyle: "yargs",
    screen: "alt",
    promptOption: "prompt-interactive",
    title: (cwd) => `Qwen - ${_basename(cwd)}`,
  },
  copilot: {
    name: "copilot",
    version: "1.0.102-sim",
    versionText: "GitHub Copilot CLI 1.0.102-sim.\nRun 'copilot update' to check for updates.",
    helpLines: helpTexts.copilot.split("\n"),
    proofLine: /^\s+-i, --interactive <prompt>/,
    helpStyle: "commander",
    screen: "alt",
    promptOption: "interactive",
    title: () => "GitHub Copilot",
  },
};

/** All persona names, in the order of PROVIDERS.md. */
export const PERSONA_NAMES: readonly PersonaName[] = Object.keys(_PERSONAS) as PersonaName[];

/** The persona called `name`, or null. */
export function findPersona(name: string): Persona | null {
  return Object.hasOwn(_PERSONAS, name) ? _PERSONAS[name as PersonaName] : null;
}

const _tables = new Map<PersonaName, OptionTable>();

/** The persona's option table, read from its help text (cached). */
export function personaOptions(p: Persona): OptionTable {
  let t = _tables.get(p.name);
  if (!t) {
    t = optionTable(p.helpLines, p.helpStyle);
    _tables.set(p.name, t);
  }
  return t;
}

/** The `--help` text; `withoutProof` drops the proof line (to test an agent that lost it). */
export function helpText(p: Persona, withoutProof: boolean): string {
  const lines = withoutProof ? p.helpLines.filter((l) => !p.proofLine.test(l)) : p.helpLines;
  return lines.join("\n") + "\n";
}

function _basename(path: string): string {
  return path.replace(/\/+$/, "").split("/").pop() || "/";
}
