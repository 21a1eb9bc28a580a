/**
 * One agent run through the real `script` shim, VT interpreter, detectors and SQLite journal: how
 * a run ends when the agent quits by itself.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { adapterByName } from "../adapters/registry.ts";
import { Journal } from "../src/journal/journal.ts";
import { AgentRun } from "../src/session/agent_run.ts";
import { NoKeyboard } from "../src/session/keyboard.ts";
import { assertRunsReplay } from "./_replay_check.ts";

/** Starts `sh -c SCRIPT ARGS…` as a run of `agent`, with a journal in a temp dir. */
async function shRun(agent: string, script: string, ...args: string[]) {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-run-" });
  const journal = Journal.open(dir);
  const run = await AgentRun.start({
    adapter: adapterByName(agent)!,
    argv: ["/bin/sh", "-c", script, "sh", ...args],
    workspace: dir,
    cols: 100,
    rows: 30,
    journal,
    keyboard: new NoKeyboard(),
    user: { write() {} },
  });
  const close = async () => {
    await run.ended;
    journal.close();
    // Replay equals live: the run's recording gives the decisions it kept.
    assertRunsReplay(dir);
    Deno.removeSync(dir, { recursive: true });
  };
  return { run, journal, close };
}

Deno.test("an agent that quits by itself ends the run: waiters wake, finished is true", async () => {
  const { run, close } = await shRun("codex", "sleep 0.3; exit 4");
  try {
    // A paste waiting for a prompt that never comes must not wait out its timeout.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      run.waitUntil(() => false, 60_000).then((held) => held ? "held" : "woke"),
      new Promise<string>((r) => timer = setTimeout(() => r("still waiting"), 15_000)),
    ]);
    clearTimeout(timer);
    assertEquals(waited, "woke");
    assertEquals(run.finished, true);
    assertEquals(await run.outcome, { reason: "exit", exitCode: 4, signal: null });
  } finally {
    await close();
  }
});

Deno.test("a limit printed just before the agent quits is still detected", async () => {
  // Output a moment earlier makes the detector's next look wait; the agent exits before it, and
  // before the limit had time to settle: at the end of the output, what it showed counts.
  const rule = "─".repeat(100);
  const { run, journal, close } = await shRun(
    "claude",
    `printf 'working\\r\\n'; sleep 0.01; printf '%s\\r\\n' "$@"; exit 1`,
    "❯ go",
    "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
    "",
    rule,
    "❯ ",
    rule,
  );
  try {
    const outcome = await run.outcome;
    assertEquals(outcome.reason, "limit", JSON.stringify(outcome));
    await run.ended;
    const row = journal.run(run.runId)!;
    assertEquals(row.endReason, "limit");
    assert(row.limitMessage?.includes("You've hit your session limit"), row.limitMessage ?? "");
  } finally {
    await close();
  }
});
