/**
 * One run's conversation in time order: the typed user turns placed where the agent's screen
 * echoed them, so the last lines the agent showed are cut into the answer to each turn — User,
 * Agent, User, Agent…, oldest first. A screen row that only echoes a recorded turn is dropped
 * (the turn itself is carried), and so is everything after the limit message (the agent's own
 * limit menu is not the user's doing) and the live input box (what is typed there, e.g. a
 * `/agent NAME` switch, was never sent). Pure.
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

/** The rows without the live input box (the lowest one on the screen), when `box` describes it. */
export function withoutInputBox(lines: string[], box: InputBox | undefined): string[] {
  const place = box ? findInputBox(lines, box) : null;
  if (place === null) return lines;
  return [...lines.slice(0, place.from), ...lines.slice(place.to + 1)];
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

function _agent(lines: readonly string[], from: number, to: number): TranscriptEntry[] {
  const part = lines.slice(from, to);
  while (part.length && part[0].trim() === "") part.shift();
  while (part.length && part[part.length - 1].trim() === "") part.pop();
  return part.length ? [{ role: "agent", text: part.join("\n"), fidelity: "screen" }] : [];
}

/**
 * Interleaves `turns` (the typed user turns, oldest first) with `screen` (the last lines with text
 * the agent showed), cut at `limitMessage` when given. Turns whose echo is not on the screen keep
 * their place in time: those older than the first echo before the whole screen, later ones just
 * before the next turn that has an echo (or at the end); when no turn has one, all before the
 * screen.
 */
export function timeOrdered(
  turns: readonly TranscriptEntry[],
  screen: readonly string[],
  limitMessage: string | null = null,
  box?: InputBox,
): TranscriptEntry[] {
  // The live box is the lowest thing on the screen: found before the cut, which would leave an
  // echo looking like a box at the bottom.
  const lines = cutAtLimit(withoutInputBox([...screen], box), limitMessage);
  const echoes = _echoes(turns, lines);
  const out: TranscriptEntry[] = [];
  let turn = 0;
  let line = 0;
  for (const [n, e] of echoes.entries()) {
    // Turns older than the first echo scrolled off: they came before all the screen shows.
    if (n === 0) { while (turn < e.turn) out.push(turns[turn++]); }
    out.push(..._agent(lines, line, e.from));
    while (turn <= e.turn) out.push(turns[turn++]);
    line = e.to + 1;
  }
  if (echoes.length === 0) {
    out.push(...turns);
    out.push(..._agent(lines, 0, lines.length));
    return out;
  }
  // Turns after the last echo came later than everything on the screen above.
  out.push(..._agent(lines, line, lines.length));
  out.push(...turns.slice(turn));
  return out;
}
