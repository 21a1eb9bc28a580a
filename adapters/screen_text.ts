/**
 * Screen-text helpers shared by the limit detectors: normalising rows, stripping box borders,
 * re-joining rows an agent wrapped itself, and hiding text uuldana delivered. Pure.
 *
 * @module
 */
import type { DetectOptions, LimitHit } from "./adapter.ts";
import { readResetTime } from "./reset_time.ts";

const _BORDER = "│┃║╎╏┆┇┊┋";
const _LEAD_BORDER = new RegExp(`^\\s*[${_BORDER}]`);
const _TRAIL_BORDER = new RegExp(`[${_BORDER}]\\s*$`);
// Prompt markers agents put before the echoed user turn (Claude ❯, Codex ›, Gemini/Qwen >, …).
const _PROMPT_MARKER = /^\s*(?:[❯›>┃│▌]\s*)+/;

/** NBSP to space, runs of whitespace to one space, trimmed. */
export function normalizeSpace(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** Strips box borders (`│ … │`, nested too) and the padding inside them; trims the right side. */
export function stripBorders(line: string): string {
  let s = line.trimEnd();
  for (let i = 0; i < 4; i++) {
    const lead = _LEAD_BORDER.test(s);
    const trail = _TRAIL_BORDER.test(s);
    if (!lead && !trail) break;
    if (lead) s = s.replace(_LEAD_BORDER, "");
    if (trail) s = s.replace(_TRAIL_BORDER, "");
    s = s.trimEnd();
  }
  return s;
}

/** True when a row is part of a box's top or bottom edge (`╭──╮`, `╰──╯`, `┌──┐`, `└──┘`). */
export function isBoxEdge(line: string, which: "top" | "bottom"): boolean {
  const t = line.trim();
  return which === "top" ? /^[╭┌][─━]/.test(t) : /^[╰└][─━]/.test(t);
}

/** Terminal columns a string takes (wide East Asian and emoji count 2; combining marks 0). */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || (c >= 0x300 && c <= 0x36f) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0x200d) {
      continue;
    }
    w += (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
        (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
        (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
        (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1faff) ||
        (c >= 0x20000 && c <= 0x3fffd)
      ? 2
      : 1;
  }
  return w;
}

/**
 * Joins rows an agent wrapped itself: a row that fills the whole width was cut mid-word, and a row
 * ending in `/` or `-` was broken where Unicode line breaking allows it without a space (Codex
 * breaks URLs after `/`); both join the next row without a space. Otherwise the wrap replaced a
 * space.
 */
export function joinRows(rows: readonly string[], cols?: number): string {
  let out = "";
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i].trimEnd();
    if (i === 0) {
      out = row;
      continue;
    }
    const prev = rows[i - 1].trimEnd();
    const full = cols !== undefined && displayWidth(prev) >= cols;
    const breakable = /\S[/-]$/.test(prev);
    out += full || breakable ? row.trimStart() : " " + row.trimStart();
  }
  return out.replace(/\u00a0/g, " ").trim();
}

/**
 * Replaces with "…" (after the row's indentation and prompt marker, which stay: the echo still
 * shows where the turn starts) the rows that echo text uuldana delivered (the handoff, a kickoff line). An echo
 * is a run of rows that shows a delivered text in order: it starts at a row showing the text's
 * beginning (prompt marker stripped), or at the top of the screen when its start has scrolled
 * away (then it must run to the text's end), and each next row continues where the last one
 * matched. A row elsewhere that equals some line of a delivered text is not an echo: a genuine
 * limit message stays visible even when the handoff quotes the same words.
 */
export function hideDelivered(
  lines: readonly string[],
  delivered: readonly string[] | undefined,
): string[] {
  const out = [...lines];
  if (!delivered || delivered.length === 0) return out;
  const bare = lines.map((l) => normalizeSpace(stripBorders(l).replace(_PROMPT_MARKER, "")));
  const top = bare.findIndex((b) => b !== "");
  for (const d of delivered) {
    const text = normalizeSpace(d);
    if (text.length === 0) continue;
    for (let i = 0; i < out.length; i++) {
      const run = _echoRun(bare, i, text, i === top);
      if (!run) continue;
      for (let k = i; k < run; k++) {
        if (bare[k] !== "") out[k] = (/^\s*(?:[❯›>┃│▌]\s*)*/.exec(out[k])?.[0] ?? "") + "…";
      }
      i = run - 1;
    }
  }
  return out;
}

// Rows an echo may skip between two matched pieces (markup the agent dropped), in characters.
const _ECHO_GAP = 200;

// The end (exclusive) of the echo run starting at row `start`, or 0 when none starts there.
function _echoRun(bare: readonly string[], start: number, text: string, atTop: boolean): number {
  const first = bare[start];
  if (first.length < 4) return 0;
  const at = atTop ? text.indexOf(first) : (text.startsWith(first) ? 0 : -1);
  if (at < 0) return 0;
  let cursor = at + first.length;
  let end = start + 1;
  for (let k = start + 1; k < bare.length; k++) {
    if (bare[k] === "") continue;
    const next = text.indexOf(bare[k], cursor);
    if (next < 0 || next - cursor > _ECHO_GAP) break;
    cursor = next + bare[k].length;
    end = k + 1;
  }
  // A run found only at the top of the screen is the tail of a scrolled echo: it reaches the end.
  if (at > 0 && cursor < text.length - 2) return 0;
  return end;
}

/**
 * The rows with each turn moved to column 0, for agents that draw their turn a few columns in
 * (Qwen Code 0.24.4 at 2, Copilot CLI 1.0.102 at 1): after an echo row `echo` matches (group 1:
 * its indent), every row starting with that indent loses it, up to the next echo; rows before
 * the first echo, and an echo at column 0, are left alone. The agent's own marks (`✕`, `✗`) then
 * sit at column 0 where the detectors look, and a reply's text, drawn deeper, stays indented.
 */
export function turnsAtColumnZero(rows: readonly string[], echo: RegExp): string[] {
  let indent = "";
  return rows.map((row) => {
    const m = echo.exec(row);
    if (m) indent = m[1] ?? "";
    return indent && row.startsWith(indent) ? row.slice(indent.length) : row;
  });
}

/** A row of box-drawing rules (`────`), as agents draw above and below their input box. */
export function isRule(row: string): boolean {
  return /^\s*[─━]{8,}\s*$/.test(row);
}

/** A busy row: the agent is still working on the turn (its spinner with the interrupt hint). */
export const BUSY_ROW: RegExp = /\besc to (?:interrupt|cancel)\b/i;

/**
 * The second signal of agents that return to their input box when a turn ends: the index of the
 * last row `isPrompt` matches (the input box) when it lies below `from` with no other prompt row
 * (a turn submitted later) and no busy row between; else -1.
 */
export function idleInputBelow(
  rows: readonly string[],
  from: number,
  isPrompt: (rows: readonly string[], i: number) => boolean,
): number {
  let input = -1;
  for (let i = from + 1; i < rows.length; i++) {
    if (!isPrompt(rows, i)) continue;
    if (input >= 0) return -1;
    input = i;
  }
  if (input < 0) return -1;
  for (let i = from + 1; i < input; i++) if (BUSY_ROW.test(rows[i])) return -1;
  return input;
}

/** The index of the last row above `before` that `isPrompt` matches (the latest echo), or -1. */
export function promptAbove(
  rows: readonly string[],
  before: number,
  isPrompt: (rows: readonly string[], i: number) => boolean,
): number {
  for (let i = before - 1; i >= 0; i--) if (isPrompt(rows, i)) return i;
  return -1;
}

/** True when a text any of `vetoes` matches is shown on `rows`. */
export function anyShown(rows: readonly string[], vetoes: readonly RegExp[]): boolean {
  return rows.some((r) => vetoes.some((v) => v.test(r)));
}

/** A limit message pattern and what it means. */
export interface LimitRule {
  /** Matched against the message text. */
  re: RegExp;
  /** What a match means. */
  kind: LimitHit["kind"];
  /** The agent stopped retrying after this message. */
  final?: boolean;
}

/** The first rule that matches `text`, or null. `unless` vetoes texts that only look alike. */
export function matchRule(
  text: string,
  rules: readonly LimitRule[],
  unless?: RegExp | readonly RegExp[],
): LimitRule | null {
  const vetoes = unless === undefined ? [] : Array.isArray(unless) ? unless : [unless];
  if (vetoes.some((v: RegExp) => v.test(text))) return null;
  return rules.find((r) => r.re.test(text)) ?? null;
}

/** Rows from `start` down to (not including) the first blank row or a row `stop` matches. */
export function paragraphFrom(
  lines: readonly string[],
  start: number,
  stop?: (line: string) => boolean,
): string[] {
  const rows = [lines[start]];
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.trim() === "" || stop?.(l)) break;
    rows.push(l);
  }
  return rows;
}

/**
 * A detected limit: the kind, the message as shown, and its reset time resolved against the
 * detection clock (`opts.now`, `opts.timeZone`), plus anything the agent's screen adds. A zone
 * this system does not know is read as the local zone, and the hit's `note` says so.
 */
export function limitHit(
  kind: LimitHit["kind"],
  message: string,
  opts: DetectOptions,
  extra: Partial<Omit<LimitHit, "kind" | "message" | "resetsAt">> = {},
): LimitHit {
  const reset = readResetTime(message, opts.now, opts.timeZone);
  return {
    kind,
    message,
    resetsAt: reset.at,
    ...(reset.zoneNote ? { note: reset.zoneNote } : {}),
    ...extra,
  };
}

/** The hit for a matched rule: its kind, and `final` when the rule says the agent gave up. */
export function ruleHit(
  rule: LimitRule,
  message: string,
  opts: DetectOptions,
  extra: Partial<Omit<LimitHit, "kind" | "message" | "resetsAt">> = {},
): LimitHit {
  return limitHit(rule.kind, message, opts, { ...(rule.final ? { final: true } : {}), ...extra });
}

/**
 * The limit of an agent that marks its error rows (Copilot's `✗`, Qwen's `✕`): the latest row
 * `mark` matches (the message in its group 1) with the rows below it that `wrapped` matches (the
 * message wrapped onto them), as a hit when one of `rules` matches the message. Null when no row
 * is marked, when the message matches no rule or one of `vetoes`, or when the agent's input box
 * (`isPrompt`) is not back and idle below the latest marked row.
 */
export function markedRowHit(
  rows: readonly string[],
  mark: RegExp,
  wrapped: RegExp,
  rules: readonly LimitRule[],
  opts: DetectOptions,
  isPrompt: (rows: readonly string[], i: number) => boolean,
  vetoes: readonly RegExp[] = [],
): LimitHit | null {
  for (let i = rows.length - 1; i >= 0; i--) {
    const m = mark.exec(rows[i]);
    if (!m) continue;
    if (idleInputBelow(rows, i, isPrompt) < 0) return null;
    const parts = [m[1]];
    for (let j = i + 1; j < rows.length && wrapped.test(rows[j]); j++) parts.push(rows[j]);
    const message = normalizeSpace(parts.join(" "));
    const rule = matchRule(message, rules, vetoes);
    return rule ? ruleHit(rule, message, opts) : null;
  }
  return null;
}
