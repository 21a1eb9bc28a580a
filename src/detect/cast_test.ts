import {
  deepStrictEqual as assertEquals,
  ok as assert,
  throws as assertThrows,
} from "node:assert/strict";
import {
  castHeaderLine,
  castLines,
  castTime,
  castTruncatedLine,
  looksLikeCast,
  parseCast,
} from "./cast.ts";
import type { TimedInput } from "./timed_input.ts";

const dec = new TextDecoder();
const HEADER = castHeaderLine(80, 24, { agent: "codex", startedAt: 1_700_000_000_123 }, "xterm");

Deno.test("event times are written exactly to the microsecond", () => {
  assertEquals([castTime(0), castTime(1), castTime(1_234_567), castTime(86_400_000_001)], [
    "0.000000",
    "0.000001",
    "1.234567",
    "86400.000001",
  ]);
  assertEquals(JSON.parse(HEADER).timestamp, 1_700_000_000);
  assert(looksLikeCast(HEADER));
  assert(!looksLikeCast('\x1b[?1049h{"version": 2'));
});

Deno.test("lines read back as the inputs they were written from; raw bytes only where text cannot", () => {
  const inputs: TimedInput[] = [
    { type: "output", atMs: 0.001, bytes: new TextEncoder().encode("\x1b[1mhé\x1b[0m\r\n") },
    { type: "output", atMs: 12.5, bytes: new Uint8Array([0x41, 0xc3, 0x28]) }, // not UTF-8
    { type: "output", atMs: 13, bytes: new TextEncoder().encode("\uFFFD printed as is") },
    // UTF-8, but its BOM is dropped by the decoder: only the raw bytes give it back.
    { type: "output", atMs: 14, bytes: new TextEncoder().encode("\uFEFF\uFFFD after a BOM") },
    { type: "resize", atMs: 20, cols: 132, rows: 50 },
    { type: "channel", atMs: 21, event: { type: "prompt", text: "fix the bug" } },
    { type: "halt", atMs: 30, reason: "switch" },
    { type: "end", atMs: 31 },
  ];
  const text = [HEADER, ...inputs.map((i) => castLines(i, dec).join("").trimEnd())].join("\n");
  const lines = text.split("\n");
  assertEquals(lines.map((l, i) => i === 0 ? "header" : JSON.parse(l)[1]), [
    "header",
    "o",
    "o",
    "b",
    "o",
    "o",
    "b",
    "r",
    "c",
    "h",
    "e",
  ]);
  const parsed = parseCast(text + "\n");
  assertEquals(parsed.inputs, inputs);
  assertEquals([parsed.damaged, parsed.truncatedAt, parsed.header.width], [0, null, 80]);
});

Deno.test("a reader skips codes it has no use for and damaged lines, and stops at the cut", () => {
  const text = [
    HEADER,
    '[0.5, "i", "typed"]',
    '[0.6, "m", "marker"]',
    '[0.7, "o", "kept"]',
    '[0.8, "o", "half a li',
    '[0.9, "x", "unknown"]',
    castTruncatedLine(1000).trimEnd(),
    '[2.0, "o", "after the cut"]',
  ].join("\n");
  const parsed = parseCast(text);
  assertEquals(parsed.inputs, [{
    type: "output",
    atMs: 700,
    bytes: new TextEncoder().encode("kept"),
  }]);
  assertEquals([parsed.damaged, parsed.truncatedAt], [1, 1000]);
  assertThrows(() => parseCast("hello"), /not an asciicast v2 recording/);
  assertThrows(() => parseCast('{"version": 1}'), /not an asciicast v2 recording/);
});
