/**
 * Candidates: the topic's texts found in one shipped file, each with where it is (file, byte
 * offset) and a short excerpt of the code around it, so a person can read what shows it. A JS
 * file is lexed for its literals; a binary is read as UTF-8 text runs, and a long run that is
 * JavaScript (the bundle inside a Bun-compiled binary) is lexed as JS.
 *
 * @module
 */
import { scanJsLiterals } from "./js_literals.ts";
import { type FillMarker, scanTextRuns, splitRun, type TextRun } from "./raw_strings.ts";
import { isTopicText } from "./topic.ts";

/** One candidate message, as written to `testdata/limit-mining/<agent>-<version>.json`. */
export interface Candidate {
  /** The text as shipped, template fills written `${name}`. */
  text: string;
  /** The file inside the package (`bin/claude.exe`, `bin/copilot → package/cli-main.js`). */
  file: string;
  /** Byte offset of the text (its literal's opening quote) in that file. */
  offset: number;
  /** The code around it, at most about 300 characters. */
  code: string;
  /** How many times the package ships this exact text. */
  count: number;
}

/** How a file is read: lexed as JavaScript, or read as a binary's text runs. */
export type SourceKind = "js" | "binary";

const BEFORE = 130;
const AFTER = 70;
const SHOWN = 60;
/** A text run this long that contains `function` is a JS bundle inside a binary. */
const JS_RUN = 64 * 1024;

const utf8 = new TextDecoder("utf-8");

function excerpt(bytes: Uint8Array, start: number, end: number, lo = 0, hi = bytes.length): string {
  // deno-lint-ignore no-control-regex -- control bytes between strings become one space
  const clean = (s: string) => s.replace(/[\x00-\x1f\x7f\ufffd]+/g, " ");
  const before = clean(utf8.decode(bytes.subarray(Math.max(lo, start - BEFORE), start)));
  let mid = clean(utf8.decode(bytes.subarray(start, end)));
  if (mid.length > SHOWN) mid = mid.slice(0, SHOWN) + "…";
  const after = clean(utf8.decode(bytes.subarray(end, Math.min(hi, end + AFTER))));
  return (before + mid + after).trim();
}

const FUNCTION = new TextEncoder().encode("function");
/** Bun's mark at the head of a bundle it compiled in. */
const BUN = new TextEncoder().encode("// @bun");

/** True if `needle` occurs in `bytes[start, end)` (looking at most 4 MB in). */
function contains(bytes: Uint8Array, needle: Uint8Array, start: number, end: number): boolean {
  const view = bytes.subarray(start, Math.min(end, start + 4 * 1024 * 1024));
  for (let i = view.indexOf(needle[0]); i >= 0; i = view.indexOf(needle[0], i + 1)) {
    let k = 1;
    while (k < needle.length && view[i + k] === needle[k]) k++;
    if (k === needle.length) return true;
  }
  return false;
}

/** Collects candidates, one per distinct text, the first place it is shown kept. */
export class CandidateSet {
  readonly #byText = new Map<string, Candidate>();

  /** Adds `text` found at `offset` of `file` (kept once, counted each time). */
  add(text: string, file: string, offset: number, code: () => string): void {
    const t = text.trim();
    if (!isTopicText(t)) return;
    const seen = this.#byText.get(t);
    if (seen) seen.count++;
    else this.#byText.set(t, { text: t, file, offset, code: code(), count: 1 });
  }

  /** Mines one file's bytes (`fill`: the byte a binary's format strings mark a fill with). */
  mine(file: string, bytes: Uint8Array, kind: SourceKind, fill?: FillMarker): void {
    if (kind === "js") {
      scanJsLiterals(
        bytes,
        (l) => this.add(l.value, file, l.start, () => excerpt(bytes, l.start, l.end)),
      );
      return;
    }
    // A long run with `function` in it is a script: lexed as JS. A Bun-compiled binary carries
    // its bundle so (and again as bytecode strings): its literals are the agent's texts and the
    // rest is the runtime's own. In a native binary every other run is read as text.
    const runs: TextRun[] = [];
    scanTextRuns(bytes, (run) => runs.push(run), 8, 0, bytes.length, fill);
    const scripts = runs.filter((r) =>
      r.end - r.start >= JS_RUN && contains(bytes, FUNCTION, r.start, r.end)
    );
    for (const run of scripts) {
      scanJsLiterals(
        bytes,
        (l) =>
          this.add(
            l.value,
            file,
            l.start,
            () => excerpt(bytes, l.start, l.end, run.start, run.end),
          ),
        run.start,
        run.end,
      );
    }
    if (scripts.some((r) => contains(bytes, BUN, r.start, r.start + 256))) return;
    for (const run of runs) {
      if (scripts.includes(run)) continue;
      for (const piece of splitRun(bytes, run, fill)) {
        this.add(
          piece.value,
          file,
          piece.start,
          () => excerpt(bytes, piece.start, piece.end, run.start, run.end),
        );
      }
    }
  }

  /** The candidates, in the order first found. */
  list(): Candidate[] {
    return [...this.#byText.values()];
  }
}
