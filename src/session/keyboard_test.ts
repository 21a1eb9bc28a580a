import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { HOLD_LIMIT, StdinKeyboard } from "./keyboard.ts";

const CHUNK = 16 * 1024;

// A stdin of `total` bytes (byte i is i % 251) in CHUNK reads, counting how many were pulled.
function input(total: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(CHUNK, total - sent);
      c.enqueue(Uint8Array.from({ length: n }, (_, i) => (sent + i) % 251));
      sent += n;
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => sent };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

Deno.test("keys typed while no run takes them: reading stops at the hold limit, then every byte arrives, in order", async () => {
  const total = 1_000_000;
  const { stream, pulled } = input(total);
  const keyboard = new StdinKeyboard(() => stream).start();
  await tick(100);
  // Held, not dropped, and not read past the limit (one read beyond it at most).
  assert(pulled() <= HOLD_LIMIT + 2 * CHUNK, `read ${pulled()} bytes with nobody to take them`);
  assert(pulled() >= HOLD_LIMIT, `read only ${pulled()}`);
  const got: number[] = [];
  keyboard.setSink((b) => got.push(...b));
  for (let i = 0; got.length < total && i < 250; i++) await tick();
  assertEquals(got.length, total);
  assert(got.every((b, i) => b === i % 251), "out of order or altered");
  keyboard.close();
});

Deno.test("a keyboard closed while its hold is full stops at once", async () => {
  const { stream, pulled } = input(10 * HOLD_LIMIT);
  const keyboard = new StdinKeyboard(() => stream).start();
  await tick(50);
  const before = pulled();
  keyboard.close();
  await tick(50);
  assertEquals(pulled(), before);
});
