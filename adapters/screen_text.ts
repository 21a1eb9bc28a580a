/**
 * Screen-text helpers shared by the limit detectors: normalising rows, stripping box borders,
 * re-joining rows an agent wrapped itself, and hiding text uuldana delivered. Pure.
 *
 * @module
 */
import type { DetectOptions, LimitHit } from "./adapter.ts";
import { parseResetTime } from "./reset_time.ts";

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
 * Replaces with "" every row that shows text uuldana delivered (the handoff, a kickoff line): a
 * row whose normalised text (prompt marker stripped) occurs in a delivered text at or after the
 * place the previous such row matched. Rows are walked top-down, so a genuine limit message below
 * the echo stays visible even when the handoff quotes the same words.
 */
export function hideDelivered(
  lines: readonly string[],
  delivered: readonly string[] | undefined,
): string[] {
  const out = [...lines];
  if (!delivered || delivered.length === 0) return out;
  const texts = delivered.map((d) => normalizeSpace(d)).filter((d) => d.length > 0);
  const cursors = texts.map(() => 0);
  for (let i = 0; i < out.length; i++) {
    const bare = normalizeSpace(stripBorders(out[i]).replace(_PROMPT_MARKER, ""));
    if (bare.length < 4) continue;
    for (let t = 0; t < texts.length; t++) {
      const at = texts[t].indexOf(bare, cursors[t]);
      if (at >= 0) {
        cursors[t] = at + bare.length;
        out[i] = "";
        break;
      }
    }
  }
  return out;
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
  unless?: RegExp,
): LimitRule | null {
  if (unless?.test(text)) return null;
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
 * detection clock (`opts.now`, `opts.timeZone`), plus anything the agent's screen adds.
 */
export function limitHit(
  kind: LimitHit["kind"],
  message: string,
  opts: DetectOptions,
  extra: Partial<Omit<LimitHit, "kind" | "message" | "resetsAt">> = {},
): LimitHit {
  return { kind, message, resetsAt: parseResetTime(message, opts.now, opts.timeZone), ...extra };
}
