import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { assertLikeXterm } from "./_xterm_test_util.ts";
import { type ModeChange, Terminal } from "./mod.ts";

// Six rows of text (a wide character cut by many edits), a scroll region and the cursor inside.
const SCREEN = Array.from({ length: 6 }, (_, y) => `\x1b[${y + 1};1H${y}abc漢defghijkl`).join("");
const REGION = "\x1b[2;5r";
const AT = (row: number, col: number) => `\x1b[${row};${col}H`;

// Every CSI sequence of the table that changes the screen, with and without parameters, at a
// few places (inside and outside the margins, past the edges, in origin mode).
const CASES: Record<string, string[]> = {
  ICH: ["\x1b[@", "\x1b[3@", "\x1b[99@"],
  CUU: ["\x1b[A", "\x1b[3A", "\x1b[99A"],
  CUD: ["\x1b[B", "\x1b[3B", "\x1b[99B"],
  CUF: ["\x1b[C", "\x1b[4C", "\x1b[99C"],
  CUB: ["\x1b[D", "\x1b[4D", "\x1b[99D"],
  CNL: ["\x1b[E", "\x1b[2E", "\x1b[99E"],
  CPL: ["\x1b[F", "\x1b[2F", "\x1b[99F"],
  CHA: ["\x1b[G", "\x1b[7G", "\x1b[99G"],
  CUP: ["\x1b[H", "\x1b[3;7H", "\x1b[;7H", "\x1b[99;99H"],
  CHT: ["\x1b[I", "\x1b[2I", "\x1b[4g\x1b[I"],
  CBT: ["\x1b[Z", "\x1b[2Z"],
  ED: ["\x1b[J", "\x1b[1J", "\x1b[2J", "\x1b[3J"],
  DECSED: ["\x1b[?J", "\x1b[?2J"],
  EL: ["\x1b[K", "\x1b[1K", "\x1b[2K"],
  DECSEL: ["\x1b[?K", "\x1b[?2K"],
  IL: ["\x1b[L", "\x1b[2L", "\x1b[99L"],
  DL: ["\x1b[M", "\x1b[2M", "\x1b[99M"],
  DCH: ["\x1b[P", "\x1b[3P", "\x1b[99P"],
  SU: ["\x1b[S", "\x1b[2S", "\x1b[99S"],
  SD: ["\x1b[T", "\x1b[2T", "\x1b[99T"],
  ECH: ["\x1b[X", "\x1b[3X", "\x1b[99X"],
  HPA: ["\x1b[`", "\x1b[5`"],
  HPR: ["\x1b[a", "\x1b[3a"],
  REP: ["x\x1b[b", "x\x1b[5b", "漢\x1b[30b"],
  VPA: ["\x1b[d", "\x1b[4d", "\x1b[99d"],
  VPR: ["\x1b[e", "\x1b[2e", "\x1b[99e"],
  HVP: ["\x1b[f", "\x1b[2;3f"],
  TBC: ["\x1b[3g\x1b[H\tx", "\x1b[g\x1b[H\tx", "\x1b[1g\x1b[H\tx"],
  SM: ["\x1b[4hXY", "\x1b[20h\nx"],
  RM: ["\x1b[4h\x1b[4lXY", "\x1b[20h\x1b[20l\nx"],
  DECSTR: ["\x1b[?7l\x1b[!pXYZXYZXYZXYZXYZ", "\x1b[?6h\x1b[!p\x1b[H"],
  DECSTBM: [
    "\x1b[r",
    "\x1b[3r\x1b[99B",
    "\x1b[2;4r\x1b[99B",
    "\x1b[4;2r\x1b[99B",
    "\x1b[2;99r\x1b[99B",
  ],
  SCOSC: ["\x1b[s\x1b[H\x1b[u", "\x1b[2;2H\x1b[s\x1b[5;5H\x1b[u"],
  SL: ["\x1b[ @", "\x1b[3 @"],
  SR: ["\x1b[3 A", "\x1b[99 A"],
  DECIC: ["\x1b['}", "\x1b[2'}"],
  DECDC: ["\x1b['~", "\x1b[2'~"],
  none: ["\x1b[38;2;1;2;3m\x1b[1;4mX\x1b[m", "\x1b[0c\x1b[>c\x1b[5n\x1b[6n\x1b[?6n\x1b[>q"],
};

Deno.test("every CSI the screen acts on does what xterm-headless does", async () => {
  for (const seq of Object.values(CASES).flat()) {
    for (const place of [AT(6, 12), `${REGION}${AT(4, 6)}`, `${REGION}${AT(1, 2)}`]) {
      await assertLikeXterm(`${SCREEN}${place}${seq}`, 12, 6, JSON.stringify(place + seq));
    }
    await assertLikeXterm(`${SCREEN}${REGION}\x1b[?6h${AT(2, 3)}${seq}`, 12, 6, `origin ${seq}`);
  }
});

Deno.test("the CSI modes xterm-headless does not report: kitty flags, modifyOtherKeys", () => {
  const t = new Terminal({ cols: 10, rows: 3 });
  const seen: ModeChange[] = [];
  t.onModeChange((c) => seen.push(c));
  t.write("\x1b[>5u\x1b[=3;2u\x1b[<u\x1b[>4;2m\x1b[>5;1m\x1b[>4n");
  assertEquals(seen.map((c) => [c.mode, c.value]), [
    ["kittyKeyboardFlags", [5]],
    ["kittyKeyboardFlags", [7]],
    ["kittyKeyboardFlags", []],
    ["modifyOtherKeys", 2],
    ["modifyOtherKeys", 0],
  ]);
});
