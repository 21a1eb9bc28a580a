import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { scanTextRuns, splitRun, type TextRun } from "./raw_strings.ts";

const enc = new TextEncoder();

function blob(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) => typeof p === "string" ? enc.encode(p) : new Uint8Array(p));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

function pieces(bytes: Uint8Array): string[] {
  const runs: TextRun[] = [];
  scanTextRuns(bytes, (r) => runs.push(r));
  return runs.flatMap((r) => splitRun(bytes, r).map((p) => p.value));
}

Deno.test("curly quotes and middle dots survive, control bytes end a run", () => {
  const bytes = blob([0, 1, 2], "You’ve used 90% · resets 3pm", [0, 0xff, 7], "short", [0]);
  assertEquals(pieces(bytes), ["You’ve used 90% · resets 3pm"]);
});

Deno.test("a run packed from Rust constants splits where a sentence meets the next", () => {
  const bytes = blob(
    [0],
    "Add credits to continue.Your workspace is out of credits.Request increase?Hide future remindersYou’re close to your limit on GitHub",
    [0],
  );
  assertEquals(pieces(bytes), [
    "Add credits to continue.",
    "Your workspace is out of credits.",
    "Request increase?",
    "Hide future reminders",
    "You’re close to your limit on GitHub",
  ]);
});

Deno.test("Copilot's 0xC0 fill marker stays inside the run as ${…}", () => {
  const bytes = blob([0, 62], "Requests for the month.", [0xc0, 0x4d], " Upgrade your plan.", [0]);
  assertEquals(pieces(bytes), [">Requests for the month.${…} Upgrade your plan."]);
});

Deno.test("offsets are byte offsets in the blob", () => {
  const bytes = blob([0, 0, 0], "limit · reached here", [0]);
  const runs: TextRun[] = [];
  scanTextRuns(bytes, (r) => runs.push(r));
  assertEquals(runs, [{ start: 3, end: bytes.length - 1 }]);
});
