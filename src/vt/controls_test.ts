import { assertLikeXterm } from "./_xterm_test_util.ts";

const SCREEN = Array.from({ length: 4 }, (_, y) => `\x1b[${y + 1};1H${y}abcdefgh`).join("");

Deno.test("every C0 and C1 control does what xterm-headless does", async () => {
  // as bytes C0, and C1 as UTF-8 (a raw C1 byte is malformed UTF-8)
  const c1 = (code: number) => String.fromCharCode(code);
  const controls = [
    ...Array.from({ length: 0x20 }, (_, c) => String.fromCharCode(c)).filter((c) =>
      c !== "\x1b" && c !== "\x18" && c !== "\x1a"
    ),
    "\x7f",
    ...Array.from({ length: 0x20 }, (_, c) => c1(0x80 + c)).filter((c) =>
      !"\x90\x98\x9b\x9d\x9e\x9f".includes(c)
    ),
  ];
  for (const ctl of controls) {
    for (const place of ["\x1b[1;5H", "\x1b[3;10Hx", "\x1b[4;9H漢"]) {
      await assertLikeXterm(`${SCREEN}${place}${ctl}y${ctl}${ctl}z`, 10, 4);
    }
  }
  // reverse wraparound (BS over a soft wrap), SO/SI with G1 designated, tabs past the last stop
  await assertLikeXterm("\x1b[?45h\x1b[?7h" + "x".repeat(25) + "\b\b\b\b\b\b\bA", 10, 4);
  await assertLikeXterm("\x1b)0q\x0eqx\x0fq", 10, 4);
  await assertLikeXterm("a\t\t\t\tb\x1b[3g\r\tc", 10, 4);
});
