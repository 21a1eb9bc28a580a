import { assertLikeXterm } from "./_xterm_test_util.ts";

const SCREEN = Array.from({ length: 5 }, (_, y) => `\x1b[${y + 1};1H${y}abcdefgh`).join("");
const CHARSETS = "0AB4C5RQKYE6ZH7=";
const ASCII = Array.from({ length: 94 }, (_, i) => String.fromCharCode(0x21 + i)).join("");
// how each designator's set is shifted in: ( G0 by SI, ) and - G1 by SO, * and . G2, + G3
const SHIFT_IN: Record<string, string> = {
  "(": "\x0f",
  ")": "\x0e",
  "-": "\x0e",
  "*": "\x1bn",
  ".": "\x1bn",
  "+": "\x1bo",
};

// Every ESC sequence of the table, each followed by text so its effect shows.
const CASES: Record<string, string[]> = {
  DECSC: ["\x1b[2;3H\x1b(0\x1b7\x1b(B\x1b[H\x1b8q"],
  IND: ["\x1bD", "\x1b[5;2H\x1bDx", "\x1b[2;4r\x1b[4;2H\x1bDx"],
  NEL: ["\x1bEx", "\x1b[5;9H\x1bEx"],
  HTS: ["\x1b[3g\x1b[1;4H\x1bH\r\tx"],
  RI: ["\x1bMx", "\x1b[H\x1bMx", "\x1b[2;4r\x1b[2;2H\x1bMx"],
  DECKPAM: ["\x1b=", "\x1b=\x1b>"],
  RIS: ["\x1bc", "\x1b[?1049h\x1bcx", "\x1b[?6h\x1b[?7l\x1bc\x1bcx"],
  LS: ["\x1b*0\x1bnq", "\x1b+0\x1boq", "\x1b+0\x1b|q", "\x1b*0\x1b}q", "\x1b)0\x1b~q"],
  DOCS: ["\x1b(0\x1b%Gq", "\x1b(0\x1b%@q", "\x1b)0\x0e\x1b%Gq"],
  DECALN: ["\x1b#8", "\x1b[2;4r\x1b[?6h\x1b#8x"],
  none: ["\x1b\\x", "\x1b9x", "\x1b#3x", "\x1b%Bx"],
};

Deno.test("every ESC sequence the model acts on does what xterm-headless does", async () => {
  for (const seq of Object.values(CASES).flat()) {
    await assertLikeXterm(`${SCREEN}\x1b[3;5H${seq}`, 10, 5);
  }
});

Deno.test("SCS: every designator with every charset prints every character as xterm-headless", async () => {
  for (const [g, shift] of Object.entries(SHIFT_IN)) {
    // the last, "9", is a final xterm.js does not know: the line-drawing set stays
    for (const c of [...CHARSETS, "9"]) {
      await assertLikeXterm(`\x1b${g}0\x1b${g}${c}${shift}${ASCII}\x0f\x1b(B${ASCII}`, 100, 3);
    }
  }
});
