import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { timingInputs } from "./script_timing.ts";

Deno.test("classic script timing: chunks at their times, the rest and the end at the last", () => {
  const bytes = new TextEncoder().encode("abcdefgh");
  assertEquals(timingInputs(bytes, "0.5 3\nnot a line\n0.000001 2\n"), [
    { type: "output", atMs: 500, bytes: bytes.subarray(0, 3) },
    { type: "output", atMs: 500.001, bytes: bytes.subarray(3, 5) },
    { type: "output", atMs: 500.001, bytes: bytes.subarray(5) },
    { type: "end", atMs: 500.001 },
  ]);
  assertEquals(timingInputs(bytes, ""), null);
});
