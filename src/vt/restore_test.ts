import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { restoreSequence, Terminal } from "./mod.ts";

const modesAfter = (data: string) => {
  const t = new Terminal({ cols: 20, rows: 5 });
  t.write(data);
  return t;
};

Deno.test("restoreSequence undoes what an agent left set", () => {
  const t = modesAfter(
    "\x1b[?1049h\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h\x1b[>1u\x1b[>5u\x1b[>4;2m" +
      "\x1b[?2026h\x1b[?25l\x1b[?1h\x1b=\x1b[?2031h",
  );
  const seq = restoreSequence(t.modes);
  for (
    const part of [
      "\x1b[?1049l",
      "\x1b[?1002l",
      "\x1b[?1006l",
      "\x1b[?2004l",
      "\x1b[?1004l",
      "\x1b[<2u",
      "\x1b[>4m",
      "\x1b[?2026l",
      "\x1b[?2031l",
      "\x1b[?25h",
      "\x1b[0m",
      "\x1b[?1l",
      "\x1b>",
    ]
  ) ok(seq.includes(part), JSON.stringify(part));
  // feeding it back leaves every tracked mode at its default
  t.write(seq);
  assertEquals(t.modes, new Terminal({ cols: 2, rows: 2 }).modes);
  // On a terminal left as it was, only what is always reset and the cursor and attributes.
  assertEquals(
    restoreSequence(new Terminal({ cols: 2, rows: 2 }).modes),
    "\x1b[?69l\x1b7\x1b[r\x1b8\x1b[?5l\x1b(B\x0f\x1b[0 q\x1b[0m\x1b[?25h",
  );
});

Deno.test("restoreSequence turns off every mouse mode an agent may have stacked", () => {
  // OpenCode's sequence; terminals such as WezTerm keep each of these as a separate flag
  const seq = restoreSequence(modesAfter("\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h").modes);
  for (const m of [1000, 1002, 1003, 1006]) ok(seq.includes(`\x1b[?${m}l`), `?${m}l`);
  ok(restoreSequence(modesAfter("\x1b[?1016h").modes).includes("\x1b[?1016l"));
});

Deno.test("restoreSequence pops kitty flags on both sides of leaving the alternate screen", () => {
  // kitty keeps one stack per screen: flags pushed in the alternate screen stay on its stack
  const seq = restoreSequence(modesAfter("\x1b[>1u\x1b[?1049h\x1b[>7u").modes);
  assertEquals(seq.split("\x1b[?1049l").map((s) => s.includes("\x1b[<2u")), [true, true]);
  ok(restoreSequence(modesAfter("\x1b[>7u").modes).includes("\x1b[<1u"));
});

Deno.test("restoreSequence frees a scroll region and line drawing, keeping the cursor", () => {
  // A full-screen agent that quit with rows 2-3 as its scroll region and DEC line drawing in G0.
  const t = modesAfter("\x1b[2;3r\x1b[3;1H\x1b(0");
  t.write(restoreSequence(t.modes));
  t.write("q\r\n");
  // The cursor stayed on row 3, and `q` is a q again (not a line).
  assertEquals(t.screenLines()[2].trimEnd(), "q");
  // The whole screen scrolls again: seven lines leave the last five on the five rows.
  for (let i = 1; i <= 7; i++) t.write(`line${i}\r\n`);
  assertEquals(t.screenLines().map((l) => l.trimEnd()), [
    "line4",
    "line5",
    "line6",
    "line7",
    "",
  ]);
});
