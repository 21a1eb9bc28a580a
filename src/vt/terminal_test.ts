import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { MAX_COLS, MAX_ROWS, type ModeChange, type Query, replyTo, Terminal } from "./mod.ts";
import { MAX_CELL_TEXT } from "./line.ts";

const term = (data: string | Uint8Array, cols = 20, rows = 5) => {
  const t = new Terminal({ cols, rows });
  t.write(data);
  return t;
};

Deno.test("text, autowrap with deferred wrap, wrapped-row flag", () => {
  const t = term("12345678901234567890");
  assertEquals(t.cursor, { x: 20, y: 0 }); // wrap pending, not yet on the next row
  t.write("X");
  assertEquals(t.screenLines().slice(0, 2), ["12345678901234567890", "X"]);
  assertEquals(t.snapshot().wrappedRows, [1]);
  assertEquals(t.logicalScreenLines()[0], "12345678901234567890X");
});

Deno.test("wide and combining characters take the cells xterm gives them", () => {
  const t = term("a漢e\u0301🚀");
  assertEquals(t.screenLines()[0], "a漢e\u0301🚀");
  assertEquals(t.snapshot().cellWidths["0"].slice(0, 6), "120120");
  // a wide char that does not fit in the last column wraps whole
  const w = term("x".repeat(19) + "漢");
  assertEquals(w.screenLines().slice(0, 2), ["x".repeat(19), "漢"]);
});

Deno.test("malformed UTF-8 is dropped like xterm.js, or replaced on request", () => {
  const bad = new Uint8Array([0x41, 0xff, 0xc3, 0x28, 0x9b, 0xe2, 0x82, 0x42]);
  assertEquals(term(bad).screenLines()[0], "A(B");
  const t = new Terminal({ cols: 20, rows: 2, replaceMalformed: true });
  t.write(bad);
  assertEquals(t.screenLines()[0], "A\ufffd\ufffd(\ufffd\ufffdB");
  // a character split across writes is decoded once complete
  const s = new Terminal({ cols: 20, rows: 2 });
  for (const b of new TextEncoder().encode("é🚀")) s.write(new Uint8Array([b]));
  assertEquals(s.screenLines()[0], "é🚀");
});

Deno.test("scroll regions, scrollback only from top-margin scrolls, ED 3", () => {
  const t = term("a\r\nb\r\nc\r\nd\r\ne\r\nf", 10, 5);
  assertEquals(t.snapshot().scrollback, ["a"]);
  t.write("\x1b[2;4r\x1b[4;1H\n\n"); // region 2-4: no scrollback
  assertEquals(t.snapshot().scrollback, ["a"]);
  assertEquals(t.screenLines(), ["b", "e", "", "", "f"]);
  t.write("\x1b[r\x1b[2J");
  assertEquals(t.snapshot().scrollback, ["a"]); // ED 2 does not save the screen
  t.write("\x1b[3J");
  assertEquals(t.snapshot().scrollback, []);
});

Deno.test("alternate screen keeps the normal screen and restores the cursor", () => {
  const t = term("hello\x1b[?1049h\x1b[2;3Halt");
  assertEquals(t.activeBuffer, "alternate");
  assertEquals(t.snapshot().normalScreen?.[0], "hello");
  t.write("\x1b[?1049l");
  assertEquals(t.activeBuffer, "normal");
  assertEquals(t.screenLines()[0], "hello");
  assertEquals(t.cursor, { x: 5, y: 0 });
});

Deno.test("mode changes are reported once per change, unsubscribe works", () => {
  const t = new Terminal({ cols: 20, rows: 5 });
  const seen: ModeChange[] = [];
  const off = t.onModeChange((c) => seen.push(c));
  t.write("\x1b[?2004h\x1b[?2004h\x1b[?1000h\x1b[?1006h\x1b[?1049h\x1b[>1u\x1b[>4;2m\x1b]0;T\x07");
  assertEquals(seen.map((c) => [c.mode, c.value]), [
    ["bracketedPaste", true],
    ["mouseTracking", "vt200"],
    ["mouseEncoding", "SGR"],
    ["altScreen", true],
    ["kittyKeyboardFlags", [1]],
    ["modifyOtherKeys", 2],
  ]);
  assertEquals(t.title, "T");
  off();
  t.write("\x1b[?2004l");
  assertEquals(seen.length, 6);
  assertEquals(t.modes.bracketedPaste, false);
});

Deno.test("kitty keyboard stack: push, set, pop; bare CSI u restores the cursor", () => {
  const t = term("\x1b[>1u\x1b[>3u\x1b[=4;2u");
  assertEquals(t.modes.kittyKeyboardFlags, [1, 7]);
  t.write("\x1b[<u");
  assertEquals(t.modes.kittyKeyboardFlags, [1]);
  t.write("\x1b[<5u");
  assertEquals(t.modes.kittyKeyboardFlags, []);
  const c = term("ab\x1b[s\x1b[3;5Hx\x1b[u");
  assertEquals(c.cursor, { x: 2, y: 0 });
});

Deno.test("queries are reported and replied to", () => {
  const t = new Terminal({ cols: 20, rows: 5 });
  const queries: Query[] = [];
  let cprCursor = { x: -1, y: -1 };
  t.onQuery((q) => {
    queries.push(q);
    if (q.kind === "CPR") cprCursor = t.cursor;
  });
  t.write("ab\x1b[6n\x1b[c\x1b[>c\x1b[?2004$p\x1b[>q\x1b[?u\x1b]11;?\x1b\\\x1b[5n\x1bP$qm\x1b\\");
  assertEquals(queries.map((q) => q.kind), [
    "CPR",
    "DA1",
    "DA2",
    "DECRQM",
    "XTVERSION",
    "KITTY_FLAGS",
    "OSC_COLOR",
    "DSR",
    "DECRQSS",
  ]);
  const dec = (q: Query, cursor = t.cursor) =>
    new TextDecoder().decode(replyTo(q, { cursor, modes: t.modes })!);
  assertEquals(dec(queries[0], cprCursor), "\x1b[1;3R");
  assertEquals(dec(queries[1]), "\x1b[?1;2c");
  assertEquals(dec(queries[2]), "\x1b[>0;276;0c");
  assertEquals(dec(queries[3]), "\x1b[?2004;2$y");
  t.write("\x1b[?2004h");
  assertEquals(dec(queries[3]), "\x1b[?2004;1$y");
  assertEquals(dec(queries[5]), "\x1b[?0u");
  assertEquals(dec(queries[6]), "\x1b]11;rgb:0000/0000/0000\x1b\\");
  assertEquals(dec(queries[7]), "\x1b[0n");
  ok(dec(queries[4]).startsWith("\x1bP>|"));
});

Deno.test("resize keeps content and clamps the cursor", () => {
  const t = term("hello world\r\nsecond\x1b[5;20H", 20, 5);
  t.resize(8, 3);
  assertEquals([t.cols, t.rows], [8, 3]);
  ok(t.cursor.x < 8 && t.cursor.y < 3);
  t.write("zz");
  t.resize(30, 8);
  // no reflow: the soft-wrapped "z" + "z" stays one logical line, padded to the new width
  ok(t.logicalScreenLines().some((l) => /^ {7}z {22}z$/.test(l)), t.logicalScreenLines().join("|"));
  ok(t.cursor.x < 30 && t.cursor.y < 8);
});

Deno.test("DEC special graphics, REP, insert mode, tabs", () => {
  assertEquals(term("\x1b(0lqk\x1b(Bx").screenLines()[0], "┌─┐x");
  assertEquals(term("ab\x1b[3b").screenLines()[0], "abbbb");
  assertEquals(term("abc\r\x1b[4hX").screenLines()[0], "Xabc");
  assertEquals(term("a\tb\x1b[3g\r\tc").screenLines()[0], "a       b          c");
});

Deno.test("a cell keeps at most MAX_CELL_TEXT units of combining marks", () => {
  const t = term("e" + "\u0301".repeat(100_000) + "x");
  assertEquals(t.screenLines()[0], "e" + "\u0301".repeat(MAX_CELL_TEXT - 1) + "x");
  const astral = term("e" + "\u{1d167}".repeat(20)); // a combining mark outside the BMP: 2 units
  assertEquals(astral.screenLines()[0], "e" + "\u{1d167}".repeat((MAX_CELL_TEXT - 1) >> 1));
});

Deno.test("sizes are clamped to the limits wherever they enter", () => {
  const t = new Terminal({ cols: 100_000, rows: 100_000, scrollback: 1e12 });
  assertEquals([t.cols, t.rows], [MAX_COLS, MAX_ROWS]);
  t.resize(5e6, 0);
  assertEquals([t.cols, t.rows], [MAX_COLS, 1]);
  t.resize(NaN, 3);
  assertEquals([t.cols, t.rows], [1, 3]);
});

Deno.test("rows a resize brings back from the scrollback are erased like any other", () => {
  // The screen was blank (SU over every row) when the resize pulled text back onto it.
  const t = new Terminal({ cols: 10, rows: 4, scrollback: 10 });
  t.write("a\r\nb\r\nc\r\nd");
  t.resize(10, 2);
  t.write("\x1b[999S");
  t.resize(10, 4);
  assertEquals(t.snapshot().screen, ["a", "b", "", ""]);
  t.write("\x1b[2J");
  assertEquals(t.snapshot().screen, ["", "", "", ""]);
  t.write("\x1b[2;1Hx\x1b[H\x1b[999L");
  assertEquals(t.snapshot().screen, ["", "", "", ""]);
});

Deno.test("betweenSequences: false inside a sequence, a string or a character, true after", () => {
  const t = new Terminal({ cols: 20, rows: 3 });
  const enc = new TextEncoder();
  const after = (bytes: string | Uint8Array) => {
    t.write(typeof bytes === "string" ? enc.encode(bytes) : bytes);
    return t.betweenSequences;
  };
  assertEquals(t.betweenSequences, true);
  assertEquals([after("text\x1b[3"), after("1mred")], [false, true]);
  assertEquals([after("\x1b]0;a ti"), after("tle\x07")], [false, true]);
  assertEquals([after("\x1bP1$r"), after("\x1b\\")], [false, true]);
  assertEquals([after(new Uint8Array([0xe2, 0x94])), after(new Uint8Array([0x80]))], [false, true]);
  assertEquals([after("\x1b"), after("7")], [false, true]);
});
