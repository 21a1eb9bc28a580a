/**
 * Signals and resizes around a switch, end to end (real `script`, simulated agents, tmux, the real
 * journal): uuldana killed mid-run, a signal while no agent runs, a resize while one starts.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { TypedKeyboard, typeWhenReady, World, worldTest } from "./_world.ts";
import type { AgentRun } from "../src/session/agent_run.ts";

const REQUEST = "Add a --dry-run flag to deploy.sh and a test for it";
const opts = { sanitizeOps: false, sanitizeResources: false };

worldTest(
  "SIGKILL of uuldana mid-run: the agent does not outlive it, the next start repairs the journal",
  () => new World(["claude"]),
  async (w) => {
    const tag = `tag-${crypto.randomUUID()}`;
    await w.start(["run", "claude", "--", "--name", tag]);
    await w.waitForEvent("claude", "start");
    // The agent itself, and the `script` holding its pty (not tmux's shell, whose command line
    // also names the tag).
    const agentAlive = async () => {
      for (const pattern of [`sim-agent claude --name ${tag}`, `^script .*--name ${tag}`]) {
        const out = await new Deno.Command("pgrep", { args: ["-f", pattern], stdout: "piped" })
          .output();
        if (out.stdout.length > 0) return true;
      }
      return false;
    };
    assert(await agentAlive());
    const [run] = w.withJournal((j) => j.runs());
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(join(w.home, "journal.db"));
    const owner = Number(
      (db.prepare("SELECT owner_pid FROM runs WHERE id = ?").get(run.id) as { owner_pid: number })
        .owner_pid,
    );
    db.close();
    // What the agent showed reaches the recording's file while it runs, not at the end.
    const recording = join(w.home, "recordings", `run-${run.id}.cast.gz`);
    const flushed = Date.now() + 10_000;
    while ((Deno.statSync(recording).size === 0) && Date.now() < flushed) {
      await new Promise((r) => setTimeout(r, 200));
    }
    Deno.kill(owner, "SIGKILL");
    const deadline = Date.now() + 15_000;
    while (await agentAlive() && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    assertEquals(await agentAlive(), false, "the agent was left running");
    w.withJournal((again) => {
      assertEquals(again.run(run.id)!.endReason, "interrupted");
      const shown = new TextDecoder().decode(gunzipSync(again.output(run.id)!.data));
      assert(shown.includes("Claude Code"), JSON.stringify(shown.slice(0, 200)));
    });
  },
);

worldTest(
  "a signal while no agent runs (during a switch) starts no other agent; the handoff is saved",
  () => new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    const keys = new TypedKeyboard();
    const abort = new AbortController();
    const { code } = await w.runChain({
      keyboard: keys,
      abort: abort.signal,
      onRun: (run) => {
        // The signal lands between claude's limit and the next start, when no run can take it.
        if (!run) return abort.abort("SIGTERM");
        if (run.adapterName !== "claude") return run.stop("SIGTERM");
        typeWhenReady(keys, run, REQUEST);
      },
    });
    assertEquals(code, 143);
    assertEquals(w.events("codex", "start").length, 0, "codex was started after the signal");
    w.withJournal((j) => {
      const [claudeRun] = j.runs();
      assertEquals([claudeRun.agent, claudeRun.endReason], ["claude", "limit"]);
      const [h] = j.handoffsFrom(claudeRun.id);
      assertEquals([h.toAgent, h.status], ["codex", "interrupted"]);
      assert(existsSync(h.filePath!));
    });
  },
);

Deno.test("a resize while an agent is being started still reaches it", opts, async () => {
  const w = new World(["claude"]);
  let current: AgentRun | null = null;
  let calls = 0;
  // The size read for the launch is the old one; the terminal changed before the run was known.
  const chain = w.runChain({
    size: () => calls++ === 0 ? { cols: 100, rows: 30 } : { cols: 120, rows: 40 },
    onRun: (run) => {
      current = run ?? current;
    },
  });
  try {
    await w.waitForEvent("claude", "start");
    // The size the agent has now: the one it started with, or the last resize it got.
    const agentSize = () => {
      const sizes = w.events("claude").flatMap((e) =>
        e.event === "start" ? [e.size] : e.event === "resize" ? [e] : []
      ) as { cols: number; rows: number }[];
      const last = sizes.at(-1)!;
      return [last.cols, last.rows];
    };
    const deadline = Date.now() + 15_000;
    while (agentSize()[0] !== 120 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(agentSize(), [120, 40]);
  } finally {
    (current as AgentRun | null)?.stop("SIGTERM");
    await chain;
    await w.close();
  }
});
