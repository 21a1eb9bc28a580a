import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { openCodeId } from "./opencode_id.ts";

Deno.test("openCodeId: OpenCode's layout, ascending ids sort by time, descending the other way", () => {
  const zeros = () => new Uint8Array(14);
  // 1764547200000 ms × 4096 + 1, low 48 bits, as OpenCode's Identifier.create computes it.
  const expected = ((1764547200000n * 4096n + 1n) & ((1n << 48n) - 1n)).toString(16);
  assertEquals(
    openCodeId("msg", { now: 1764547200000, random: zeros }),
    `msg_${expected}00000000000000`,
  );
  const a = openCodeId("msg", { now: 1764547200001 });
  const b = openCodeId("msg", { now: 1764547200001 });
  const c = openCodeId("msg", { now: 1764547260000 });
  assertMatch(a, /^msg_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
  assert(a < b && b < c, "same millisecond: the counter keeps them ordered");
  const s1 = openCodeId("ses", { descending: true, now: 1764547200000 });
  const s2 = openCodeId("ses", { descending: true, now: 1764547260000 });
  assert(s2 < s1, "a newer session sorts first");
});
