import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { bytesOf } from "./_bytes_test_util.ts";
import { type FillMarker, scanTextRuns, splitRun, type TextRun } from "./raw_strings.ts";

function pieces(bytes: Uint8Array, fill?: FillMarker): string[] {
  const runs: TextRun[] = [];
  scanTextRuns(bytes, (r) => runs.push(r), 8, 0, bytes.length, fill);
  return runs.flatMap((r) => splitRun(bytes, r, fill).map((p) => p.value));
}

Deno.test("curly quotes and middle dots survive, control bytes end a run", () => {
  const bytes = bytesOf([0, 1, 2], "You’ve used 90% · resets 3pm", [0, 0xff, 7], "short", [0]);
  assertEquals(pieces(bytes), ["You’ve used 90% · resets 3pm"]);
});

Deno.test("a run packed from Rust constants splits where a sentence meets the next", () => {
  const bytes = bytesOf(
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

Deno.test("Copilot's 0xC0 fill marker stays inside the run as ${…}, only where asked for", () => {
  const bytes = bytesOf([0, 62], "Requests for the month.", [0xc0, 0x4d], " Upgrade your plan.", [
    0,
  ]);
  assertEquals(pieces(bytes, 0xc0), [">Requests for the month.${…} Upgrade your plan."]);
  assertEquals(pieces(bytes), [">Requests for the month.", "M Upgrade your plan."]);
});

Deno.test("offsets are byte offsets in the blob", () => {
  const bytes = bytesOf([0, 0, 0], "limit · reached here", [0]);
  const runs: TextRun[] = [];
  scanTextRuns(bytes, (r) => runs.push(r));
  assertEquals(runs, [{ start: 3, end: bytes.length - 1 }]);
});
