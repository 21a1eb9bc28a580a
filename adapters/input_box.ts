/**
 * Reads the text an agent's input box shows on our screen model, from the adapter's description
 * of the box (prompt glyph, continuation rows, the rows around it, placeholder). Pure.
 *
 * @module
 */
import type { InputBox } from "./adapter.ts";
import { stripBorders } from "./screen_text.ts";

/** What the input box showed: one string per screen row of its text (prompt and indent removed). */
export interface BoxReading {
  /** The rows of text, top first, trailing spaces removed. Empty for an empty box. */
  rows: string[];
}

/** Where the box is on the screen: its rows from the one above it to the one that ends it. */
export interface BoxPlace {
  /** The box's text rows. */
  reading: BoxReading;
  /** Index of the first row of the box (the rule above it, when it has one). */
  from: number;
  /** Index of the row that ends it. */
  to: number;
}

/**
 * The input box on `lines` (the screen's logical rows, top first), or null when no box of that
 * shape is visible (a menu or dialog has replaced it, or the agent draws none). The live box is
 * the lowest one, with at most `box.maxRowsBelow` rows of text under it; echoes of earlier turns
 * sit higher (Claude's have no rule above them at all).
 */
export function readInputBox(lines: readonly string[], box: InputBox): BoxReading | null {
  return findInputBox(lines, box)?.reading ?? null;
}

/** The live input box on `lines` and where it is (see {@linkcode readInputBox}), or null. */
export function findInputBox(lines: readonly string[], box: InputBox): BoxPlace | null {
  // Claude Code puts a no-break space after its prompt glyph.
  const plain = lines.map((l) => l.replace(/\u00a0/g, " "));
  const rows = box.sideBorders ? plain.map(stripBorders) : plain.map((l) => l.trimEnd());
  const promptBare = box.prompt.trimEnd();
  for (let r = rows.length - 1; r >= 0; r--) {
    const row = rows[r];
    if (!row.startsWith(box.prompt) && row !== promptBare) continue;
    if (box.above !== null && (r === 0 || !box.above.test(rows[r - 1]))) continue;
    const text = [row.slice(box.prompt.length).trimEnd()];
    let end = -1;
    for (let k = r + 1; k < rows.length; k++) {
      if (box.below.test(rows[k])) {
        end = k;
        break;
      }
      const cont = box.continuation.trimEnd();
      if (rows[k].startsWith(box.continuation)) text.push(rows[k].slice(box.continuation.length));
      else if (rows[k] === cont || rows[k] === "") text.push("");
      else break;
    }
    if (end < 0) continue;
    // Echoes that look like the box sit higher up, above answers or a dialog.
    if (rows.slice(end + 1).filter((l) => l.trim() !== "").length > box.maxRowsBelow) return null;
    while (text.length > 0 && text[text.length - 1] === "") text.pop();
    const from = box.above === null ? r : r - 1;
    const empty = text.length === 1 && box.placeholders.some((p) => p.test(text[0]));
    return { reading: { rows: empty ? [] : text }, from, to: end };
  }
  return null;
}
