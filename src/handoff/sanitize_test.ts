import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  codePointLength,
  FORBIDDEN_CHARACTER,
  hasVisibleText,
  headOf,
  oneLine,
  sanitize,
  sizeIn,
  tailOf,
} from "./sanitize.ts";

Deno.test("sanitize removes whole escape sequences, keeps newline and tab", () => {
  const raw = "\x1b[1;31mred\x1b[0m\tok\n\x1b]0;title\x07next\x1b]8;;http://x\x1b\\link\x1b(B end";
  assertEquals(sanitize(raw), "red\tok\nnextlink end");
});

Deno.test("a recorded ESC[201~ cannot end a bracketed paste", () => {
  const out = sanitize("before\x1b[201~after\x9b201~x");
  assertEquals(out, "beforeafterx");
  assert(!out.includes("\x1b") && !out.includes("\x9b"));
});

Deno.test("sanitize drops C0/C1 controls, DEL and bidi overrides; CR becomes newline", () => {
  assertEquals(sanitize("a\x00b\x07c\x08d\x7fe\x85f\u202eg\u2066h"), "abcdefgh");
  assertEquals(sanitize("one\r\ntwo\rthree\u2028four"), "one\ntwo\nthree\nfour");
});

Deno.test("sanitize removes default-ignorable code points and bidi controls", () => {
  const invisible = "\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u061c\u00ad\u034f\u180e" +
    "\ufe00\ufe0f\u{e0001}\u{e0041}\u{e007f}\u3164\u115f\u202a\u202b\u202c\u202d\u202e" +
    "\u2066\u2067\u2068\u2069\u2061\u2064\u206f\u{1d173}\u{1bca0}";
  for (const c of invisible) {
    const name = `U+${c.codePointAt(0)!.toString(16)}`;
    assertEquals(sanitize(`a${c}b`), "ab", name);
    assert(FORBIDDEN_CHARACTER.test(c), name);
  }
  assertEquals(sanitize(`x${invisible}y`), "xy");
});

Deno.test("emoji sequences lose their joiners and variation selectors (documented)", () => {
  assertEquals(sanitize("👩\u200d💻 ❤\ufe0f"), "👩💻 ❤");
});

Deno.test("visible characters near the invisible ranges stay", () => {
  const text = "\u200a\u2010\u2011 \u00a0\u0600 ش \u2800 ‐ – — ’";
  assertEquals(sanitize(text), text);
});

Deno.test("an unterminated OSC does not swallow the rest of the text", () => {
  assertEquals(sanitize("x\x1b]0;title without end\nkept"), "x0;title without end\nkept");
});

Deno.test("lone surrogates become U+FFFD; pairs stay", () => {
  const emoji = "😀";
  assertEquals(sanitize(`a\ud83db${emoji}\ude00`), `a\ufffdb${emoji}\ufffd`);
  assert(!FORBIDDEN_CHARACTER.test(sanitize("\ud800\udc00\udc00\ud800")));
});

Deno.test("clean text is returned unchanged", () => {
  const text = "héllo wörld 😀 日本語 👍🏽 🇫🇷\n\tindent";
  assertEquals(sanitize(text), text);
});

Deno.test("code points: a surrogate pair counts once; utf16 counts two", () => {
  assertEquals(codePointLength("a😀b"), 3);
  assertEquals(sizeIn("a😀b", "utf16"), 4);
  assertEquals(codePointLength(""), 0);
});

Deno.test("headOf and tailOf never split a pair, in either unit", () => {
  const text = "😀😀😀";
  assertEquals(headOf(text, 2), "😀😀");
  assertEquals(tailOf(text, 1), "😀");
  assertEquals(headOf(text, 3, "utf16"), "😀");
  assertEquals(tailOf(text, 3, "utf16"), "😀");
  assertEquals(tailOf("ab😀", 1, "utf16"), "");
  assertEquals(headOf("abc", 0), "");
  assertEquals(tailOf("abc", 10), "abc");
});

Deno.test("hasVisibleText is exactly: non-blank once sanitised", () => {
  const pieces = [
    " ",
    "\t",
    "\n",
    "\r",
    "\u2028",
    "\ufeff",
    "\u200b",
    "\u202e",
    "\x1b[201~",
    "\x1b",
    "[",
    "\x9b",
    "\x07",
    "\ud83d",
    "😀",
    "a",
    "\u00a0",
    "\x1b]0;t\x07",
    "\u3164",
  ];
  let state = 7;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 3000; i++) {
    const text = Array.from(
      { length: Math.floor(next() * 6) },
      () => pieces[Math.floor(next() * pieces.length)],
    ).join("");
    assertEquals(hasVisibleText(text), /\S/.test(sanitize(text)), JSON.stringify(text));
  }
});

Deno.test("oneLine folds whitespace", () => {
  assertEquals(oneLine("  a\n\tb   c \n"), "a b c");
});
