/**
 * The simulated model: deterministic replies to a prompt, and recognising a framed handoff so
 * that demos read naturally. Pure.
 *
 * @module
 */
import { firstChars, oneLine } from "./text.ts";

/**
 * The original request named in a framed handoff, or null when `text` holds no handoff. A handoff
 * is text that mentions "handoff" and names an "original request" (a `Label: value` line, or the
 * line after the label), or else its first `User:` line; text that only mentions a handoff is
 * not one.
 */
export function handoffRequest(text: string): string | null {
  if (!/hand-?off/i.test(text)) return null;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = /original request[^:\n]*:\s*(.*)$/i.exec(lines[i]);
    if (!m) continue;
    if (m[1].trim()) return oneLine(m[1]);
    const next = lines.slice(i + 1).find((l) => l.trim() !== "");
    if (next) return oneLine(next);
  }
  const user = /^\s*User:\s*(\S.*)$/m.exec(text);
  return user ? oneLine(user[1]) : null;
}

/** Reply lines for turn `turn` (1-based); `context` is extra text the model sees (hook). */
export function replyLines(
  persona: string,
  prompt: string,
  turn: number,
  context = "",
): string[] {
  const request = handoffRequest(prompt) || handoffRequest(context);
  const first = request
    ? `Continuing from the handoff: ${firstChars(request, 200)}`
    : `Working on: ${firstChars(oneLine(prompt), 60)}`;
  return [
    first,
    `This is a simulated ${persona} reply (turn ${turn}); nothing was changed on disk.`,
    "1. Read the relevant files",
    "2. Make the change and run the tests",
    "Done.",
  ];
}
