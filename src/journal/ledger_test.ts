import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Journal, JOURNAL_FILE } from "./journal.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
import type { LimitEntry } from "../chain/limits.ts";
import { runReleasedTogether } from "./_together_test_util.ts";

function tempDir(): string {
  return Deno.makeTempDirSync({ prefix: "uuldana-ledger-" });
}

function entry(agent: string, until: string | null, runId: number | null = null): LimitEntry {
  return {
    agent,
    kind: "usage",
    message: `${agent} limit`,
    seenAt: "2026-12-01T01:12:00.000Z",
    until,
    runId,
    strikes: 0,
  };
}

Deno.test("the ledger keeps each agent's latest limit; clearing forgets it", () => {
  const j = Journal.open(tempDir());
  try {
    const run = j.startRun({ agent: "claude", workspace: "/w", transport: "pty" });
    j.addLimit(entry("claude", "2026-12-01T03:01:00.000Z", run));
    j.addLimit(entry("claude", "2026-12-01T04:00:00.000Z", run));
    j.addLimit(entry("codex", null));
    const latest = j.latestLimits();
    assertEquals([...latest.keys()].sort(), ["claude", "codex"]);
    assertEquals(latest.get("claude"), entry("claude", "2026-12-01T04:00:00.000Z", run));
    assertEquals(latest.get("codex"), entry("codex", null));
    assertEquals(j.clearLimits("claude"), 2);
    assertEquals(j.clearLimits("claude"), 0);
    assertEquals([...j.latestLimits().keys()], ["codex"]);
    const history = j.limitHistory();
    assertEquals(history.map((h) => [h.agent, h.clearedAt !== null]), [
      ["codex", false],
      ["claude", true],
      ["claude", true],
    ]);
  } finally {
    j.close();
  }
});

Deno.test("two processes writing the ledger at once lose nothing", async () => {
  const dir = tempDir();
  Journal.open(dir).close();
  const perProcess = 300;
  // Each process loads the module, says "ready", then writes once both are released together.
  const script = (agent: string) => `
    import { Journal } from ${JSON.stringify(new URL("./journal.ts", import.meta.url).href)};
    const j = Journal.open(${JSON.stringify(dir)});
    console.log("ready");
    for await (const _ of Deno.stdin.readable) break;
    for (let i = 0; i < ${perProcess}; i++) {
      j.addLimit({ agent: "${agent}", kind: "usage", message: String(i),
        seenAt: new Date().toISOString(), until: null, runId: null, strikes: 0 });
    }
    j.close();
    console.log("done");
  `;
  const { said, success } = await runReleasedTogether(["claude", "codex"].map(script));
  assertEquals(said, ["done", "done"]);
  assertEquals(success, [true, true]);
  const j = Journal.open(dir);
  try {
    const rows = j.limitHistory(10 * perProcess);
    assertEquals(rows.length, 2 * perProcess);
    for (const agent of ["claude", "codex"]) {
      const messages = rows.filter((r) => r.agent === agent).map((r) => Number(r.message));
      assertEquals(messages.sort((a, b) => a - b), Array.from({ length: perProcess }, (_, i) => i));
    }
  } finally {
    j.close();
  }
});

Deno.test("a version 3 journal gains the ledger and keeps its handoffs; `interrupted` is a status", () => {
  const dir = tempDir();
  const old = new DatabaseSync(join(dir, JOURNAL_FILE));
  for (const m of MIGRATIONS.slice(0, 3)) old.exec(m);
  old.exec("PRAGMA user_version = 3");
  old.exec(
    "INSERT INTO runs (agent, workspace, transport, started_at) VALUES ('claude', '/w', 'pty', 't')",
  );
  old.exec(
    `INSERT INTO handoffs (id, from_run, to_agent, mode, road, characters, status, file_path,
       created_at, redactions, receipt)
     VALUES ('h1', 1, 'codex', 'auto', 'prompt', 42, 'delivered', '/f.md', 't0', 2, 'r')`,
  );
  old.close();
  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
    const h = j.handoff("h1")!;
    assertEquals(
      [h.fromRun, h.toAgent, h.road, h.characters, h.status, h.filePath, h.redactions, h.receipt],
      [1, "codex", "prompt", 42, "delivered", "/f.md", 2, "r"],
    );
    assertEquals(j.handoffsFrom(1).map((x) => x.id), ["h1"]);
    j.updateHandoff("h1", { status: "interrupted" });
    assertEquals(j.handoff("h1")!.status, "interrupted");
    assertEquals(j.latestLimits().size, 0);
  } finally {
    j.close();
  }
});

Deno.test("profiles: a journal from before them keeps its runs and ledger; a 'claude' row is the profile claude", () => {
  const dir = tempDir();
  const old = new DatabaseSync(join(dir, JOURNAL_FILE));
  for (const m of MIGRATIONS.slice(0, 9)) old.exec(m);
  old.exec("PRAGMA user_version = 9");
  old.exec(
    "INSERT INTO runs (agent, workspace, transport, started_at) VALUES ('claude', '/w', 'pty', 't')",
  );
  old.exec(
    `INSERT INTO limits (agent, kind, message, seen_at, until, run_id)
     VALUES ('claude', 'usage', 'You''ve hit your limit', '2026-12-01T10:00:00.000Z',
             '2026-12-01T15:00:00.000Z', 1)`,
  );
  old.close();
  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
    const [run] = j.runs();
    assertEquals([run.agent, run.profile], ["claude", null]);
    const claude = j.latestLimits().get("claude")!;
    assertEquals([claude.kind, claude.until, claude.runId], [
      "usage",
      "2026-12-01T15:00:00.000Z",
      1,
    ]);
    // A profile's run keeps its name beside its agent's; the ledger keys on the profile.
    const id = j.startRun({
      agent: "claude",
      profile: "claude-api",
      workspace: "/w",
      transport: "pty",
    });
    assertEquals(j.run(id)!.profile, "claude-api");
    assertEquals(j.latestLimits().has("claude-api"), false);
  } finally {
    j.close();
  }
});

Deno.test("a journal from before warnings keeps its ledger and decisions; warnings read back near", () => {
  const dir = tempDir();
  const old = new DatabaseSync(join(dir, JOURNAL_FILE));
  for (const m of MIGRATIONS.slice(0, 9)) old.exec(m);
  old.exec("PRAGMA user_version = 9");
  old.exec(
    "INSERT INTO runs (agent, workspace, transport, started_at) VALUES ('claude', '/w', 'pty', 't')",
  );
  old.exec(
    `INSERT INTO limits (agent, kind, message, seen_at, until, run_id, strikes)
     VALUES ('claude', 'usage', 'claude limit', '2026-12-01T01:12:00.000Z',
       '2026-12-01T03:01:00.000Z', 1, 0)`,
  );
  old.exec(
    `INSERT INTO decisions (run_id, seq, at_ms, byte_offset, source, verdict, record)
     VALUES (1, 1, 12.5, 300, 'screen', 'seen', '{"verdict":"seen"}')`,
  );
  old.close();
  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
    // The older row reads as it always did: a real limit, no `near`.
    assertEquals(j.latestLimits().get("claude"), entry("claude", "2026-12-01T03:01:00.000Z", 1));
    assertEquals(j.decisions(1), [{ verdict: "seen" }]);
    const warning = { ...entry("codex", "2026-12-01T04:00:00.000Z"), near: true as const };
    j.addLimit(warning);
    assertEquals(j.latestLimits().get("codex"), warning);
    assertEquals(j.limitHistory().map((h) => [h.agent, h.near ?? false]), [
      ["codex", true],
      ["claude", false],
    ]);
    j.addDecisions(1, [{
      atMs: 20,
      offset: 400,
      source: "screen",
      verdict: "warning",
      warning: { id: "used-percent", message: "You've used 91%", resetsAt: null },
    }]);
    assertEquals(j.decisions(1).map((d) => d.verdict), ["seen", "warning"]);
  } finally {
    j.close();
  }
});
