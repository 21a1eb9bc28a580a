/**
 * The retention rule on a real journal and real files in a data folder: what it removes, what it
 * never touches, and its background run.
 *
 * @module
 */
import {
  deepStrictEqual as assertEquals,
  ok as assert,
  throws as assertThrows,
} from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Journal } from "./journal.ts";
import { applyRetention, dataFiles, retainInBackground } from "./data_files.ts";
import { pastHandoff, pastRecording } from "./_data_files_test_util.ts";
import type { HandoffStatus } from "./records.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-12-04T12:00:00Z");
const RULE = { maxAgeDays: 30, maxMegabytes: 1000, keepDays: 3 };
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

// A run that ended `days` ago (null: still running) with a recording of `bytes`.
const run = (journal: Journal, days: number | null, bytes: number) =>
  pastRecording(journal, days === null ? null : ago(days), bytes);

// A handoff made `days` ago, in `status`, with its file.
const handoff = (journal: Journal, dir: string, id: string, days: number, status: HandoffStatus) =>
  pastHandoff(journal, dir, id, ago(days), status);

Deno.test("the rule on a real journal and real files: old runs and delivered handoffs go, the rest stay", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-retention-" });
  const journal = Journal.open(dir);
  try {
    const old = run(journal, 40, 1000);
    const recent = run(journal, 1, 1000);
    const running = run(journal, null, 1000);
    const oldPasted = handoff(journal, dir, "h-pasted", 40, "pasted");
    const oldDelivered = handoff(journal, dir, "h-delivered", 40, "delivered");
    const oldSaved = handoff(journal, dir, "h-saved", 40, "saved");
    const oldPending = handoff(journal, dir, "h-pending", 40, "pending");
    const oldRefused = handoff(journal, dir, "h-refused", 40, "refused");
    // A file the journal does not know, and one it names outside the data folder: never touched.
    const stray = join(dir, "recordings", "run-999.cast.gz");
    writeFileSync(stray, "x");
    const outside = Deno.makeTempFileSync({ prefix: "uuldana-outside-" });
    pastHandoff(journal, dir, "h-outside", ago(400), "delivered", outside);

    assertEquals((await dataFiles(journal, dir)).length, 8, "3 recordings, 5 handoffs inside");
    const { plan, removed } = await applyRetention(journal, dir, RULE, NOW);
    assertEquals(removed.map((f) => f.path).sort(), [old, oldDelivered, oldPasted].sort());
    assertEquals(plan.remove.every((r) => r.reason === "age"), true);
    for (const gone of [old, oldDelivered, oldPasted]) assert(!existsSync(gone), gone);
    for (const kept of [recent, running, oldSaved, oldPending, oldRefused, stray, outside]) {
      assert(existsSync(kept), `${kept} was removed`);
    }
    // The journal keeps every run; one whose recording is gone says why when it is read.
    assertEquals(journal.runCount(), 3);
    assertThrows(
      () => journal.output(1),
      (e: Error & { hint?: string }) => /retention rule/.test(e.hint ?? ""),
    );
    // Applied again, there is nothing left to remove.
    const again = await applyRetention(journal, dir, RULE, NOW);
    assertEquals(again.removed, []);
    Deno.removeSync(outside);
  } finally {
    journal.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("over its size the folder loses its oldest removable recordings first", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-retention-size-" });
  const journal = Journal.open(dir);
  try {
    const a = run(journal, 20, 600_000);
    const b = run(journal, 10, 600_000);
    const c = run(journal, 5, 600_000);
    const today = run(journal, 0, 600_000);
    // 2.4 MB of recordings, 1 MB allowed: oldest first, a (1.8 MB left), b (1.2), c (0.6); today's
    // run stays whatever the size.
    const { removed } = await applyRetention(
      journal,
      dir,
      { maxAgeDays: 30, maxMegabytes: 1, keepDays: 3 },
      NOW,
    );
    assertEquals(removed.map((f) => f.path), [a, b, c]);
    assert(existsSync(today));
  } finally {
    journal.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("the journal is read a page at a time: every one of 450 old runs is seen and removed", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-retention-pages-" });
  const journal = Journal.open(dir);
  try {
    const paths = Array.from({ length: 450 }, () => run(journal, 40, 1));
    for (let i = 0; i < 450; i++) handoff(journal, dir, `h-${i}`, 40, "pasted");
    let pauses = 0;
    const seen = await dataFiles(journal, dir, () => void pauses++);
    assertEquals(
      [seen.length, pauses],
      [900, 4],
      "2 pauses in each of 450 recordings and handoffs",
    );
    const { removed } = await applyRetention(journal, dir, RULE, NOW);
    assertEquals(removed.length, 900);
    assert(paths.every((p) => !existsSync(p)));
  } finally {
    journal.close();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("in the background: never awaited, and a journal closed before it runs throws nothing", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "uuldana-retention-bg-" });
  const journal = Journal.open(dir);
  const old = run(journal, 400, 10);
  journal.close();
  retainInBackground(journal, dir, RULE, 0);
  await new Promise((r) => setTimeout(r, 200));
  assert(existsSync(old), "a closed journal: nothing is known, nothing removed");
  const open = Journal.open(dir);
  try {
    retainInBackground(open, dir, RULE, 0);
    const until = Date.now() + 5000;
    while (existsSync(old) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert(!existsSync(old), "removed in the background");
  } finally {
    open.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
