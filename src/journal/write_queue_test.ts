import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type PendingWrite, WriteQueue } from "./write_queue.ts";

const at = "2026-12-01T00:00:00.000Z";
const entry = (runId: number, text: string): PendingWrite => ({
  kind: "addEntry",
  runId,
  entry: { role: "user", text, fidelity: "keystrokes" },
  at,
});
const screen = (runId: number, line: string): PendingWrite => ({
  kind: "saveScreen",
  runId,
  lines: [line],
  at,
});

function kinds(q: WriteQueue): string[] {
  const out: string[] = [];
  for (let w = q.peek(); w; w = q.peek()) {
    out.push(w.kind === "addEntry" ? `entry:${w.entry.text}` : w.kind);
    q.shift();
  }
  return out;
}

Deno.test("a later screen of a run replaces its waiting one; entries keep their order", () => {
  const q = new WriteQueue();
  q.push(screen(1, "old"));
  q.push(entry(1, "a"));
  q.push(screen(1, "new"));
  q.push(entry(1, "b"));
  assertEquals(q.screenOf(1), ["new"]);
  assertEquals(q.entriesOf(1).map((e) => e.entry.text), ["a", "b"]);
  assertEquals(kinds(q), ["entry:a", "saveScreen", "entry:b"]);
});

Deno.test("at the bound, screens go first, then turns, oldest first; runs and handoffs stay", () => {
  const q = new WriteQueue(2_000);
  q.push({
    kind: "startRun",
    provisional: q.provisionalRunId(),
    run: { agent: "a", workspace: "/", transport: "pty" },
    at,
  });
  q.push(screen(-1, "s".repeat(900)));
  q.push(entry(-1, "x".repeat(700)));
  q.push(entry(-1, "y".repeat(700)));
  assertEquals(q.takeDropped(), { decisions: 0, screens: 1, proofs: 0, actions: 0, turns: 0 });
  q.push(entry(-1, "z".repeat(700)));
  assertEquals(q.takeDropped(), { decisions: 0, screens: 0, proofs: 0, actions: 0, turns: 1 });
  assertEquals(kinds(q).map((k) => k.slice(0, 7)), ["startRu", "entry:y", "entry:z"]);
});

Deno.test("provisional run ids map to real ones once stored", () => {
  const q = new WriteQueue();
  const p = q.provisionalRunId();
  assertEquals(p < 0, true);
  assertEquals(q.isUnstored(p), true);
  q.push(entry(p, "hi"));
  q.resolved(p, 42);
  assertEquals([q.realId(p), q.isUnstored(p), q.realId(7)], [42, false, 7]);
  assertEquals(q.entriesOf(42).map((e) => e.entry.text), ["hi"]);
  assertEquals(q.provisionalRunId() !== p, true);
});

Deno.test("at the bound, tool calls give way before typed turns, and are counted", () => {
  const q = new WriteQueue(1000);
  const action = {
    tool: "Bash",
    kind: "ran" as const,
    target: "x".repeat(100),
    outcome: "ok" as const,
  };
  q.push({
    kind: "addEntry",
    runId: 1,
    entry: { role: "user", text: "u".repeat(100), fidelity: "keystrokes" },
    at: "t",
  });
  for (let i = 0; i < 3; i++) q.push({ kind: "addAction", runId: 1, action, at: `a${i}` });
  assertEquals(q.actionsOf(1).map((a) => a.at), ["a0", "a1", "a2"]);
  q.push({
    kind: "addEntry",
    runId: 1,
    entry: { role: "agent", text: "r".repeat(200), fidelity: "screen" },
    at: "t2",
  });
  const dropped = q.takeDropped();
  assertEquals([dropped.actions, dropped.turns], [1, 0]);
  assertEquals(q.actionsOf(1).map((a) => a.at), ["a1", "a2"]);
  assertEquals(q.entriesOf(1).length, 2);
});
