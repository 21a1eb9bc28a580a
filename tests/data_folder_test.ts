/**
 * The data folder's bound, through uuldana as a user runs it: `uuldana doctor` shows the folder's
 * size and what the retention rule would remove, and `uuldana run` removes it in the background
 * while the agent works, never a run of the last days or a handoff not delivered. A real journal
 * and real files, made through the journal's own API with past times.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { Journal } from "../src/journal/journal.ts";
import { pastHandoff, pastRecording } from "../src/journal/_data_files_test_util.ts";
import type { HandoffStatus } from "../src/journal/records.ts";
import { runUuldana } from "./_uuldana.ts";
import { DENO_DIR } from "./_paths.ts";
import { World, worldTest } from "./_world.ts";

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** A data folder with a run and a handoff of each kind, `days` old. */
function pastRuns(dataDir: string) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const journal = Journal.open(dataDir);
  try {
    const recording = (days: number, bytes: number) => pastRecording(journal, ago(days), bytes);
    const handoff = (id: string, days: number, status: HandoffStatus) =>
      pastHandoff(journal, dataDir, id, ago(days), status);
    return {
      old: recording(60, 2_000_000),
      recent: recording(1, 2_000_000),
      delivered: handoff("old-delivered", 60, "delivered"),
      saved: handoff("old-saved", 60, "saved"),
    };
  } finally {
    journal.close();
  }
}

Deno.test("doctor shows the data folder's size and what the rule would remove, and removes nothing", async () => {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-data-folder-" });
  try {
    const files = pastRuns(`${root}/data`);
    const r = await runUuldana(["doctor", "--json"], {
      env: {
        DENO_DIR,
        PATH: "/usr/bin:/bin",
        HOME: root,
        UULDANA_HOME: `${root}/data`,
        UULDANA_CONFIG: `${root}/config.json`,
      },
      clearEnv: true,
    });
    const checks = JSON.parse(r.stdout) as { name: string; status: string; detail: string }[];
    const folder = checks.find((c) => c.name === "data folder");
    assertEquals(folder?.status, "ok", r.stdout);
    assertMatch(folder!.detail, /^4\.\d MB \(2 recordings 4\.0 MB, 2 handoffs 2\.0 kB; /);
    assertMatch(folder!.detail, /kept 30 days and 1000 MB in all, the last 3 days/);
    assertMatch(
      folder!.detail,
      /the next run removes 2 files \(2\.0 MB\) and keeps 2, 1 of them handoffs not delivered yet$/,
    );
    for (const f of Object.values(files)) assert(existsSync(f), `doctor removed ${f}`);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

worldTest(
  "run: the rule is applied in the background while the agent works; the last days and undelivered handoffs stay",
  () => new World(["claude", "codex"], {}, { config: { retention: { maxAgeDays: 30 } } }),
  async (w) => {
    const files = pastRuns(w.home);
    await w.start(["run"]);
    await w.ask("claude", "refactor the parser");
    await w.waitForEvent("claude", "reply");
    const deadline = Date.now() + 30_000;
    while (existsSync(files.old) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    assert(!existsSync(files.old), "the 60-day-old recording is removed");
    assert(!existsSync(files.delivered), "the 60-day-old delivered handoff is removed");
    assert(existsSync(files.recent), "yesterday's recording stays");
    assert(existsSync(files.saved), "a handoff never delivered stays");
    // The keys still reach the agent, and it answers.
    await w.type("and the lexer");
    await w.waitForEvent("claude", "reply", 2);
    assertEquals(await w.quit(), 0);
  },
);
