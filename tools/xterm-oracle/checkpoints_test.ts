import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CORPUS_DIR, VT_CORPUS_DIR } from "../../tests/_paths.ts";
import { esuSpots, MAX_SPOTS, pickCheckpoints, quietSpots } from "./checkpoints.ts";

const enc = new TextEncoder();

Deno.test("quiet spots: the offset before each pause of 0.25 s or more, at most eight", () => {
  const timing = "0.01 10\n0.30 5\n0.1 3\n0.2496 4\n1.23456 2\n";
  assertEquals(quietSpots(timing), [
    { offset: 10, quiet_after_s: 0.3 },
    { offset: 22, quiet_after_s: 1.235 },
  ]);
  const many = Array.from({ length: 20 }, () => "0.5 1").join("\n");
  assertEquals(quietSpots(many).length, MAX_SPOTS);
});

Deno.test("ESU spots are spread evenly; a spot that is also quiet stays quiet", () => {
  const frame = enc.encode("\x1b[?2026hx\x1b[?2026l");
  const bytes = new Uint8Array(frame.length * 16);
  for (let i = 0; i < 16; i++) bytes.set(frame, i * frame.length);
  const ends = esuSpots(bytes).map((s) => s.offset);
  assertEquals(ends, [1, 3, 5, 7, 9, 11, 13, 15].map((k) => k * frame.length));
  // A pause right after the third frame: that offset is an ESU spot too.
  const both = pickCheckpoints(bytes, `0 ${frame.length * 3}\n0.4 ${frame.length * 13}\n`);
  assertEquals(both.slice(0, 3), [
    { offset: frame.length, quiet_after_s: null, after: "ESU" },
    { offset: frame.length * 3, quiet_after_s: 0.4 },
    { offset: frame.length * 5, quiet_after_s: null, after: "ESU" },
  ]);
  assertEquals(both.length, 8);
});

Deno.test("the corpus' quiet checkpoints are the ones this rule picks", () => {
  let checked = 0;
  for (const dir of [VT_CORPUS_DIR, AGENT_CORPUS_DIR]) {
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
      const base = join(dir, f.slice(0, -5));
      if (!existsSync(`${base}.timing`)) continue;
      const meta = JSON.parse(readFileSync(`${base}.json`, "utf8"));
      const stored = meta.checkpoints.filter((c: { after?: string }) => c.after !== "ESU")
        .map((c: { offset: number; quiet_after_s: number }) => ({
          offset: c.offset,
          quiet_after_s: c.quiet_after_s,
        }));
      // vttest's 25 menu screens were all kept; every other recording has at most eight.
      const max = f === "vttest-1-2.json" ? 25 : MAX_SPOTS;
      assertEquals(quietSpots(readFileSync(`${base}.timing`, "utf8"), max), stored, base);
      checked++;
    }
  }
  assertEquals(checked, 47);
});
