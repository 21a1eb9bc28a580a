/**
 * Several real processes released at the same instant, for tests of what they do to one journal at
 * once.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";

/**
 * Runs each script with `deno eval` in its own process. A script prints "ready" once set up, then
 * reads one line from stdin: all are released together. Returns what each printed after "ready"
 * (trimmed) and whether it exited successfully.
 */
export async function runReleasedTogether(
  scripts: readonly string[],
): Promise<{ said: string[]; success: boolean[] }> {
  const children = scripts.map((script) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn()
  );
  const readers = children.map((c) => c.stdout.pipeThrough(new TextDecoderStream()).getReader());
  for (const r of readers) assertEquals((await r.read()).value?.trim(), "ready");
  const writers = children.map((c) => c.stdin.getWriter());
  await Promise.all(writers.map((w) => w.write(new Uint8Array([10]))));
  const said: string[] = [];
  for (const r of readers) {
    let out = "";
    for (let chunk = await r.read(); !chunk.done; chunk = await r.read()) out += chunk.value;
    said.push(out.trim());
  }
  await Promise.all(writers.map((w) => w.close()));
  const statuses = await Promise.all(children.map((c) => c.status));
  return { said, success: statuses.map((s) => s.success) };
}
