import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { Journal, JOURNAL_FILE, JournalError } from "./journal.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.ts";
import { RecordingFile } from "./recording_file.ts";
import { runReleasedTogether } from "./_together_test_util.ts";

function assertThrows<E extends Error>(fn: () => unknown, type: new (...a: never[]) => E): E {
  try {
    fn();
  } catch (e) {
    assert(e instanceof type, `expected ${type.name}, got ${e}`);
    return e as E;
  }
  throw new Error(`expected ${type.name} to be thrown`);
}

function tempDir(): string {
  return Deno.makeTempDirSync({ prefix: "uuldana-journal-" });
}

Deno.test("a new journal is created 0600, in WAL mode, at the current schema", () => {
  const dir = tempDir();
  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
    assertEquals(j.check(), "ok");
    assertEquals(Deno.statSync(join(dir, JOURNAL_FILE)).mode! & 0o777, 0o600);
  } finally {
    j.close();
  }
  const raw = new DatabaseSync(join(dir, JOURNAL_FILE));
  assertEquals(
    (raw.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode,
    "wal",
  );
  raw.close();
});

Deno.test("runs, entries, screens and handoffs round-trip", () => {
  const dir = tempDir();
  const j = Journal.open(dir);
  try {
    const run = j.startRun({
      agent: "claude",
      bin: "/bin/claude",
      workspace: "/w",
      transport: "pty",
    });
    assertEquals(j.addEntry(run, { role: "user", text: "fix the bug", fidelity: "keystrokes" }), 1);
    assertEquals(j.addEntry(run, { role: "agent", text: "done", fidelity: "screen" }), 2);
    j.saveScreen(run, ["line 1", "line 2"], { cols: 80, rows: 24 });
    j.endRun(run, {
      reason: "limit",
      exitCode: 0,
      limitMessage: "You've hit your limit",
      resetsAt: "2026-11-30T03:01:00Z",
    });
    j.addHandoff({
      id: "h1",
      fromRun: run,
      toAgent: "codex",
      mode: "auto",
      road: "prompt",
      characters: 1234,
      omitted: 2,
      redactions: 1,
      status: "pending",
      filePath: "/data/handoffs/h1.md",
    });
    const next = j.startRun({ agent: "codex", workspace: "/w", transport: "pty" });
    j.updateHandoff("h1", { status: "delivered", toRun: next, receipt: "seen on screen" });

    const r = j.run(run)!;
    assertEquals([r.agent, r.endReason, r.limitMessage, r.resetsAt], [
      "claude",
      "limit",
      "You've hit your limit",
      "2026-11-30T03:01:00Z",
    ]);
    assertEquals(j.entries(run).map((e) => [e.seq, e.role, e.text, e.fidelity]), [
      [1, "user", "fix the bug", "keystrokes"],
      [2, "agent", "done", "screen"],
    ]);
    assertEquals(j.screen(run), ["line 1", "line 2"]);
    const h = j.handoff("h1")!;
    assertEquals([h.status, h.toRun, h.receipt, h.omitted, h.redactions], [
      "delivered",
      next,
      "seen on screen",
      2,
      1,
    ]);
    assertEquals(j.handoffsFrom(run).map((x) => x.id), ["h1"]);
    assertEquals(j.runs().map((x) => x.id), [next, run]);
  } finally {
    j.close();
  }
});

Deno.test("a run left open by a dead process is marked interrupted on the next open", async () => {
  const dir = tempDir();
  // A real separate process opens the journal, starts a run and is killed before it ends it.
  const script = `
    import { Journal } from ${JSON.stringify(new URL("./journal.ts", import.meta.url).href)};
    const j = Journal.open(${JSON.stringify(dir)});
    j.startRun({ agent: "codex", workspace: "/w", transport: "pty" });
    console.log("started");
    await new Promise(() => {});
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assertEquals(new TextDecoder().decode(value).trim(), "started");
  child.kill("SIGKILL");
  await child.status;
  reader.releaseLock();
  await child.stdout.cancel();

  const j = Journal.open(dir);
  try {
    const [run] = j.runs();
    assertEquals(run.endReason, "interrupted");
    assert(run.endedAt);
  } finally {
    j.close();
  }
});

Deno.test("runs of the live owner are not marked interrupted", () => {
  const dir = tempDir();
  const a = Journal.open(dir);
  const id = a.startRun({ agent: "claude", workspace: "/w", transport: "pty" });
  const b = Journal.open(dir);
  try {
    assertEquals(b.run(id)!.endReason, null);
  } finally {
    a.close();
    b.close();
  }
});

Deno.test("recorded output: a version 2 blob still reads; new runs record to a private file beside the journal", () => {
  const dir = tempDir();
  const path = join(dir, JOURNAL_FILE);
  const old = new DatabaseSync(path);
  old.exec(MIGRATIONS[0]);
  old.exec(MIGRATIONS[1]);
  old.exec("PRAGMA user_version = 2");
  old.exec(
    "INSERT INTO runs (agent, workspace, transport, started_at) " +
      "VALUES ('gemini', '/old', 'pty', '2026-01-01T00:00:00Z')",
  );
  old.prepare(
    "INSERT INTO outputs (run_id, cols, rows, timing, data) VALUES (1, 80, 24, '0 7', ?)",
  ).run(gzipSync(new TextEncoder().encode("before ")));
  old.close();

  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
    assertEquals(new TextDecoder().decode(gunzipSync(j.output(1)!.data)), "before ");
    assertEquals([j.output(1)!.format, j.output(1)!.path], ["raw", null]);
    // A run of this build: the row and file at start, members while it goes, timing at the end.
    const run = j.startRun({ agent: "gemini", workspace: "/w", transport: "pty", bin: null });
    const file = RecordingFile.create(j.startOutput(run, { cols: 100, rows: 30 }));
    for (const text of ["one ", "two ", "three"]) {
      file.append(gzipSync(new TextEncoder().encode(text)));
    }
    file.close();
    const recordings = join(dir, "recordings");
    assertEquals(Deno.statSync(recordings).mode! & 0o777, 0o700);
    assertEquals(Deno.statSync(join(recordings, `run-${run}.cast.gz`)).mode! & 0o777, 0o600);
    const interrupted = j.output(run)!;
    assertEquals([interrupted.cols, interrupted.rows, interrupted.timing], [100, 30, ""]);
    j.finishOutput(run, { timing: "0 4\n0 4\n0 5", truncated: true });
    const out = j.output(run)!;
    assertEquals(new TextDecoder().decode(gunzipSync(out.data)), "one two three");
    assertEquals([out.timing, out.truncated, out.format], ["0 4\n0 4\n0 5", true, "cast"]);
    assertEquals(out.path, join(recordings, `run-${run}.cast.gz`));
    assertEquals(j.output(run + 1), null);
    Deno.removeSync(join(recordings, `run-${run}.cast.gz`));
    const e = assertThrows(() => j.output(run), JournalError);
    assert(e.message.includes(`run-${run}.cast.gz`), e.message);
  } finally {
    j.close();
  }
});

Deno.test("a version 1 journal migrates forward and keeps its data", () => {
  const dir = tempDir();
  const path = join(dir, JOURNAL_FILE);
  const old = new DatabaseSync(path);
  old.exec(MIGRATIONS[0]);
  old.exec("PRAGMA user_version = 1");
  old.exec(
    "INSERT INTO runs (agent, workspace, transport, started_at, ended_at, end_reason, exit_code) " +
      "VALUES ('gemini', '/old', 'pty', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z', 'exit', 0)",
  );
  old.close();

  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
    const [run] = j.runs();
    assertEquals([run.agent, run.workspace, run.endReason, run.limitMessage], [
      "gemini",
      "/old",
      "exit",
      null,
    ]);
    const stamp = {
      path: "/bin/gemini",
      realPath: "/opt/gemini.js",
      size: 5381,
      mtimeMs: 1,
      envKey: "e",
    };
    j.saveProbe(stamp, {
      version: "0.61.0",
      versionKnown: true,
      proof: { accepted: true, line: "-i, --prompt-interactive" },
    }, "2026-12-01T00:00:00.000Z");
    assertEquals(j.cachedProbe(stamp), {
      version: "0.61.0",
      versionKnown: true,
      proof: { accepted: true, line: "-i, --prompt-interactive" },
      checkedAt: "2026-12-01T00:00:00.000Z",
    });
  } finally {
    j.close();
  }
});

Deno.test("the probe cache: a part left unknown keeps what another probe stored; another build of the binary starts over", () => {
  const j = Journal.open(tempDir());
  try {
    const stamp = { path: "/bin/kilo", realPath: "/opt/kilo", size: 5780, mtimeMs: 7, envKey: "e" };
    // --help answered first, --version still running: the version is not known yet.
    j.saveProbe(stamp, {
      version: null,
      versionKnown: false,
      proof: { accepted: true, line: "--prompt" },
    });
    assertEquals(j.cachedProbe(stamp)?.versionKnown, false);
    // Then --version answers, alone: the proof stays.
    j.saveProbe(stamp, { version: "7.7.7", versionKnown: true, proof: null });
    const both = j.cachedProbe(stamp)!;
    assertEquals([both.version, both.versionKnown, both.proof], ["7.7.7", true, {
      accepted: true,
      line: "--prompt",
    }]);
    // A binary that prints no version: known to have none, and cached.
    const other = { ...stamp, path: "/bin/aider", realPath: "/opt/aider" };
    j.saveProbe(other, {
      version: null,
      versionKnown: true,
      proof: { accepted: false, line: null },
    });
    assertEquals(j.cachedProbe(other)?.version, null);
    assertEquals(j.cachedProbe(other)?.versionKnown, true);
    // Reinstalled (another size): nothing cached for it, and its first answer replaces the row.
    const reinstalled = { ...stamp, size: 5800 };
    assertEquals(j.cachedProbe(reinstalled), null);
    j.saveProbe(reinstalled, {
      version: null,
      versionKnown: false,
      proof: { accepted: false, line: null },
    });
    assertEquals(j.cachedProbe(stamp), null);
    const fresh = j.cachedProbe(reinstalled)!;
    assertEquals([fresh.version, fresh.versionKnown, fresh.proof?.accepted], [null, false, false]);
    j.forgetProbes();
    assertEquals(j.cachedProbe(reinstalled), null);
  } finally {
    j.close();
  }
});

Deno.test("a corrupt file is reported with its path and left untouched", () => {
  const dir = tempDir();
  const path = join(dir, JOURNAL_FILE);
  const garbage = new TextEncoder().encode("this is not a database, ".repeat(200));
  Deno.writeFileSync(path, garbage);
  const err = assertThrows(() => Journal.open(dir), JournalError);
  assert(err.message.includes(path), err.message);
  assert(err.hint?.includes("untouched"));
  assertEquals(Deno.readFileSync(path), garbage);
});

Deno.test("a foreign SQLite database is refused and not modified", () => {
  const dir = tempDir();
  const path = join(dir, JOURNAL_FILE);
  const other = new DatabaseSync(path);
  other.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
  other.close();
  const before = Deno.readFileSync(path);
  const err = assertThrows(() => Journal.open(dir), JournalError);
  assert(err.message.includes("did not create"), err.message);
  assertEquals(Deno.readFileSync(path), before);
});

Deno.test("a foreign file keeps its permissions too", () => {
  const dir = tempDir();
  const path = join(dir, JOURNAL_FILE);
  const other = new DatabaseSync(path);
  other.exec("CREATE TABLE notes (body TEXT)");
  other.close();
  Deno.chmodSync(path, 0o644);
  assertThrows(() => Journal.open(dir), JournalError);
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o644);
});

Deno.test("several processes opening a new journal at once all succeed", async () => {
  const dir = tempDir();
  // Each process loads the module, says "ready", then opens the journal once released together.
  const script = `
    import { Journal } from ${JSON.stringify(new URL("./journal.ts", import.meta.url).href)};
    console.log("ready");
    for await (const _ of Deno.stdin.readable) break;
    try {
      Journal.open(${JSON.stringify(dir)}).close();
      console.log("opened");
    } catch (e) {
      console.log(e.message);
    }
  `;
  const { said } = await runReleasedTogether(Array.from({ length: 4 }, () => script));
  assertEquals(said, ["opened", "opened", "opened", "opened"]);
  const j = Journal.open(dir);
  try {
    assertEquals(j.schemaVersion, SCHEMA_VERSION);
  } finally {
    j.close();
  }
});

Deno.test("a journal from a newer uuldana is refused", () => {
  const dir = tempDir();
  const db = new DatabaseSync(join(dir, JOURNAL_FILE));
  db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  const err = assertThrows(() => Journal.open(dir), JournalError);
  assert(err.message.includes("newer"), err.message);
});

Deno.test("an existing journal with loose permissions is tightened to 0600", () => {
  const dir = tempDir();
  Journal.open(dir).close();
  const path = join(dir, JOURNAL_FILE);
  Deno.chmodSync(path, 0o644);
  Journal.open(dir).close();
  assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
});
