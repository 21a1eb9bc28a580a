import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { Journal, JOURNAL_FILE } from "./journal.ts";
import { ResilientJournal } from "./resilient_journal.ts";

function tempDir(): string {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-resilient-" });
  Journal.open(dir).close();
  return dir;
}

/** A live journal in a new directory, and what it told. */
function openLive(): { dir: string; j: ResilientJournal; told: string[] } {
  const dir = tempDir();
  const j = ResilientJournal.openLive(dir);
  const told: string[] = [];
  j.reportTo((line) => told.push(line));
  return { dir, j, told };
}

/** A second connection holding the write lock, as another process would; returns its release. */
function lock(dir: string): () => void {
  const db = new DatabaseSync(join(dir, JOURNAL_FILE));
  db.exec("BEGIN IMMEDIATE");
  db.exec("UPDATE runs SET agent = agent WHERE 0");
  return () => {
    db.exec("ROLLBACK");
    db.close();
  };
}

Deno.test("while the file is locked, writes wait in memory, reads see them, and land after", () => {
  const { dir, j, told } = openLive();
  const release = lock(dir);
  try {
    const runId = j.startRun({ agent: "claude", workspace: "/w", transport: "pty" });
    assert(runId < 0, "a provisional id");
    const recording = j.startOutput(runId, { cols: 80, rows: 24 });
    assertMatch(recording, /recordings\/run-pending-\d+-1\.cast\.gz$/);
    j.addEntry(runId, { role: "user", text: "one", fidelity: "keystrokes" });
    j.addEntry(runId, { role: "user", text: "two", fidelity: "keystrokes" });
    j.saveScreen(runId, ["screen"]);
    j.addHandoff({
      id: "h1",
      fromRun: runId,
      toAgent: "codex",
      mode: "auto",
      road: "prompt",
      characters: 3,
      omitted: 0,
      redactions: 0,
      status: "pending",
      filePath: null,
    });
    j.updateHandoff("h1", { status: "delivered" });
    assertEquals(j.entries(runId).map((e) => [e.seq, e.text]), [[1, "one"], [2, "two"]]);
    assertEquals(j.screen(runId), ["screen"]);
    assertEquals(j.pending, 7);
    assertEquals(told.length, 1);
    assertMatch(told[0], /journal .*journal\.db is locked by another process; keeping/);
  } finally {
    release();
  }
  j.endRun(-1, { reason: "exit", exitCode: 0 }); // the next write retries (500 ms later)...
  const deadline = Date.now() + 3_000;
  while (j.pending && Date.now() < deadline) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    j.endRun(-1, { reason: "exit", exitCode: 0 });
  }
  assertEquals(j.pending, 0);
  assertMatch(told.at(-1)!, /takes writes again/);
  j.close();
  const plain = Journal.open(dir);
  try {
    const [run] = plain.runs();
    assertEquals([run.agent, run.endReason], ["claude", "exit"]);
    assertEquals(plain.entries(run.id).map((e) => e.text), ["one", "two"]);
    assertEquals(plain.screen(run.id), ["screen"]);
    const h = plain.handoff("h1")!;
    assertEquals([h.fromRun, h.status], [run.id, "delivered"]);
  } finally {
    plain.close();
  }
});

Deno.test("a run started after the lock went stores at once with its real id", () => {
  const dir = tempDir();
  const j = ResilientJournal.openLive(dir);
  try {
    const id = j.startRun({ agent: "codex", workspace: "/w", transport: "pty" });
    assert(id > 0);
    assertMatch(j.startOutput(id, { cols: 80, rows: 24 }), new RegExp(`run-${id}\\.cast\\.gz$`));
    assertEquals(j.pending, 0);
  } finally {
    j.close();
  }
});

Deno.test("writes still kept at close go to a file beside the journal, said once; close never throws", () => {
  const { dir, j, told } = openLive();
  const release = lock(dir);
  try {
    j.startRun({ agent: "claude", workspace: "/w", transport: "pty" });
    j.close();
  } finally {
    release();
  }
  assertEquals(told.length, 2);
  const file = /the 1 journal writes it never took are in (\S+\.jsonl)$/.exec(told[1])?.[1];
  assert(file, told[1]);
  assertEquals(Deno.statSync(file).mode! & 0o777, 0o600);
  assertEquals(JSON.parse(Deno.readTextFileSync(file)).kind, "startRun");
});

Deno.test("a write that can never succeed is given up and said once", () => {
  const { j, told } = openLive();
  try {
    // No run 999: the foreign key refuses it, now and at any retry.
    j.addEntry(999, { role: "user", text: "x", fidelity: "keystrokes" });
    j.addEntry(999, { role: "user", text: "y", fidelity: "keystrokes" });
    assertEquals(j.pending, 0);
    assertEquals(told.length, 1);
    assertMatch(told[0], /a typed turn was not saved/);
  } finally {
    j.close();
  }
});

Deno.test("handoff files kept in memory are bounded: the oldest gives way, the rest is written at close", () => {
  const { j, told } = openLive();
  let tries = 0;
  j.deferFile(
    "/data/handoffs/a.md",
    () => {
      if (++tries === 1) throw new Error("ENOSPC: no space left on device");
    },
    new Error("ENOSPC: no space left on device"),
    10_000_000,
  );
  j.deferFile("/data/handoffs/b.md", () => {}, new Error("EROFS"), 10_000_000);
  assertEquals(told.length, 3);
  assertMatch(told[0], /could not write \/data\/handoffs\/a\.md \(ENOSPC.*written when it can/);
  assertMatch(told[1], /\/data\/handoffs\/a\.md could not be kept in memory any longer/);
  j.close();
  assertEquals(told.slice(3), ["wrote /data/handoffs/b.md"]);
  assertEquals(tries, 0, "a.md was given up before any retry");
});
