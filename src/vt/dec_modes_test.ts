import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { assertLikeXterm } from "./_xterm_test_util.ts";
import { type ModeChange, Terminal } from "./mod.ts";

const SCREEN = "top\x1b[2;1Hsecond\x1b[4;1Hfourth\x1b[2;4r\x1b[3;5Hx";
// the private modes of the table (and some it ignores, as xterm.js does: DECCOLM, ?5, ?1005)
const PRIVATE = [1, 2, 3, 5, 6, 7, 9, 25, 45, 47, 66, 1000, 1002, 1003, 1004, 1005, 1006, 1016];
const SCREENS = [47, 1047, 1048, 1049, 2004, 2026, 2031];

Deno.test("DECSET/DECRST of every private mode, and SM/RM, do what xterm-headless does", async () => {
  // text after each, and a wrap, so origin, autowrap and the alternate screens show
  const after = "\x1b[H" + "y".repeat(12) + "\x1b(0q";
  for (const mode of [...PRIVATE, ...SCREENS]) {
    for (const seq of [`\x1b[?${mode}h`, `\x1b[?${mode}h\x1b[?${mode}l`, `\x1b[?${mode}l`]) {
      await assertLikeXterm(`\x1b(0${SCREEN}${seq}${after}`, 10, 5);
    }
  }
  await assertLikeXterm(`${SCREEN}\x1b[?1049h\x1b[?1049h alt\x1b[?1049l\x1b[?1049l`, 10, 5);
  await assertLikeXterm(`${SCREEN}\x1b[?1;7;25;1000;2004l\x1b[?6;45;66h${after}`, 10, 5);
  for (const mode of [2, 4, 12, 20, 34]) {
    await assertLikeXterm(`${SCREEN}\x1b[${mode}h\rAB\nC\x1b[${mode}l\rD\nE`, 10, 5);
  }
});

Deno.test("the modes xterm-headless does not report are told to listeners", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  const seen: ModeChange[] = [];
  t.onModeChange((c) => seen.push(c));
  t.write("\x1b[?1049h\x1b[?2031h\x1b[?1016h\x1b[?1003h\x1b[?1002l\x1b[?1049l\x1b[?2031l");
  assertEquals(seen.map((c) => [c.mode, c.value]), [
    ["altScreen", true],
    ["colorSchemeUpdates", true],
    ["mouseEncoding", "SGR_PIXELS"],
    ["mouseTracking", "any"],
    ["mouseTracking", "none"],
    ["altScreen", false],
    ["colorSchemeUpdates", false],
  ]);
});
