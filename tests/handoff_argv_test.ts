/**
 * Who can read a handoff: any local user reads every process's arguments from /proc/PID/cmdline.
 * On the prompt road the next agent's own argv holds the handoff (its CLI offers no other way in;
 * `uuldana agents` says so), but the `script` process that makes its pty, and the shell prelude
 * inside it, must never hold it. A real `uuldana run` in tmux switches from a limited Claude to
 * Codex on the prompt road; then every process on the machine whose arguments hold the handoff's
 * nonce is looked at.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { World, worldTest } from "./_world.ts";

const opts = { ignore: Deno.build.os !== "linux" }; // /proc

function cmdline(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1);
  } catch {
    return []; // gone, or not ours to read
  }
}

function children(pid: string): string[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)
      .filter(Boolean);
  } catch {
    return [];
  }
}

worldTest(
  "the prompt road never puts the handoff in script's argv",
  () => new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "Rename the parser module");
    const [start] = await w.waitForEvent("codex", "start");
    const nonce = /BEGIN UULDANA HANDOFF ([0-9a-f]+) /.exec(String(start.prompt))?.[1];
    assert(nonce, "codex got no framed handoff");

    const pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
    const holding = pids.filter((p) => cmdline(p).some((a) => a.includes(nonce)));
    // The script running codex: its child is the agent that got the handoff.
    const scripts = pids.filter((p) =>
      /(?:^|\/)script$/.test(cmdline(p)[0] ?? "") && children(p).some((c) => holding.includes(c))
    );
    assertEquals(scripts.length, 1, `script processes running codex: ${scripts}`);
    for (const pid of holding) {
      const argv = cmdline(pid);
      assert(!/(?:^|\/)script$/.test(argv[0]), `script ${pid} holds the handoff`);
      assert(!argv.some((a) => a.includes("stty cols")), `the prelude shell ${pid} holds it`);
    }
    // What the agent holds is its own argv, delivered whole.
    assertEquals(holding.length >= 1, true);

    assertEquals(await w.quit(), 0);
  },
  opts,
);
