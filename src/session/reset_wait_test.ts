import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Keyboard, KeySink } from "./keyboard.ts";
import { waitForReset } from "./reset_wait.ts";

/** A keyboard the test types on, as the user's stdin would deliver keys. */
class TypedKeys implements Keyboard {
  sink: KeySink | null = null;
  setSink(sink: KeySink | null): void {
    this.sink = sink;
  }
  close(): void {}
}

Deno.test("the wait ends when the reset time comes, and releases the keyboard", async () => {
  const keys = new TypedKeys();
  const lines: string[] = [];
  const started = Date.now();
  const result = await waitForReset(new Date(Date.now() + 300), {
    keyboard: keys,
    status: (l) => lines.push(l),
    tickMs: 20,
  });
  assertEquals(result, "reset");
  assert(Date.now() - started >= 280);
  assertEquals(keys.sink, null);
  assert(lines.some((l) => l.startsWith("resuming in")), lines.join("\n"));
});

Deno.test("Ctrl-C typed while waiting stops the wait", async () => {
  const keys = new TypedKeys();
  const waiting = waitForReset(new Date(Date.now() + 60_000), {
    keyboard: keys,
    status: () => {},
    tickMs: 20,
  });
  keys.sink!(new Uint8Array([0x61])); // other keys do nothing
  keys.sink!(new Uint8Array([0x03]));
  assertEquals(await waiting, "stopped");
});

Deno.test("a signal to uuldana (abort) stops the wait", async () => {
  const keys = new TypedKeys();
  const abort = new AbortController();
  const waiting = waitForReset(new Date(Date.now() + 60_000), {
    keyboard: keys,
    status: () => {},
    abort: abort.signal,
    tickMs: 20,
  });
  abort.abort("SIGTERM");
  assertEquals(await waiting, "stopped");
});

Deno.test("a signal that came before the wait began stops it at once", async () => {
  const keys = new TypedKeys();
  const abort = new AbortController();
  abort.abort("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const result = await Promise.race([
    waitForReset(new Date(Date.now() + 60_000), {
      keyboard: keys,
      status: () => {},
      abort: abort.signal,
      tickMs: 20,
    }),
    new Promise<string>((r) => timer = setTimeout(() => r("still waiting"), 2000)),
  ]);
  clearTimeout(timer);
  assertEquals(result, "stopped");
  assertEquals(keys.sink, null, "the keyboard was never taken");
});
