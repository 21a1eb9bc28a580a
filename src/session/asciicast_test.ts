import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { OutputRecording, recordingBytes } from "./recording.ts";
import { exportAsciicast } from "./asciicast.ts";

Deno.test("a recording keeps bytes and timing, and exports asciicast v2 with split UTF-8 intact", () => {
  const rec = new OutputRecording(80, 24, 1024, 0);
  const euro = new TextEncoder().encode("€"); // 3 bytes, split across two chunks
  rec.add(new Uint8Array([0x41, euro[0]]), 500);
  rec.add(new Uint8Array([euro[1], euro[2], 0x0a]), 1500);
  const stored = rec.finish();
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
  const rec = new OutputRecording(80, 24, 300 * 1024, 0);
  chunks.forEach((c, i) => rec.add(c, i));
  const stored = rec.finish();
  assertEquals(stored.truncated, true);
  const kept = recordingBytes(stored);
  assertEquals(kept.length, 256 * 1024);
  const all = new Uint8Array(chunks.length * 10 * 1024);
  chunks.forEach((c, i) => all.set(c, i * 10 * 1024));
  assertEquals(kept, all.subarray(0, kept.length));
  const timed = stored.timing.split("\n").reduce((n, line) => n + Number(line.split(" ")[1]), 0);
  assertEquals(timed, kept.length);
});

Deno.test("an empty recording reads back empty", () => {
  assertEquals(recordingBytes(new OutputRecording(80, 24).finish()).length, 0);
});
