import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { OutputRecording, recordingBytes, type StoredRecording } from "./recording.ts";
import { exportAsciicast } from "./asciicast.ts";

/** Records `feed` with a sink that keeps the members, as the journal does. */
function record(
  feed: (rec: OutputRecording) => void,
  opts: { maxBytes?: number; now?: number } = {},
): StoredRecording & { members: number } {
  const members: Uint8Array[] = [];
  const rec = new OutputRecording((m) => members.push(m), opts);
  feed(rec);
  const summary = rec.finish();
  const data = new Uint8Array(members.reduce((n, m) => n + m.length, 0));
  members.reduce((at, m) => (data.set(m, at), at + m.length), 0);
  return { cols: 80, rows: 24, ...summary, data, members: members.length };
}

Deno.test("a recording keeps bytes and timing, and exports asciicast v2 with split UTF-8 intact", () => {
  const euro = new TextEncoder().encode("€"); // 3 bytes, split across two chunks
  const stored = record((rec) => {
    rec.add(new Uint8Array([0x41, euro[0]]), 500);
    rec.add(new Uint8Array([euro[1], euro[2], 0x0a]), 1500);
  }, { maxBytes: 1024, now: 0 });
  assertEquals(new TextDecoder().decode(recordingBytes(stored)), "A€\n");
  assertEquals(stored.timing, "0.500000 2\n1.000000 3");
  const lines = exportAsciicast({ agent: "claude", startedAt: "2026-11-30T01:00:00Z" }, stored)
    .trim().split("\n");
  const header = JSON.parse(lines[0]);
  assertEquals([header.version, header.width, header.height, header.timestamp], [
    2,
    80,
    24,
    Date.UTC(2026, 10, 30, 1) / 1000,
  ]);
  assertEquals(lines.slice(1).map((l) => JSON.parse(l)), [[0.5, "o", "A"], [1.5, "o", "€\n"]]);
});

Deno.test("a recording keeps its beginning up to the compressed bound, timing trimmed to match", () => {
  // Incompressible bytes: 600 KiB in 10 KiB chunks, against a bound that holds one 256 KiB block.
  const chunks = Array.from(
    { length: 60 },
    () => crypto.getRandomValues(new Uint8Array(10 * 1024)),
  );
  const stored = record((rec) => chunks.forEach((c, i) => rec.add(c, i)), {
    maxBytes: 300 * 1024,
    now: 0,
  });
  assertEquals([stored.truncated, stored.members], [true, 1]);
  const kept = recordingBytes(stored);
  assertEquals(kept.length, 256 * 1024);
  const all = new Uint8Array(chunks.length * 10 * 1024);
  chunks.forEach((c, i) => all.set(c, i * 10 * 1024));
  assertEquals(kept, all.subarray(0, kept.length));
  const timed = stored.timing.split("\n").reduce((n, line) => n + Number(line.split(" ")[1]), 0);
  assertEquals(timed, kept.length);
});

Deno.test("an empty recording reads back empty", () => {
  const stored = record(() => {});
  assertEquals([recordingBytes(stored).length, stored.members, stored.timing], [0, 0, ""]);
});

Deno.test("members reach the sink as blocks fill, not at the end; a failing sink stops the recording", () => {
  const members: Uint8Array[] = [];
  let fail = false;
  const rec = new OutputRecording((m) => {
    if (fail) throw new Error("disk full");
    members.push(m);
  }, { now: 0 });
  const kib = new Uint8Array(1024).fill(0x41);
  for (let i = 0; i < 300; i++) rec.add(kib, i);
  assertEquals(members.length, 1); // the first 256 KiB, while the run goes on
  rec.flush();
  rec.flush(); // nothing new: no empty member
  assertEquals(members.length, 2); // the 44 KiB after it, on request
  fail = true;
  for (let i = 0; i < 300; i++) rec.add(kib, 300 + i);
  const summary = rec.finish();
  assertEquals(summary.truncated, true);
  const timed = summary.timing.split("\n").reduce((n, l) => n + Number(l.split(" ")[1]), 0);
  assertEquals(timed, 300 * 1024); // exactly what the sink took
});

Deno.test("an interrupted run (no timing) still exports what it recorded", () => {
  const stored = record((rec) => rec.add(new TextEncoder().encode("hello"), 0), { now: 0 });
  const lines = exportAsciicast(
    { agent: "codex", startedAt: "2026-11-30T01:00:00Z" },
    { ...stored, timing: "" },
  ).trim().split("\n");
  assertEquals(JSON.parse(lines[1]), [0, "o", "hello"]);
});
