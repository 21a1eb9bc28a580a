/**
 * uuldana killed with SIGKILL in the middle of a switch (OpenCode's `import`, a paste waiting for
 * the next agent's input box): nothing it started outlives it, and the next start marks the
 * handoff `interrupted` and removes the scratch files that hold handoff text.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { World, worldTest } from "./_world.ts";
import { readSimLog } from "../src/sim/log.ts";
import { processAlive } from "../src/process_alive.ts";

async function gone(pid: number, timeoutMs = 8_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !processAlive(pid);
}

/** The pid of the uuldana that wrote the runs. */
function owner(w: World): number {
  const db = new DatabaseSync(join(w.home, "journal.db"), { readOnly: true });
  try {
    return Number(
      (db.prepare("SELECT owner_pid FROM runs ORDER BY id LIMIT 1").get() as { owner_pid: number })
        .owner_pid,
    );
  } finally {
    db.close();
  }
}

/** The handoffs as `uuldana runs --json` reports them, after that start repaired the journal. */
async function handoffsAfterNextStart(
  w: World,
): Promise<{ toAgent: string; status: string; error: string | null }[]> {
  const out = await w.uuldana(["runs", "--json"]);
  assertEquals(out.code, 0, out.stderr);
  return (JSON.parse(out.stdout) as {
    handoffs: { toAgent: string; status: string; error: string | null }[];
  }[])
    .flatMap((r) => r.handoffs);
}

/** The pid of the `opencode import` once it started (it logs before the session log begins). */
async function importStarted(w: World): Promise<number> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const started = readSimLog(w.log("opencode")).find((e) => e.event === "import-start");
    if (started) return Number(started.pid);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no import started; screen:\n${await w.term.capture()}`);
}

function scratch(w: World): string[] {
  const dir = join(w.home, "scratch");
  return existsSync(dir) ? readdirSync(dir) : [];
}

worldTest(
  "SIGKILL during `opencode import`: the import dies with uuldana, the next start marks the handoff interrupted and removes its scratch file",
  () =>
    new World(["claude", "opencode"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      opencode: { SIM_IMPORT_MS: "60000" },
    }, { agents: { opencode: { road: "store" } } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "Add a --dry-run flag to deploy.sh");
    const importPid = await importStarted(w);
    const uuldana = owner(w);
    assert(processAlive(importPid));
    // The import file holds the handoff text, in this uuldana's scratch directory.
    const [dir] = scratch(w);
    assert(dir?.startsWith(`p${uuldana}-`), String(scratch(w)));

    Deno.kill(uuldana, "SIGKILL");
    assert(await gone(importPid), "the import outlived uuldana");

    const handoffs = await handoffsAfterNextStart(w);
    assertEquals(handoffs.map((h) => [h.toAgent, h.status]), [["opencode", "interrupted"]]);
    assertEquals(scratch(w), []);
  },
);

worldTest(
  "SIGKILL while a manual handoff waits to be pasted: the next agent dies with uuldana, the handoff is interrupted",
  () => new World(["claude", "codex"], { codex: { SIM_STARTUP_MS: "60000" } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "Add a --dry-run flag to deploy.sh");
    await w.waitForEvent("claude", "submit");
    await w.type("/agent codex");
    await w.waitForEvent("codex", "start");
    const uuldana = owner(w);
    await new Promise((r) => setTimeout(r, 500));
    Deno.kill(uuldana, "SIGKILL");
    assert(await gone(uuldana), "uuldana is still there");

    const handoffs = await handoffsAfterNextStart(w);
    assertEquals(handoffs.map((h) => [h.toAgent, h.status]), [["codex", "interrupted"]]);
    assert(handoffs[0].error?.includes("stopped before it delivered"));
  },
);
