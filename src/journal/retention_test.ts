/**
 * The retention rule's choice (pure): by age, by size oldest first, never the last days, a running
 * run or a handoff not delivered.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type DataFile, planRetention, type RetentionRule } from "./retention.ts";

const DAY = 86_400_000;
const NOW = Date.parse("2026-12-04T12:00:00Z");
const RULE: RetentionRule = { maxAgeDays: 30, maxMegabytes: 10, keepDays: 3 };

// A file `days` old of `mb` megabytes (at null: its run still runs).
function file(
  path: string,
  days: number | null,
  mb: number,
  held: string | null = null,
  kind: DataFile["kind"] = "recording",
): DataFile {
  return { path, kind, bytes: mb * 1e6, at: days === null ? null : NOW - days * DAY, held };
}

const removed = (files: DataFile[], rule = RULE) =>
  planRetention(files, rule, NOW).remove.map((r) => `${r.file.path}:${r.reason}`);

Deno.test("files older than maxAgeDays go; younger ones stay while the folder is under its size", () => {
  assertEquals(
    removed([file("a", 45, 1), file("b", 31, 1), file("c", 29, 1), file("d", 5, 1)]),
    ["a:age", "b:age"],
  );
});

Deno.test("over maxMegabytes, the oldest removable go first until the folder is under it", () => {
  const files = [file("new", 4, 4), file("old", 20, 4), file("older", 25, 4), file("mid", 10, 4)];
  // 16 MB in all, 10 allowed: the two oldest (25, 20 days) bring it to 8.
  assertEquals(removed(files), ["older:size", "old:size"]);
});

Deno.test("nothing of the last keepDays goes, whatever the size", () => {
  const files = [file("today", 0, 50), file("yesterday", 1, 50), file("week", 7, 1)];
  assertEquals(removed(files), ["week:size"]);
  assertEquals(removed(files, { ...RULE, keepDays: 10 }), []);
});

Deno.test("a running run and a handoff not delivered are never removed, however old or large", () => {
  const files = [
    file("running", null, 100),
    file("saved.md", 400, 100, "a handoff not delivered (saved)", "handoff"),
    file("pasted.md", 400, 0.001, null, "handoff"),
  ];
  const plan = planRetention(files, RULE, NOW);
  assertEquals(plan.remove.map((r) => r.file.path), ["pasted.md"]);
  assertEquals(plan.keep.map((f) => f.path), ["running", "saved.md"]);
  assertEquals(plan.totalBytes, 200.001e6);
});
