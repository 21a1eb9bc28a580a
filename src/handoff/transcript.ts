/**
 * One run's conversation in time order: the user turns (typed, or exact from the agent's channel)
 * placed where the agent's screen echoed them, so the last lines the agent showed are cut into the
 * answer to each turn — User, Agent, User, Agent…, oldest first. Where the channel carried a
 * turn's reply, that exact reply is the answer and the screen keeps only what the reply does not
 * say (tool calls and their output, the limit text); every turn's reply is carried, not only what
 * the last screen lines still show. A screen row that only echoes a recorded turn is dropped (the
 * turn itself is carried), and so is everything after the limit message (the agent's own limit
 * menu is not the user's doing), the live input box (what is typed there, e.g. a `/agent NAME`
 * switch, was never sent) with its footer under it, the rows the agent draws about itself
 * (`Adapter.chromeRows`: Claude's `✻ Crunched for 0s`, its spinner) and the rest of a long user
 * turn whose echo's first rows scrolled off: what is carried as the agent's is the agent's. Pure.
 *
 * @module
 */
import type { InputBox } from "../../adapters/adapter.ts";
import { findInputBox } from "../../adapters/input_box.ts";
import { normalizeSpace, stripBorders } from "../../adapters/screen_text.ts";
import type { TranscriptEntry } from "./package.ts";

// The marks agents put before an echoed user turn (Claude ❯, Codex ›, Gemini/Qwen >, OpenCode ┃).
const _ECHO_MARK = /^\s*(?:[❯›>┃│▌]\s*)+/;
// A row that is only a bar or rule.
const _FRAME_ROW = /^\s*[▄▀─━]{8,}\s*$/;
// A limit message is found by its opening words (the shown rows may wrap or re-join it).
const _LIMIT_PROBE = 40;

function _squash(s: string): string {
  return s.replace(/\s+/g, "");
}

/** The screen rows up to the end of the limit message; all of them when it is not found. */
export function cutAtLimit(lines: readonly string[], message: string | null): string[] {
  if (!message) return [...lines];
  const want = normalizeSpace(message);
  const probe = want.slice(0, _LIMIT_PROBE);
  const bare = (l: string) => normalizeSpace(stripBorders(l).replace(/^\s*[⎿●✕×!▲⚠]\s*/u, ""));
  for (let i = lines.length - 1; i >= 0; i--) {
    const row = bare(lines[i]);
    if (row.length === 0 || !(row.includes(probe) || (probe.startsWith(row) && row.length > 8))) {
      continue;
    }
    let end = i;
    while (end + 1 < lines.length) {
      const next = bare(lines[end + 1]);
      if (next.length === 0 || !want.includes(next)) break;
      end++;
    }
    return lines.slice(0, end + 1);
  }
  return [...lines];
}

/**
 * The rows above the live input box (the lowest one on the screen), when `box` describes it: the
 * box and what is under it (its footer: mode, hints, suggestions) are the agent's own.
 */
export function withoutInputBox(lines: string[], box: InputBox | undefined): string[] {
  const place = box ? findInputBox(lines, box) : null;
  if (place === null) return lines;
  return lines.slice(0, place.from);
}

interface _Echo {
  turn: number;
  from: number;
  to: number;
}

// Where each turn's echo is on the screen, in order; turns without one are left out.
function _echoes(turns: readonly TranscriptEntry[], lines: readonly string[]): _Echo[] {
  const found: _Echo[] = [];
  const wanted = turns.map((t) => _squash(t.text)); // once: a turn may be thousands of characters
  let next = 0;
  for (let i = 0; i < lines.length && next < turns.length; i++) {
    const m = _ECHO_MARK.exec(lines[i]);
    if (!m) continue;
    const first = _squash(lines[i].slice(m[0].length));
    if (first === "") continue;
    for (let t = next; t < turns.length; t++) {
      const want = wanted[t];
      if (!want.startsWith(first)) continue;
      let got = first;
      let k = i;
      while (got.length < want.length && k + 1 < lines.length) {
        const more = _squash(lines[k + 1].replace(_ECHO_MARK, ""));
        if (more !== "" && !want.startsWith(got + more)) break;
        got += more;
        k++;
      }
      if (got !== want) continue;
      // The bars some agents draw around an echo (Gemini's ▄▄▄ and ▀▀▀) belong to it.
      const from = i > 0 && _FRAME_ROW.test(lines[i - 1]) ? i - 1 : i;
      if (k + 1 < lines.length && _FRAME_ROW.test(lines[k + 1])) k++;
      found.push({ turn: t, from, to: k });
      next = t + 1;
      i = k;
      break;
    }
  }
  return found;
}

// What a screen row and a reply from the channel are compared on: letters and digits only (the
// agent draws its markdown, bullets and markers its own way).
function _words(s: string): string {
  return s.replace(/[^\p{L}\p{N}]+/gu, "");
}

// A row this short is taken as covered only between covered rows (a "1." or "}" of the reply).
const _SHORT_ROW = 4;

/**
 * The rows of a screen part that show none of `replies` (the turn's answers from the channel,
 * carried exactly): what only the screen has (a tool call and its output, the limit text).
 */
export function notInReplies(rows: readonly string[], replies: readonly string[]): string[] {
  if (replies.length === 0) return [...rows];
  const said = replies.map(_words).join("\n");
  const words = rows.map(_words);
  const covered = words.map((w) => w.length >= _SHORT_ROW && said.includes(w));
  const near = (i: number, step: number) => {
    for (let k = i + step; k >= 0 && k < rows.length; k += step) {
      if (words[k] !== "") return covered[k];
    }
    return false;
  };
  const kept: string[] = [];
  for (const [i, row] of rows.entries()) {
    const w = words[i];
    if (covered[i]) continue;
    if (w !== "" && w.length < _SHORT_ROW && said.includes(w) && near(i, -1) && near(i, 1)) {
      continue;
    }
    // Blank rows that only separated shown answers collapse to one.
    if (w === "" && row.trim() === "" && kept.length && kept.at(-1)!.trim() === "") continue;
    kept.push(row);
  }
  return kept.some((r) => _words(r) !== "") ? kept : [];
}

function _agent(
  lines: readonly string[],
  from: number,
  to: number,
  replies: readonly string[],
  chrome: readonly RegExp[],
): TranscriptEntry[] {
  const own = lines.slice(from, to).filter((l) => !chrome.some((c) => c.test(l)));
  const part = notInReplies(own, replies);
  while (part.length && part[0].trim() === "") part.shift();
  while (part.length && part[part.length - 1].trim() === "") part.pop();
  return part.length ? [{ role: "agent", text: part.join("\n"), fidelity: "screen" }] : [];
}

/**
 * Where a screen part starts once the rest of `asked`'s echo is skipped: the part's first rows,
 * while each shows the next words of that user turn (a long turn whose echo scrolled off at its
 * top: its last rows are the user's words, not the agent's).
 */
function _pastEchoTail(lines: readonly string[], from: number, to: number, asked: string): number {
  const want = _words(asked);
  let at = from;
  let seen = 0;
  while (at < to) {
    const w = _words(lines[at]);
    if (w === "") {
      if (seen > 0) break;
      at++;
      continue;
    }
    const k = want.indexOf(w);
    if (k < 0 || (seen > 0 && k < seen)) break;
    seen = k + w.length;
    at++;
  }
  return seen > 0 && seen === want.length ? at : from;
}

/** A user turn and the answers the channel gave to it (none for a typed turn without one). */
interface _Group {
  user: TranscriptEntry | null;
  replies: TranscriptEntry[];
}

function _groups(entries: readonly TranscriptEntry[]): _Group[] {
  const groups: _Group[] = [];
  for (const e of entries) {
    if (e.role === "user") groups.push({ user: e, replies: [] });
    else if (groups.length) groups.at(-1)!.replies.push(e);
    else groups.push({ user: null, replies: [e] });
  }
  return groups;
}

/**
 * Interleaves `entries` (the run's recorded turns, oldest first: typed or channel user turns,
 * and the channel's replies) with `screen` (the last lines with text the agent showed), cut at
 * `limitMessage` when given. Each user turn goes where the screen echoed it; the screen's rows
 * after it are the answer, less the rows a reply from the channel already carries exactly (the
 * reply follows them). Turns whose echo is not on the screen keep their place in time: those older
 * than the first echo before the whole screen, later ones just before the next turn that has an
 * echo (or at the end); when no turn has one, all before the screen.
 */
export function timeOrdered(
  entries: readonly TranscriptEntry[],
  screen: readonly string[],
  limitMessage: string | null = null,
  box?: InputBox,
  chrome: readonly RegExp[] = [],
): TranscriptEntry[] {
  // The live box is the lowest thing on the screen: found before the cut, which would leave an
  // echo looking like a box at the bottom.
  const lines = cutAtLimit(withoutInputBox([...screen], box), limitMessage);
  const groups = _groups(entries);
  // Leading replies (no user turn recorded before them) match no echo.
  const turns = groups.map((g) =>
    g.user ?? { role: "user" as const, text: "\u0000", fidelity: "event" as const }
  );
  const echoes = _echoes(turns, lines);
  const out: TranscriptEntry[] = [];
  // The replies of the turn emitted last: they follow its part of the screen.
  let held: TranscriptEntry[] = [];
  const flush = () => {
    out.push(...held);
    held = [];
  };
  // The user turn emitted last when its echo is not on the screen (its first rows scrolled off:
  // the rows left may be its last ones).
  let asked: TranscriptEntry | null = null;
  const emit = (g: _Group) => {
    flush();
    if (g.user) out.push(g.user);
    asked = g.user;
    held = g.replies;
  };
  const part = (from: number, to: number) => {
    if (asked) from = _pastEchoTail(lines, from, to, asked.text);
    asked = null;
    out.push(..._agent(lines, from, to, held.map((r) => r.text), chrome));
    flush();
  };
  let turn = 0;
  let line = 0;
  for (const [n, e] of echoes.entries()) {
    // Turns older than the first echo scrolled off: they came before all the screen shows.
    if (n === 0) { while (turn < e.turn) emit(groups[turn++]); }
    part(line, e.from);
    while (turn <= e.turn) emit(groups[turn++]);
    asked = null;
    line = e.to + 1;
  }
  if (echoes.length === 0) {
    for (const g of groups) emit(g);
    part(0, lines.length);
    return out;
  }
  // Turns after the last echo came later than everything on the screen above.
  part(line, lines.length);
  while (turn < groups.length) emit(groups[turn++]);
  flush();
  return out;
}
