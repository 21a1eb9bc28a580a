import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { castHeaderLine } from "../detect/cast.ts";
import { CastRecording } from "./recording.ts";
import { exportAsciicast } from "./asciicast.ts";

const RUN = { agent: "claude", startedAt: "2026-11-30T01:00:00Z" };

Deno.test("a timed recording exports as itself, without uuldana's own events", () => {
  const members: Uint8Array[] = [];
  const header = castHeaderLine(
    80,
    24,
    { agent: "claude", startedAt: Date.parse(RUN.startedAt) },
    "xterm",
  );
  const rec = new CastRecording((m) => members.push(m), header);
  rec.add({ type: "output", atMs: 500, bytes: new Uint8Array([0x41, 0xff]) });
  rec.add({ type: "resize", atMs: 600, cols: 100, rows: 30 });
  rec.add({ type: "channel", atMs: 700, event: { type: "idle" } });
  rec.add({ type: "end", atMs: 1500 });
  rec.finish();
  const data = new Uint8Array(members.flatMap((m) => [...m]));
  const lines = exportAsciicast(RUN, {
    cols: 80,
    rows: 24,
    timing: "",
    data,
    truncated: false,
    format: "cast",
  }).trim().split("\n").map((l) => JSON.parse(l));
  assertEquals([lines[0].version, lines[0].width, lines[0].height, lines[0].timestamp], [
    2,
    80,
    24,
    Date.UTC(2026, 10, 30, 1) / 1000,
  ]);
  assertEquals(lines.slice(1), [[0.5, "o", "A\uFFFD"], [0.6, "r", "100x30"]]);
});

Deno.test("a raw recording of an older journal exports with split UTF-8 intact", () => {
  const euro = new TextEncoder().encode("€"); // 3 bytes, split across two chunks
  const data = gzipSync(new Uint8Array([0x41, euro[0], euro[1], euro[2], 0x0a]));
  const stored = { cols: 80, rows: 24, data, truncated: false, format: "raw" as const };
  const lines = exportAsciicast(RUN, { ...stored, timing: "0.500000 2\n1.000000 3" })
    .trim().split("\n");
  assertEquals(JSON.parse(lines[0]).version, 2);
  assertEquals(lines.slice(1).map((l) => JSON.parse(l)), [[0.5, "o", "A"], [1.5, "o", "€\n"]]);
  // Interrupted (no timing): what it recorded, at 0.
  const cut = exportAsciicast(RUN, { ...stored, timing: "" }).trim().split("\n");
  assertEquals(JSON.parse(cut[1]), [0, "o", "A€\n"]);
});
