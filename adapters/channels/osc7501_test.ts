import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import { Terminal } from "../../src/vt/mod.ts";
import { OSC7501, OSC7501_MAX, parseProgramStatus, programStatusEvent } from "./osc7501.ts";

const DIR = join(CHANNELS_DIR, "codex-0.171.0", "session");
const RECORDED = readFileSync(join(DIR, "osc7501.bin"));
const STATES = readFileSync(join(DIR, "osc7501.txt"), "utf8").trim().split("\n")
  .map((l) => l.replace(/^state=/, "").split(":")[0]);
const enc = new TextEncoder();
// The first report, `ESC]7501;state=idle:app=codex ESC\`.
const FIRST = 29;

/** The reports in output written in `chunks`, as the VT parser finds them and this module reads them. */
function reports(...chunks: Uint8Array[]) {
  const t = new Terminal({ cols: 80, rows: 24 });
  const texts: string[] = [];
  t.onOsc(OSC7501, (text) => texts.push(text));
  for (const c of chunks) t.write(c);
  return texts.flatMap((text) => parseProgramStatus(text) ?? []);
}

Deno.test("real Codex 0.171.0's reports, whole or split at every byte, among other output", () => {
  assertEquals(reports(RECORDED).map((s) => s.state), STATES);
  const states = reports(...[...RECORDED].map((b) => Uint8Array.of(b))).map((s) => s.state);
  assertEquals(states, STATES);
  // Between screen output, a title (OSC 0) and an unfinished sequence's stray ESC.
  const noisy = new Uint8Array([
    ...enc.encode("\x1b]0;codex\x07\x1b[2J• hello\x1b"),
    ...RECORDED.subarray(0, FIRST),
    ...enc.encode("\x1b]7501\x1b[1m"),
    ...RECORDED.subarray(FIRST),
  ]);
  const mixed = reports(noisy);
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
  const long = `\x1b]7501;state=working:msg=${"A".repeat(OSC7501_MAX)}\x1b\\`;
  assertEquals(
    reports(enc.encode(long + "\x1b]7501;state=DROP TABLE\x07\x1b]7501;state=idle\x07")),
    [
      { state: "idle" },
    ],
  );
});
