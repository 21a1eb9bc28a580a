/**
 * The user's terminal side of a run, in a real child process: output to a terminal that is gone.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { REPO_DIR } from "./_paths.ts";

Deno.test("writing to a user's terminal that is gone never throws (the run goes on to stop and record)", async () => {
  const module = join(REPO_DIR, "src/session/terminal_session.ts");
  // The child waits until its stdout's reader is gone, then writes as the output loop would.
  const code = `
    import { TerminalSession } from ${JSON.stringify(module)};
    const term = new TerminalSession({ readKeys: false });
    await new Promise((r) => setTimeout(r, 300));
    let outcome = "wrote";
    try {
      for (let i = 0; i < 100; i++) term.user.write(new Uint8Array(4096).fill(0x61));
    } catch (e) {
      outcome = "threw " + e.name;
    }
    term.close();
    Deno.stderr.writeSync(new TextEncoder().encode(outcome));
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await child.stdout.cancel(); // the terminal hangs up: its reading end is closed
  const [status, stderr] = await Promise.all([
    child.status,
    new Response(child.stderr).text(),
  ]);
  assertEquals([stderr.trim(), status.code], ["wrote", 0]);
});
