import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { KITTY_STACK_LIMIT, ModeState } from "./mode_state.ts";
import { defaultModes, type ModeChange } from "./modes.ts";

function watched() {
  const modes = new ModeState();
  const seen: [string, unknown][] = [];
  const off = modes.listen((c: ModeChange) => seen.push([c.mode, c.value]));
  return { modes, seen, off };
}

Deno.test("a mode change is told once, only when the value changes, until unsubscribed", () => {
  const { modes, seen, off } = watched();
  modes.set("bracketedPaste", true);
  modes.set("bracketedPaste", true);
  modes.set("mouseTracking", "drag");
  off();
  modes.set("bracketedPaste", false);
  assertEquals(seen, [["bracketedPaste", true], ["mouseTracking", "drag"]]);
  assertEquals(modes.current.bracketedPaste, false);
  const copy = modes.copy();
  copy.kittyKeyboardFlags.push(1);
  assertEquals(modes.current.kittyKeyboardFlags, [], "a copy shares nothing");
});

Deno.test("kitty flags: push (bounded), set/or/and-not the top, pop", () => {
  const { modes, seen } = watched();
  modes.popKittyFlags(1); // empty: nothing to tell
  modes.setKittyFlags(5, 1); // empty: one entry
  modes.pushKittyFlags(2);
  modes.setKittyFlags(8, 2);
  modes.setKittyFlags(2, 3);
  assertEquals(modes.current.kittyKeyboardFlags, [5, 8]);
  modes.popKittyFlags(99);
  assertEquals(seen.map(([, v]) => v), [[5], [5, 2], [5, 10], [5, 8], []]);
  for (let i = 0; i < KITTY_STACK_LIMIT + 10; i++) modes.pushKittyFlags(i);
  assertEquals(modes.current.kittyKeyboardFlags.length, KITTY_STACK_LIMIT);
  assertEquals(modes.current.kittyKeyboardFlags[0], 10, "the oldest went first");
});

Deno.test("reset: defaults but cursorHidden, each change told after all are done", () => {
  const { modes, seen } = watched();
  modes.set("cursorHidden", true);
  modes.set("origin", true);
  modes.set("wraparound", false);
  modes.pushKittyFlags(1);
  seen.length = 0;
  const during: boolean[] = [];
  modes.listen(() => during.push(modes.current.wraparound && !modes.current.origin));
  modes.reset();
  assertEquals(seen, [["origin", false], ["wraparound", true], ["kittyKeyboardFlags", []]]);
  assertEquals(during, [true, true, true], "listeners see the modes all reset");
  assertEquals(modes.current, { ...defaultModes(), cursorHidden: true });
  seen.length = 0;
  modes.reset();
  assertEquals(seen, []);
});
