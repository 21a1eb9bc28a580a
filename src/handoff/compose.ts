/**
 * Composing a handoff package into the text the next agent receives, for one delivery road.
 *
 * The frame (preamble with the nonce, the pointer to the full file, the closing line and notice)
 * and the bounded facts (workspace, git, time, original request) are reserved first; the
 * conversation fills what remains of the road's cap. When it does not fit, whole oldest entries
 * are dropped first and the text says how many; the newest entry that does not fit whole keeps its
 * newest part, marked as cut. Every piece of recorded text is sanitised, redacted and neutralised
 * before it is measured. Pure.
 *
 * @module
 */
import type { Road } from "../config/config.ts";
import { ending, isNonce, neutralise, newNonce, preamble } from "./frame.ts";
import {
  firstUserEntry,
  type HandoffPackage,
  hasConversation,
  type PackageAction,
  STATUS_LINES,
} from "./package.ts";
import { describeAction } from "../../adapters/channels/tool_action.ts";
import { redact, REDACTION_MARKER } from "./redact.ts";
import {
  codePointLength,
  headOf,
  oneLine,
  sanitize,
  sizeIn,
  tailOf,
  type Unit,
} from "./sanitize.ts";

export type { Road };

/** The cap on a whole delivered handoff, in code points. */
export const HANDOFF_CAP = 20_000;
/** The hook road's ceiling: Claude's SessionStart hook shows only 10,000 characters inline. */
export const HOOK_CAP = 10_000;
/** The original request is cut at this many code points. */
export const OBJECTIVE_MAX = 500;
/**
 * The share of a road's cap that "What was done" may take; what it does not use goes to the
 * conversation. Within it the oldest tool calls are left out first, and counted.
 */
export const ACTIONS_SHARE = 0.2;
/** The longest line of "What was done", in code points. */
const _ACTION_LINE_MAX = 240;

/** Options for {@linkcode composeHandoff}. */
export interface ComposeOptions {
  /** The delivery road. */
  road: Road;
  /** A smaller cap than the road's own (never a larger one). */
  cap?: number;
  /** Path of the full, untrimmed handoff file, named in the frame. */
  pointer: string;
  /** The boundary nonce (8–64 hex digits); fresh when absent. */
  nonce?: string;
  /**
   * A request from uuldana on the user's behalf, after the closing notice (outside the record),
   * e.g. to continue the original request on an automatic handoff. Reserved in the budget like
   * the frame, never trimmed; sanitised like everything else.
   */
  followUp?: string;
}

/** A composed handoff. */
export interface Composed {
  /** The framed text. */
  text: string;
  /** Its length in code points. */
  characters: number;
  /** How many whole entries were left out to fit. */
  omitted: number;
  /** How many secrets were replaced by markers in `text`. */
  redactions: number;
  /** The boundary nonce. */
  nonce: string;
  /** Whether anything was left out or cut to fit. */
  cut: boolean;
}

/** The road's own cap: 10,000 for `hook`, 20,000 for the others. */
export function roadCap(road: Road): number {
  return road === "hook" ? HOOK_CAP : HANDOFF_CAP;
}

/**
 * How the road's receiver counts: Claude's hook is JavaScript, which counts UTF-16 code units, so
 * an astral-plane character costs two there. Other roads count code points.
 */
export function roadUnit(road: Road): Unit {
  return road === "hook" ? "utf16" : "codepoint";
}

// Recorded text is cleaned in windows at least this much larger than what is kept, so a secret
// or escape sequence cut by the window edge lies in the discarded margin (private key blocks are
// the longest secrets, ~3–7 KB).
const _MARGIN = 32_768;
// The entry that does not fit whole is kept in part only if at least this much of it fits.
const _MIN_CUT = 200;
const _CUT_NOTE = "[cut to fit: only the newest part of this entry is shown; the full handoff " +
  "has all of it]";

interface _Piece {
  text: string;
  redactions: number;
}

function _clean(raw: string, nonce: string): _Piece {
  const r = redact(sanitize(raw));
  return { text: neutralise(r.text, nonce), redactions: r.count };
}

// How many of a text's `redactions` survive in `kept`, a part of it (a cut can drop markers).
function _redactionsIn(redactions: number, kept: string): number {
  if (redactions === 0) return 0;
  return Math.min(redactions, kept.match(REDACTION_MARKER)?.length ?? 0);
}

function _indent(text: string): string {
  return text.replace(/\n(?=[^\n])/g, "\n  ");
}

function _tidy(text: string): string {
  return text.replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

function _short(raw: string, max: number, nonce: string): _Piece {
  const p = _clean(raw, nonce);
  const line = oneLine(p.text);
  if (codePointLength(line) <= max) return { text: line, redactions: p.redactions };
  const kept = headOf(line, max - 1) + "…";
  return { text: kept, redactions: _redactionsIn(p.redactions, kept) };
}

/** The original request: the first user message, cut at OBJECTIVE_MAX code points. */
export function objectiveOf(
  pkg: Pick<HandoffPackage, "entries">,
  nonce: string,
): { text: string; cut: boolean; redactions: number } | null {
  const first = firstUserEntry(pkg);
  if (!first) return null;
  const raw = first.text;
  for (let w = OBJECTIVE_MAX * 4 + _MARGIN;; w *= 2) {
    const whole = w >= raw.length;
    const p = _clean(whole ? raw : raw.slice(0, w), nonce);
    const text = _tidy(p.text).replace(/^\s+/, "");
    const size = codePointLength(text);
    if (whole || size >= OBJECTIVE_MAX + _MARGIN / 2) {
      if (size <= OBJECTIVE_MAX && whole) return { text, cut: false, redactions: p.redactions };
      const kept = headOf(text, OBJECTIVE_MAX);
      return { text: kept, cut: true, redactions: _redactionsIn(p.redactions, kept) };
    }
  }
}

function _facts(pkg: HandoffPackage, nonce: string): _Piece {
  const lines: string[] = [];
  let redactions = 0;
  const take = (p: _Piece) => {
    redactions += p.redactions;
    return p.text;
  };
  lines.push(`Workspace: ${take(_short(pkg.workspace, 1000, nonce))}`);
  if (pkg.git) {
    const branch = pkg.git.branch === null
      ? "none (detached HEAD)"
      : take(_short(pkg.git.branch, 200, nonce));
    const status = _clean(pkg.git.status, nonce);
    const changed = status.text.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim());
    if (changed.length === 0) {
      lines.push(`Git branch: ${branch}; no uncommitted changes`);
    } else {
      lines.push(`Git branch: ${branch}; uncommitted changes (git status --short):`);
      // One extra line is allowed: describeWorkspace's own "… and N more" line.
      const shown = (changed.length > STATUS_LINES + 1 ? changed.slice(0, STATUS_LINES) : changed)
        .map((l) => `  ${codePointLength(l) > 200 ? headOf(l, 199) + "…" : l}`);
      if (shown.length < changed.length) {
        shown.push(`  … and ${changed.length - shown.length} more`);
      }
      redactions += _redactionsIn(status.redactions, shown.join("\n"));
      lines.push(...shown);
    }
    if (pkg.git.changes?.stat.trim()) {
      const stat = _clean(pkg.git.changes.stat, nonce);
      const base = take(_short(pkg.git.changes.base, 12, nonce));
      const rows = stat.text.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim());
      const shown = rows.slice(0, STATUS_LINES + 1)
        .map((l) => `  ${codePointLength(l) > 200 ? headOf(l, 199) + "…" : l.trim()}`);
      if (shown.length < rows.length) shown.push(`  … and ${rows.length - shown.length} more`);
      redactions += _redactionsIn(stat.redactions, shown.join("\n"));
      lines.push(`Changed since the work started (git diff --stat ${base}):`, ...shown);
    }
  }
  lines.push(`Handoff time: ${take(_short(pkg.time, 64, nonce))}`);
  const objective = objectiveOf(pkg, nonce);
  if (objective) {
    redactions += objective.redactions;
    lines.push(
      objective.cut
        ? `Original request (the user's first message, cut at ${OBJECTIVE_MAX} characters):`
        : "Original request (the user's first message):",
    );
    lines.push(`  ${_indent(objective.text)}${objective.cut ? " […]" : ""}`);
  }
  return { text: lines.join("\n"), redactions };
}

function _why(pkg: HandoffPackage, from: string, nonce: string): _Piece {
  if (pkg.reason.kind === "manual") {
    return { text: "the user chose to switch agents", redactions: 0 };
  }
  if (pkg.reason.kind === "return") {
    return { text: `${pkg.to}'s usage limit has reset; the work goes back to it`, redactions: 0 };
  }
  if (pkg.reason.kind === "stall") {
    const stalled = _short(pkg.reason.message, 300, nonce);
    return {
      text: `${from} stopped answering ("${stalled.text}")`,
      redactions: stalled.redactions,
    };
  }
  const message = _short(pkg.reason.message, 300, nonce);
  const resets = pkg.reason.resetsAt
    ? `; it resets at ${oneLine(sanitize(pkg.reason.resetsAt))}`
    : "";
  if (pkg.reason.kind === "warning") {
    return {
      text: `${from} warned it is near its usage limit ("${message.text}"${resets}); the work ` +
        "moved on at the end of a turn",
      redactions: message.redactions,
    };
  }
  return {
    text: `${from} reached a usage limit ("${message.text}"${resets})`,
    redactions: message.redactions,
  };
}

/**
 * "What was done": the tool calls, oldest first, each on one line; the newest that fit in `budget`
 * (null: all of them), the left-out ones counted. Null when there were none.
 */
function _actions(
  actions: readonly PackageAction[],
  budget: number | null,
  unit: Unit,
  nonce: string,
): _Piece | null {
  if (actions.length === 0) return null;
  const agents = new Set(actions.map((a) => a.agent));
  const line = (a: PackageAction) =>
    _short(
      `- ${agents.size > 1 ? `${a.agent}: ` : ""}${describeAction(a)}`,
      _ACTION_LINE_MAX,
      nonce,
    );
  const heading = (omitted: number) =>
    omitted === 0
      ? "What was done (the tool calls the agents' own channels reported, oldest first):"
      : `What was done (the tool calls the agents' own channels reported, oldest first; ${
        omitted === 1 ? "1 earlier one was" : `${omitted} earlier ones were`
      } left out to fit, the full handoff has them):`;
  const kept: _Piece[] = [];
  let size = sizeIn(heading(actions.length), unit);
  for (let i = actions.length - 1; i >= 0; i--) {
    const p = line(actions[i]);
    const cost = 1 + sizeIn(p.text, unit);
    if (budget !== null && size + cost > budget) break;
    kept.unshift(p);
    size += cost;
  }
  if (kept.length === 0) return null;
  const omitted = actions.length - kept.length;
  return {
    text: [heading(omitted), ...kept.map((p) => p.text)].join("\n"),
    redactions: kept.reduce((n, p) => n + p.redactions, 0),
  };
}

function _heading(omitted: number): string {
  if (omitted === 0) return "Conversation so far, oldest first:";
  const what = omitted === 1 ? "1 earlier entry was" : `${omitted} earlier entries were`;
  return `Conversation so far, oldest first (${what} omitted to fit; the full handoff has them):`;
}

function _label(role: "user" | "agent"): string {
  return role === "user" ? "User" : "Agent";
}

interface _Frame {
  head: string;
  end: string;
  redactions: number;
  nonce: string;
}

function _frame(
  pkg: HandoffPackage,
  pointer: string,
  nonce: string,
  followUp: string | undefined,
  actionsBudget: { budget: number | null; unit: Unit },
): _Frame {
  const from = _short(pkg.from, 40, nonce);
  const to = _short(pkg.to, 40, nonce);
  const why = _why(pkg, from.text, nonce);
  const facts = _facts(pkg, nonce);
  const done = _actions(pkg.actions ?? [], actionsBudget.budget, actionsBudget.unit, nonce);
  const head = preamble({
    nonce,
    from: from.text,
    to: to.text,
    why: why.text,
    pointer: oneLine(sanitize(pointer)),
  }) + "\n\n" + facts.text + (done ? "\n\n" + done.text : "");
  const after = followUp ? "\n\n" + sanitize(followUp).trim() : "";
  // The agents' names appear several times; their secrets count wherever they appear.
  const names = _repeated(from, head) + _repeated(to, head);
  return {
    head,
    end: ending(nonce) + after,
    redactions: names + why.redactions + facts.redactions + (done?.redactions ?? 0),
    nonce,
  };
}

function _repeated(p: _Piece, text: string): number {
  return p.redactions && p.redactions * (text.split(p.text).length - 1);
}

function _assemble(frame: _Frame, omitted: number, parts: string[]): string {
  return frame.head + "\n\n" + _heading(omitted) + parts.map((p) => "\n\n" + p).join("") +
    "\n\n" + frame.end;
}

function _nonceFrom(nonce: string | undefined): string {
  if (nonce === undefined) return newNonce();
  if (!isNonce(nonce)) {
    throw new RangeError(`handoff nonce must be 8–64 hex digits, got "${nonce}"`);
  }
  return nonce.toLowerCase();
}

interface _Tail {
  body: string;
  whole: boolean;
  redactions: number;
}

/**
 * The entry's rendered body (cleaned, indented), either whole or, for a huge entry, a cleaned tail
 * window at least `need` + margin long, so cleaning never costs more than a few times the cap.
 */
function _entryTail(
  raw: string,
  need: number,
  unit: Unit,
  nonce: string,
): _Tail {
  for (let w = need * 2 + _MARGIN;; w *= 2) {
    const whole = w >= raw.length;
    const p = _clean(whole ? raw : raw.slice(raw.length - w), nonce);
    const body = _indent(whole ? _tidy(p.text) || "(empty)" : p.text.trimEnd());
    if (whole || sizeIn(body, unit) >= need + _MARGIN / 2) {
      return { body, whole, redactions: p.redactions };
    }
  }
}

/**
 * Composes the framed handoff for `opts.road`, at most the road's cap (or `opts.cap`, if smaller)
 * long. Returns null when nobody spoke to the agent (no user entry): then there is no handoff.
 * Throws RangeError when the cap cannot hold even the frame.
 */
export function composeHandoff(pkg: HandoffPackage, opts: ComposeOptions): Composed | null {
  if (!hasConversation(pkg)) return null;
  const nonce = _nonceFrom(opts.nonce);
  const unit = roadUnit(opts.road);
  const cap = Math.min(opts.cap ?? roadCap(opts.road), roadCap(opts.road));
  const frame = _frame(pkg, opts.pointer, nonce, opts.followUp, {
    budget: Math.floor(cap * ACTIONS_SHARE),
    unit,
  });
  const fixedSize = (omitted: number) =>
    sizeIn(frame.head + "\n\n" + _heading(omitted) + "\n\n" + frame.end, unit);

  // Reserve the heading for the longest omitted count only when something must be left out.
  const total = pkg.entries.length;
  const cache = new Map<number, _Tail & { need: number }>();
  let result = _fit(pkg, cap - fixedSize(0), unit, nonce, false, cache);
  if (result.omitted > 0 || result.cutEntry) {
    const fixed = fixedSize(total);
    try {
      result = _fit(pkg, cap - fixed, unit, nonce, true, cache);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      throw new RangeError(
        `handoff cap ${cap} leaves no room for the conversation after the frame (${fixed})`,
      );
    }
  }
  const text = _assemble(frame, result.omitted, result.parts);
  const characters = codePointLength(text);
  if (sizeIn(text, unit) > cap) {
    throw new RangeError(`handoff cap ${cap} is too small for the frame (${fixedSize(total)})`);
  }
  return {
    text,
    characters,
    omitted: result.omitted,
    redactions: frame.redactions + result.redactions,
    nonce,
    cut: result.omitted > 0 || result.cutEntry,
  };
}

interface _Fit {
  parts: string[];
  omitted: number;
  redactions: number;
  cutEntry: boolean;
}

// Walks the entries newest first, keeping whole ones while they fit. With `allowCut`, the first
// one that does not fit keeps its newest part (when enough room is left); older ones are omitted.
function _fit(
  pkg: HandoffPackage,
  budget: number,
  unit: Unit,
  nonce: string,
  allowCut: boolean,
  cache: Map<number, _Tail & { need: number }>,
): _Fit {
  const parts: string[] = [];
  let redactions = 0;
  let remaining = budget;
  let i = pkg.entries.length - 1;
  let cutEntry = false;
  for (; i >= 0; i--) {
    const entry = pkg.entries[i];
    const prefix = `${_label(entry.role)}: `;
    const room = remaining - 2 - sizeIn(prefix, unit);
    // A window cleaned for a larger need serves a smaller one (the second pass reuses the first).
    const need = Math.max(room, 0);
    let tail = cache.get(i);
    if (!tail || (!tail.whole && tail.need < need)) {
      tail = { ..._entryTail(entry.text, need, unit, nonce), need };
      cache.set(i, tail);
    }
    if (tail.whole && sizeIn(tail.body, unit) <= room) {
      parts.push(prefix + tail.body);
      redactions += tail.redactions;
      remaining -= 2 + sizeIn(prefix + tail.body, unit);
      continue;
    }
    if (!allowCut) return { parts, omitted: i + 1, redactions, cutEntry: false };
    const head = `${prefix}${_CUT_NOTE}\n  …`;
    const avail = remaining - 2 - sizeIn(head, unit);
    if (avail >= _MIN_CUT || (parts.length === 0 && avail > 0)) {
      const kept = tailOf(tail.body, avail, unit).replace(/^\s+/, "");
      parts.push(head + kept);
      redactions += _redactionsIn(tail.redactions, kept);
      cutEntry = true;
      i--;
    }
    break;
  }
  if (parts.length === 0 && pkg.entries.length > 0) {
    throw new RangeError(`handoff cap is too small: no room left for the conversation`);
  }
  return { parts: parts.reverse(), omitted: i + 1, redactions, cutEntry };
}

/**
 * The full, untrimmed handoff, framed the same way (same nonce): the body of the handoff file
 * that the delivered text points to. Callers check {@linkcode hasConversation} first.
 */
export function composeFull(
  pkg: HandoffPackage,
  opts: { pointer: string; nonce: string; followUp?: string },
): Composed {
  const nonce = _nonceFrom(opts.nonce);
  const frame = _frame(pkg, opts.pointer, nonce, opts.followUp, {
    budget: null,
    unit: "codepoint",
  });
  let redactions = frame.redactions;
  const parts = pkg.entries.map((e) => {
    const p = _clean(e.text, nonce);
    redactions += p.redactions;
    return `${_label(e.role)}: ${_indent(_tidy(p.text) || "(empty)")}`;
  });
  const text = _assemble(frame, 0, parts);
  return { text, characters: codePointLength(text), omitted: 0, redactions, nonce, cut: false };
}
