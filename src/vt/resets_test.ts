import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Terminal } from "./terminal.ts";
import { generateStream } from "./_stream_gen_test_util.ts";
import { assertLikeXterm } from "./_xterm_test_util.ts";

Deno.test("RIS after any output gives a fresh terminal (title and bells kept, like xterm.js)", () => {
  for (let seed = 1; seed <= 40; seed++) {
    const t = new Terminal({ cols: 30, rows: 8, scrollback: 50 });
    t.write(generateStream(seed, 300, 8));
    t.write("\x1bc");
    const fresh = new Terminal({ cols: 30, rows: 8, scrollback: 50 });
    const { title: _t, bells: _b, modes, ...got } = t.snapshot();
    const { title: _t2, bells: _b2, modes: freshModes, ...want } = fresh.snapshot();
    assertEquals(got, want, `seed ${seed}`);
    assertEquals({ ...modes, cursorHidden: false }, freshModes, `seed ${seed}`);
    t.write("\x1bc\x1bchello");
    fresh.write("hello");
    assertEquals(t.screenLines(), fresh.screenLines());
  }
});

Deno.test("RIS and DECSTR after generated streams do what xterm-headless does", async () => {
  for (let seed = 1; seed <= 30; seed++) {
    const stream = new TextDecoder().decode(generateStream(seed, 150, 6));
    // DECSTR keeps the screen: text after it shows the charset, margins and modes it reset
    await assertLikeXterm(
      `${stream}\x1b[!p${"(q)".repeat(5)}\x1b[99B\r\nz`,
      12,
      6,
      `${seed} DECSTR`,
    );
    await assertLikeXterm(`${stream}\x1bc${"(q)".repeat(5)}`, 12, 6, `${seed} RIS`);
  }
});
