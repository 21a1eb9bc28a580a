/**
 * The limit screens the detector tests use: each message users reported, in its agent's framing,
 * with the reset time expected for a fixed clock and zone, and the screens that only quote one.
 * Shared by the adapter tests and the `uuldana debug detect` test. The cases are data
 * (`testdata/limit_cases/`, reached through `tests/_paths.ts`): a case's `screen` is the rows
 * as detection sees them, or, with `frame`, the rows its agent's frame (`_limit_screens_test_util.ts`)
 * is drawn around, with the frame's further `args`.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LIMIT_CASES_DIR } from "../tests/_paths.ts";
import type { DetectOptions, LimitHit } from "./adapter.ts";
import {
  claude332Screen,
  claudeScreen,
  codexScreen,
  copilotScreen,
  finalScreen,
  geminiDialog,
  geminiScreen,
  kiloScreen,
  OPENCODE_IDLE_FOOTER,
  opencodeScreen,
  piScreen,
  qwenScreen,
  qwenScreenAtColumn2,
} from "./_limit_screens_test_util.ts";

// A fixed clock and zone: every reset time below is resolved against them.
/** The clock every expected reset time is resolved against (zone UTC). */
export const NOW = "2026-03-10T02:00:00Z";
/** Detection options with that clock, zone and width. */
export const OPTS: DetectOptions = { now: new Date(NOW), cols: 120, timeZone: "UTC" };

/** One screen and what detection must find on it. */
export interface Case {
  name: string;
  agent: string;
  screen: string[];
  /** Expected kind and reset time; null: no limit. */
  expect: { kind: LimitHit["kind"]; resetsAt: string | null; handOff?: boolean } | null;
  /** A piece the hit's message must hold. */
  holds?: string;
}

// deno-lint-ignore no-explicit-any
type _Frame = (rows: any, ...args: any[]) => string[];

/** The frames a case may name, by the name its `frame` gives. */
const _FRAMES: Record<string, _Frame> = {
  claude: claudeScreen,
  claude332: claude332Screen,
  codex: codexScreen,
  copilot: copilotScreen,
  final: finalScreen,
  geminiDialog,
  gemini: geminiScreen,
  kilo: kiloScreen,
  opencode: opencodeScreen,
  pi: piScreen,
  qwen: qwenScreen,
  qwenAtColumn2: qwenScreenAtColumn2,
};

/** A footer row that stands for OpenCode's idle footer (a row of a corpus recording). */
const _IDLE_FOOTER = "{OPENCODE_IDLE_FOOTER}";

interface _StoredCase extends Omit<Case, "screen"> {
  frame?: string;
  screen: string[] | string;
  args?: unknown[];
}

function _cases(file: string): Case[] {
  const stored: _StoredCase[] = JSON.parse(readFileSync(join(LIMIT_CASES_DIR, file), "utf8"));
  return stored.map(({ frame, screen, args = [], ...rest }) => {
    if (frame === undefined) return { ...rest, screen: screen as string[] };
    const draw = _FRAMES[frame];
    if (!draw) throw new Error(`${file}: ${rest.name}: no frame "${frame}"`);
    const filled = args.map((a) =>
      Array.isArray(a) ? a.map((r) => r === _IDLE_FOOTER ? OPENCODE_IDLE_FOOTER : r) : a
    );
    return { ...rest, screen: draw(screen, ...filled) };
  });
}

/** The reported messages, each in its agent's framing. */
export const REAL: Case[] = _cases("real.json");

/** Screens that only quote a limit message (or show one before the latest turn): never a limit. */
export const QUOTES: Case[] = _cases("quotes.json");
