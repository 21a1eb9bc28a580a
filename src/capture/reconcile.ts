/**
 * Decides what the user submitted, and how sure uuldana is, from the two witnesses it has: the key
 * tracker (which knows pastes, newline keys and what a box collapses) and the agent's own input
 * box as our screen model showed it at the submit key (which shows what history recall,
 * completion and cursor edits produced). Pure.
 *
 * @module
 */
import type { InputBox } from "../../adapters/adapter.ts";
import type { BoxReading } from "../../adapters/input_box.ts";

/**
 * How sure uuldana is of a user turn: `exact` (the keys say so, or the box confirms them),
 * `reconstructed` (read from the agent's input box on the screen), `best-effort` (the keys alone,
 * after keys whose effect uuldana cannot follow, or a turn longer than uuldana keeps, cut with a
 * note in its text).
 */
export type Certainty = "exact" | "reconstructed" | "best-effort";

/** Every certainty, surest first. */
export const CERTAINTIES: readonly Certainty[] = ["exact", "reconstructed", "best-effort"];

/** What the key tracker knew at the submit key. */
export interface TypedLine {
  /** The line as the keys built it. */
  text: string;
  /** False after keys whose effect the tracker cannot follow (history, completion, word moves). */
  exact: boolean;
  /** Text typed at the end since the last such key, or null when the cursor moved since. */
  tail: string | null;
  /** The bracketed pastes in this line, in order. */
  pastes: string[];
  /** True when the line was longer than the tracker keeps (its text has a note where it was cut). */
  cut?: boolean;
}

/** A submitted user turn. */
export interface Submitted {
  text: string;
  certainty: Certainty;
}

/** Text with all whitespace removed: what the box and the keys can be compared on. */
function _squash(s: string): string {
  return s.replace(/\s+/g, "");
}

/** The box's text with each collapsed-paste label replaced by its paste, when they pair up. */
function _expand(text: string, box: InputBox, pastes: readonly string[]): string {
  if (box.collapsedPaste === null) return text;
  const labels = text.match(box.collapsedPaste) ?? [];
  if (labels.length === 0 || labels.length > pastes.length) return text;
  // The newest pastes are the ones still in the box.
  const mine = pastes.slice(pastes.length - labels.length);
  let i = 0;
  return text.replace(box.collapsedPaste, () => mine[i++]);
}

/**
 * Appends what of `tail` the box does not show yet: keys typed just before the submit key reach
 * our screen model only after the agent echoes them, so the box may end inside the tail.
 */
function _withTail(shown: string, tail: string): string {
  const s = _squash(shown);
  const t = _squash(tail);
  for (let k = t.length; k > 0; k--) {
    if (!s.endsWith(t.slice(0, k))) continue;
    // Map k squashed characters back into `tail`.
    let seen = 0;
    let at = 0;
    while (at < tail.length && seen < k) {
      if (!/\s/.test(tail[at])) seen++;
      at++;
    }
    return shown + tail.slice(at);
  }
  return shown + tail;
}

/**
 * The submitted turn, or null when nothing was submitted (an empty box, Enter on a menu). A line
 * the keys know exactly is exact; otherwise the box is the authority when it is visible
 * (reconstructed, or exact when it shows the same text the keys built); without a box the keys'
 * guess is best effort.
 */
export function reconcile(
  typed: TypedLine,
  reading: BoxReading | null,
  box: InputBox | undefined,
): Submitted | null {
  // A turn cut to the tracker's cap: the keys' text, with its note, is all there is, and it is
  // not the whole turn (the box shows at most a part of it).
  if (typed.cut) return typed.text.trim() ? { text: typed.text, certainty: "best-effort" } : null;
  const turn = _reconcile(typed, reading, box);
  if (turn === null || !box?.trimsSubmission) return turn;
  return { ...turn, text: _trimmed(turn.text, typed.pastes, box) };
}

/** `text` trimmed as the agent trims it: a collapsed paste at either end keeps its own blanks. */
function _trimmed(text: string, pastes: readonly string[], box: InputBox): string {
  const limit = box.collapseAbove;
  const collapsed = (p: string) =>
    limit !== null && (p.length > limit.chars || (p.match(/\n/g) ?? []).length > limit.newlines);
  let from = text.length - text.trimStart().length;
  let to = text.trimEnd().length;
  const last = pastes.at(-1);
  if (last !== undefined && collapsed(last)) {
    const at = text.lastIndexOf(last);
    if (at >= 0 && text.slice(at + last.length).trim() === "") to = at + last.length;
  }
  const first = pastes[0];
  if (first !== undefined && collapsed(first)) {
    const at = text.indexOf(first);
    if (at >= 0 && text.slice(0, at).trim() === "") from = Math.min(from, at);
  }
  return to > from ? text.slice(from, to) : "";
}

function _reconcile(
  typed: TypedLine,
  reading: BoxReading | null,
  box: InputBox | undefined,
): Submitted | null {
  if (typed.exact) return _checked(typed, reading, box);
  if (box === undefined || reading === null) {
    return typed.text.trim() ? { text: typed.text, certainty: "best-effort" } : null;
  }
  // Rows are broken by newlines or by the box's own wrapping; the keys tell which kind they saw.
  const joined = reading.rows.join(typed.text.includes("\n") ? "\n" : " ");
  let shown = _expand(joined, box, typed.pastes);
  if (typed.tail !== null && typed.tail !== "") shown = _withTail(shown, typed.tail);
  if (_squash(shown) === _squash(typed.text) && typed.text.trim()) {
    return { text: typed.text, certainty: "exact" };
  }
  if (!shown.trim()) {
    return typed.text.trim() ? { text: typed.text, certainty: "best-effort" } : null;
  }
  // A paste the keys did not see (uuldana's own, on the paste road) stays a label: not the text.
  if (_collapsedIn(shown, box)) return { text: shown, certainty: "best-effort" };
  return { text: shown, certainty: "reconstructed" };
}

function _collapsedIn(text: string, box: InputBox): boolean {
  return box.collapsedPaste !== null && new RegExp(box.collapsedPaste.source).test(text);
}

// Keys that went to a dialog are a few (a digit, `y`); more missing text is the box's own limit.
const _STRAY_KEYS = 8;

/**
 * A line the keys know exactly, checked against the box: the box may lag the last keys (their
 * echo is on its way), show a suggestion after them or a paste collapsed, and then the keys stand; keys typed before
 * the text that the box does not show went elsewhere (a digit that chose a permission dialog's
 * option) and are dropped; a box that shows other text than the keys built wins.
 */
function _checked(
  typed: TypedLine,
  reading: BoxReading | null,
  box: InputBox | undefined,
): Submitted | null {
  if (!typed.text.trim()) return null;
  const keys: Submitted = { text: typed.text, certainty: "exact" };
  if (box === undefined || reading === null) return keys;
  const shown = _expand(
    reading.rows.join(typed.text.includes("\n") ? "\n" : " "),
    box,
    typed.pastes,
  );
  if (_collapsedIn(shown, box)) return keys;
  const s = _squash(shown);
  const t = _squash(typed.text);
  // A lagging echo shows less; a dim suggestion after the cursor shows more (the rows read carry
  // no colours): either way the keys stand.
  if (s === "" || t.startsWith(s) || s.startsWith(t)) return keys;
  const at = t.indexOf(s);
  // A tall box may show only its last rows: then more than a few keys are "missing".
  if (at > _STRAY_KEYS) return keys;
  if (at > 0) return { text: _afterSquashed(typed.text, at), certainty: "reconstructed" };
  return { text: shown, certainty: "reconstructed" };
}

/** `text` from the point where `n` of its non-blank characters are behind. */
function _afterSquashed(text: string, n: number): string {
  let seen = 0;
  let i = 0;
  while (i < text.length && (seen < n || /\s/.test(text[i]))) {
    if (!/\s/.test(text[i])) seen++;
    i++;
  }
  return text.slice(i);
}

/** Whether `text` is one of the agent's own commands (run locally, never sent to the model). */
export function isLocalCommand(text: string, box: InputBox | undefined): boolean {
  if (!box) return false;
  const word = text.trim().split(/\s/, 1)[0];
  return box.localCommands.includes(word);
}
