import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { castHeaderLine } from "../detect/cast.ts";
import type { TimedInput } from "../detect/timed_input.ts";
import { Utf8Segmenter } from "../detect/utf8_segments.ts";
import { CastRecording, DEFAULT_RECORDING_BYTES, MIN_MS_PER_STATE } from "./recording.ts";
import { readRecording, spanInputs } from "./recording_read.ts";
import { adapterByName } from "../../adapters/registry.ts";
import { claudeScreen } from "../../adapters/_limit_screens_test_util.ts";
import { rng } from "../handoff/_rng_test_util.ts";
import type { Decision } from "../detect/decision.ts";
import { Detector, type Verdict } from "../detect/detector.ts";
import { replay } from "../detect/replay.ts";
import {
  readRecordingFiles,
  RecordingFile,
  recordingPartPaths,
} from "../journal/recording_file.ts";

const META = { agent: "claude", startedAt: Date.UTC(2026, 10, 30, 1), timeZone: "UTC" };
const HEADER = castHeaderLine(80, 24, META, "xterm-256color");
const enc = new TextEncoder();
const RUN_OPTS = {
  adapter: adapterByName("claude")!,
  cols: 120,
  rows: 40,
  // A short scrollback keeps each saved state small against the tests' small bounds.
  scrollback: 200,
  startedAt: META.startedAt,
  timeZone: "UTC",
};

/** Records `inputs` with a sink that keeps the members, as the recording's file does. */
function record(inputs: TimedInput[], maxBytes?: number) {
  const members: Uint8Array[] = [];
  const rec = new CastRecording((m) => members.push(m), HEADER, { maxBytes });
  for (const input of inputs) rec.add(input);
  const { truncated } = rec.finish();
  const data = new Uint8Array(members.reduce((n, m) => n + m.length, 0));
  members.reduce((at, m) => (data.set(m, at), at + m.length), 0);
  return { data, truncated, members };
}

Deno.test("a recording gives back every input exactly, at its time to the microsecond", () => {
  // Reads that split characters, bytes that are not UTF-8, a resize, a channel event, the end.
  const segments = new Utf8Segmenter();
  const reads = [
    enc.encode("A€─x"),
    new Uint8Array([0xe2]),
    new Uint8Array([0x94, 0x80, 0xff, 0x41]),
  ];
  const inputs: TimedInput[] = [];
  reads.forEach((chunk, i) => {
    const bytes = segments.next(chunk).slice();
    if (bytes.length) inputs.push({ type: "output", atMs: 1.5 + i * 1000.000123, bytes });
  });
  inputs.push(
    { type: "resize", atMs: 2500.25, cols: 100, rows: 30 },
    {
      type: "channel",
      atMs: 2600,
      event: { type: "limit", kind: "usage", message: "m", resetsAt: null },
    },
    { type: "halt", atMs: 2700, reason: "switch" },
    { type: "end", atMs: 3000.000001 },
  );
  const { data, truncated } = record(inputs);
  assertEquals(truncated, false);
  const read = readRecording(data, { cols: 1, rows: 1 });
  assertEquals([read.format, read.cols, read.rows, read.damaged], ["cast", 80, 24, 0]);
  assertEquals(read.header?.uuldana, META);
  // Times are kept to the microsecond (the detector's resolution too).
  assertEquals(read.inputs, inputs.map((i) => ({ ...i, atMs: Math.round(i.atMs * 1000) / 1000 })));
  assertEquals(read.inputs!.at(-1)!.atMs, 3000);
  assertEquals(read.bytes, new Uint8Array([...enc.encode("A€─x"), 0xe2, 0x94, 0x80, 0xff, 0x41]));
  // A player sees text: the bytes that are not UTF-8 as U+FFFD, uuldana's own events besides.
  const lines = new TextDecoder().decode(gunzipSync(data)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assertEquals(lines.slice(1).map((l) => l[1]), ["o", "o", "b", "r", "c", "h", "e"]);
  assertEquals(lines[2][2], "─\uFFFDA");
});

Deno.test("the compressed bound keeps the beginning, whole lines only, and says where it was cut", () => {
  // Incompressible output: 600 KiB in 10 KiB reads, against a bound that holds about one block.
  const inputs: TimedInput[] = Array.from({ length: 60 }, (_, i) => ({
    type: "output" as const,
    atMs: i,
    bytes: enc.encode(btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(7680))))),
  }));
  const { data, truncated, members } = record(inputs, 300 * 1024);
  assertEquals(truncated, true);
  assertEquals(members.length, 2); // one block, then the short line that marks the cut
  const read = readRecording(data, { cols: 1, rows: 1 });
  assertEquals(read.truncated, true);
  assertEquals(read.damaged, 0);
  const kept = read.inputs!;
  assert(kept.length > 10 && kept.length < 60, `${kept.length} inputs kept`);
  assertEquals(kept, inputs.slice(0, kept.length));
});

Deno.test("members reach the sink as blocks fill, not at the end; a failing sink stops the recording", () => {
  const members: Uint8Array[] = [];
  let fail = false;
  const rec = new CastRecording((m) => {
    if (fail) throw new Error("disk full");
    members.push(m);
  }, HEADER);
  const kib = enc.encode("A".repeat(1024));
  const add = (i: number) => rec.add({ type: "output", atMs: i, bytes: kib });
  for (let i = 0; i < 300; i++) add(i);
  assertEquals(members.length, 1); // the first block, while the run goes on
  rec.flush();
  rec.flush(); // nothing new: no empty member
  assertEquals(members.length, 2);
  fail = true;
  for (let i = 300; i < 600; i++) add(i);
  assertEquals(rec.finish().truncated, true);
  const read = readRecording(new Uint8Array(members.flatMap((m) => [...m])), { cols: 1, rows: 1 });
  assertEquals(read.inputs!.length, 300, "exactly what the sink took");
});

Deno.test("one read larger than a block is a member of its own and reads back", () => {
  const escapes = new Uint8Array(300 * 1024).fill(0x1b); // 6 bytes each as JSON text
  const { data, members } = record([
    { type: "output", atMs: 1, bytes: enc.encode("before") },
    { type: "output", atMs: 2, bytes: escapes },
    { type: "end", atMs: 3 },
  ]);
  assertEquals(members.length, 3);
  const read = readRecording(data, { cols: 1, rows: 1 });
  assertEquals(read.inputs!.map((i) => i.type === "output" ? i.bytes.length : -1), [
    6,
    escapes.length,
    -1,
  ]);
});

Deno.test("a read that is not UTF-8 keeps its text and its bytes in one member, whatever its size", () => {
  const invalid = (n: number) =>
    Uint8Array.from({ length: n }, (_, i) => [0xff, 0x80, 0x41][i % 3]);
  const inputs: TimedInput[] = [
    { type: "output", atMs: 1, bytes: enc.encode("x".repeat(200 * 1024)) },
    { type: "output", atMs: 2, bytes: invalid(20 * 1024) }, // its lines do not fit the block's rest
    { type: "output", atMs: 3, bytes: invalid(100 * 1024) }, // its lines are larger than a block
    { type: "end", atMs: 4 },
  ];
  const { data, members } = record(inputs);
  assertEquals(members.length, 4);
  for (const member of members.slice(1, 3)) {
    const lines = new TextDecoder().decode(gunzipSync(member)).split("\n");
    assertEquals(lines.map((l) => l.slice(l.indexOf(",") + 1, l.indexOf(",") + 4)), [
      '"o"',
      '"b"',
      "",
    ]);
  }
  const read = readRecording(data, { cols: 1, rows: 1 });
  assertEquals(read.inputs, inputs);
});

Deno.test("a recording cut in the middle of a member (uuldana killed) reads up to the cut", () => {
  const inputs: TimedInput[] = Array.from({ length: 2000 }, (_, i) => ({
    type: "output" as const,
    atMs: i,
    bytes: enc.encode(`line ${i} ${"x".repeat(i % 200)}\r\n`),
  }));
  const { data } = record(inputs);
  const cut = readRecording(data.subarray(0, Math.floor(data.length * 0.7)), { cols: 1, rows: 1 });
  assert(cut.inputs!.length > 100, `${cut.inputs!.length} inputs`);
  assertEquals(cut.inputs!.slice(0, -1), inputs.slice(0, cut.inputs!.length - 1));
  assert(cut.damaged <= 1, "at most the last line is cut");
});

Deno.test("a raw recording reads as its bytes, timed by its timing when it has one", () => {
  const raw = enc.encode("hello world");
  const untimed = readRecording(raw, { cols: 80, rows: 24 });
  assertEquals([untimed.format, untimed.inputs, untimed.bytes], ["raw", null, raw]);
  const timed = readRecording(raw, { cols: 80, rows: 24, timing: "0.5 5\n0.25 6" });
  assertEquals(timed.inputs, [
    { type: "output", atMs: 500, bytes: raw.subarray(0, 5) },
    { type: "output", atMs: 750, bytes: raw.subarray(5) },
    { type: "end", atMs: 750 },
  ]);
});

/** About `size` characters of rows that compress badly (base64 of random bytes). */
function badlyCompressing(seed: number, size: number): string {
  const random = rng(seed);
  const row = new Uint8Array(75);
  const rows: string[] = [];
  for (let n = 0; n < size; n += 102) {
    for (let i = 0; i < row.length; i++) row[i] = Math.floor(random() * 256);
    rows.push(btoa(String.fromCharCode(...row)) + "\r\n");
  }
  return rows.join("");
}

/** A long run as AgentRun carries it out: each input recorded, then read by the detector. */
function longRun(
  path: string,
  stream: Uint8Array,
  opts: { maxBytes: number; minMs: number; flood?: boolean },
) {
  const detector = new Detector(RUN_OPTS);
  const file = RecordingFile.create(path);
  const rec = new CastRecording(file, castHeaderLine(120, 40, META, "xterm-256color"), {
    maxBytes: opts.maxBytes,
    minMsPerState: opts.minMs,
    state: () => detector.saveState(),
  });
  const random = rng(7);
  const decisions: Decision[] = [];
  let verdict: Verdict | null = null;
  let now = 0;
  const take = (input: TimedInput) => {
    rec.add(input);
    verdict ??= detector.input(input);
    decisions.push(...detector.takeDecisions());
    if (!verdict && detector.limitPending) rec.checkpoint();
  };
  for (let at = 0; at < stream.length && !verdict;) {
    now += opts.flood ? 0.01 : random() < 0.1 ? random() * 300 : random() * 3;
    const n = 1 + Math.floor(random() * 4000);
    take({ type: "output", atMs: now, bytes: stream.slice(at, at + n) });
    at += n;
  }
  if (!verdict) take({ type: "end", atMs: now + 100 });
  const { truncated } = rec.finish();
  file.close();
  return { verdict: verdict as Verdict | null, decisions, truncated };
}

Deno.test("a long run's recording keeps its start and its latest part, and replays its last limit decision", () => {
  const dir = Deno.makeTempDirSync();
  try {
    // ~3 MB of tool output, redraws and a transient rate limit, then the usage limit: far more
    // than the 160 KB bound holds once compressed.
    const random = rng(3);
    const words = ["read", "file", "src/x.ts", "ok", "✓", "error:", "42", "the", "diff", "+++"];
    let text = "";
    for (let turn = 0; text.length < 3_000_000; turn++) {
      text += "\x1b[H\x1b[2J" + claudeScreen([`● Turn ${turn}: working…`], "busy").join("\r\n");
      for (let i = 0; i < 60; i++) {
        const n = 3 + Math.floor(random() * 12);
        text += "\r\n" + Array.from({ length: n }, () =>
          words[Math.floor(random() * 10)]).join(" ") +
          ` ${Math.floor(random() * 1e6)}`;
      }
      if (turn === 40) {
        text += "\x1b[H\x1b[2J" +
          claudeScreen(["  ⎿  API Error: Rate limit reached"], "busy").join("\r\n");
      }
    }
    text += "\x1b[H\x1b[2J" +
      claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "menu").join(
        "\r\n",
      );
    const path = `${dir}/recordings/run-1.cast.gz`;
    const maxBytes = 160 * 1024;
    const live = longRun(path, enc.encode(text), { maxBytes, minMs: 0 });
    assertEquals(live.verdict?.kind, "limit");
    assertEquals(live.truncated, false);

    // The bound: head, older and newer parts together.
    const sizes = [path, ...recordingPartPaths(path)].map((p) => Deno.statSync(p).size);
    const total = sizes.reduce((a, b) => a + b, 0);
    assert(total <= maxBytes, `${total} bytes kept (${sizes.join(" + ")})`);
    assert(sizes[0] > maxBytes / 3, "the start is kept");

    const read = readRecording(readRecordingFiles(path), { cols: 1, rows: 1 });
    assertEquals(read.damaged, 0);
    assert(read.span.from !== null, "the replay begins at a saved state");
    assert(read.inputs![0].type === "output" && read.inputs![0].atMs < 1000, "from the start");
    const from = read.span.from!;
    const replayed = replay(spanInputs(read)!, RUN_OPTS, from);
    assertEquals(replayed.verdict, live.verdict);
    assertEquals(replayed.decisions, live.decisions.slice(from.recorded));
    assertEquals(replayed.decisions.at(-1)?.verdict, "acted");
    assert(from.offset > text.length / 2, `the replay begins late in the run (${from.offset})`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a run killed while it records a recent part still reads and replays from its state", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const path = `${dir}/run-2.cast.gz`;
    const detector = new Detector(RUN_OPTS);
    const file = RecordingFile.create(path);
    const rec = new CastRecording(file, HEADER, {
      maxBytes: 40 * 1024,
      minMsPerState: 0,
      state: () => detector.saveState(),
    });
    const random = rng(5);
    for (let i = 0; i < 4000; i++) {
      const line = `line ${i} ${random()} ${random()}\r\n`.repeat(20);
      const input: TimedInput = { type: "output", atMs: i * 10, bytes: enc.encode(line) };
      rec.add(input);
      detector.input(input);
    }
    rec.flush(); // killed here: no finish, no close
    const read = readRecording(readRecordingFiles(path), { cols: 1, rows: 1 });
    assert(read.span.from !== null);
    const replayed = replay(spanInputs(read)!, RUN_OPTS, read.span.from!);
    assertEquals(replayed.offset, detector.offset);
    assertEquals(replayed.ending, "cut");
    file.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("with the default bound, a limit that comes after the first 4 MB is replayed to the same decision", () => {
  const dir = Deno.makeTempDirSync();
  try {
    // ~7 MB of output that compresses badly: past 4 MB compressed.
    const text = badlyCompressing(11, 7_000_000) + "\x1b[H\x1b[2J" +
      claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "menu").join(
        "\r\n",
      );
    const path = `${dir}/run-3.cast.gz`;
    const live = longRun(path, enc.encode(text), {
      maxBytes: DEFAULT_RECORDING_BYTES,
      minMs: MIN_MS_PER_STATE,
    });
    assertEquals(live.verdict?.kind, "limit");
    const total = [path, ...recordingPartPaths(path)].reduce(
      (n, p) => n + Deno.statSync(p).size,
      0,
    );
    assert(total <= DEFAULT_RECORDING_BYTES, `${total} bytes kept`);
    const read = readRecording(readRecordingFiles(path), { cols: 1, rows: 1 });
    const from = read.span.from!;
    assert(from.offset > 4_000_000, `the replay begins past the first 4 MB (${from.offset})`);
    const replayed = replay(spanInputs(read)!, RUN_OPTS, from);
    assertEquals(replayed.verdict, live.verdict);
    assertEquals(replayed.decisions, live.decisions.slice(from.recorded));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("in a flood the output past a full part is dropped, and a limit at its end is still replayed", () => {
  const dir = Deno.makeTempDirSync();
  try {
    // ~6 MB in well under 250 ms of the run's clock, then the limit: one part, then a gap until
    // the detector holds the limit and the recording saves its state.
    const text = badlyCompressing(13, 6_000_000) + "\x1b[H\x1b[2J" +
      claudeScreen(["  ⎿  You've hit your session limit · resets 3:01am (UTC)"], "menu").join(
        "\r\n",
      );
    const path = `${dir}/run-4.cast.gz`;
    const live = longRun(path, enc.encode(text), {
      maxBytes: DEFAULT_RECORDING_BYTES,
      minMs: MIN_MS_PER_STATE,
      flood: true,
    });
    assertEquals(live.verdict?.kind, "limit");
    const total = [path, ...recordingPartPaths(path)].reduce(
      (n, p) => n + Deno.statSync(p).size,
      0,
    );
    // The head and one part (the base64 compresses to ~75%: all of it would be ~4.5 MB).
    assert(total < 3_500_000, `the flood was partly dropped (${total} bytes kept)`);
    const read = readRecording(readRecordingFiles(path), { cols: 1, rows: 1 });
    const from = read.span.from!;
    assert(from.offset > 5_900_000, `the state is the one before the limit (${from.offset})`);
    const replayed = replay(spanInputs(read)!, RUN_OPTS, from);
    assertEquals(replayed.verdict, live.verdict);
    assertEquals(replayed.decisions, live.decisions.slice(from.recorded));
    assertEquals(replayed.decisions.at(-1)?.verdict, "acted");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
