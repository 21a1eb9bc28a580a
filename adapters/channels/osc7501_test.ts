import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import { OSC7501_MAX, Osc7501Reader, programStatusEvent } from "./osc7501.ts";

const DIR = join(CHANNELS_DIR, "codex-0.171.0", "session");
const RECORDED = readFileSync(join(DIR, "osc7501.bin"));
const STATES = readFileSync(join(DIR, "osc7501.txt"), "utf8").trim().split("\n")
  .map((l) => l.replace(/^state=/, "").split(":")[0]);
const enc = new TextEncoder();
// The first report, `ESC]7501;state=idle:app=codex ESC\`.
const FIRST = 29;

Deno.test("real Codex 0.171.0's reports, whole or split at every byte, among other output", () => {
  assertEquals(new Osc7501Reader().feed(RECORDED).map((s) => s.state), STATES);
  const byByte = new Osc7501Reader();
  const states: string[] = [];
  for (const b of RECORDED) states.push(...byByte.feed(Uint8Array.of(b)).map((s) => s.state));
  assertEquals(states, STATES);
  // Between screen output, a title (OSC 0) and an unfinished sequence's stray ESC.
  const noisy = new Uint8Array([
    ...enc.encode("\x1b]0;codex\x07\x1b[2J• hello\x1b"),
    ...RECORDED.subarray(0, FIRST),
    ...enc.encode("\x1b]7501\x1b[1m"),
    ...RECORDED.subarray(FIRST),
  ]);
  const mixed = new Osc7501Reader().feed(noisy);
  assertEquals(mixed.map((s) => s.state), STATES);
  assertEquals(mixed[0], { state: "idle", app: "codex" });
});

Deno.test("a turn's states as events; an over-long or malformed payload is skipped", () => {
  assertEquals(
    ["working", "done", "idle", "error", "blocked", "clear"].map((state) =>
      programStatusEvent({ state })
    ),
    [{ type: "busy" }, { type: "idle" }, { type: "idle" }, { type: "idle" }, null, null],
  );
  const r = new Osc7501Reader();
  const long = `\x1b]7501;state=working:msg=${"A".repeat(OSC7501_MAX)}\x1b\\`;
  assertEquals(
    r.feed(enc.encode(long + "\x1b]7501;state=DROP TABLE\x07\x1b]7501;state=idle\x07")),
    [
      { state: "idle" },
    ],
  );
});
