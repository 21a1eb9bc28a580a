/**
 * Tests that talk to an OTLP receiver: it never keeps a process alive on its own (it is unref'd),
 * so such a test holds the event loop open while it runs.
 *
 * @module
 */

/** `Deno.test` with the event loop held open for the test's length. */
export function receiverTest(name: string, fn: () => Promise<void> | void): void {
  Deno.test(name, async () => {
    const hold = setInterval(() => {}, 1000);
    try {
      await fn();
    } finally {
      clearInterval(hold);
    }
  });
}
