import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import { GEMINI_DEBUG_LOG, geminiDebugLine } from "./gemini_log.ts";

const NOW = { now: new Date("2026-12-04T18:49:50Z"), timeZone: "UTC" };
const read = (name: string) =>
  readFileSync(join(CHANNELS_DIR, "gemini-0.61.0", "debug-log", name), "utf8").split("\n");

Deno.test("real Gemini 0.61.0 retrying a per-minute quota: each retried 429 a rate limit with its attempt", () => {
  const events = read("per-minute-quota.log").flatMap((l) => geminiDebugLine(l, NOW));
  // Its wait (`Retrying after 5099ms...`) is on the entry's next line: not read (its waits, at
  // most 30 s, never reach the policy's 5 minutes).
  assertEquals(events.map((e) => e.type === "limit" && [e.kind, e.attempt, e.waitSeconds]), [
    ["rate", 1, undefined],
    ["rate", 2, undefined],
    ["rate", 3, undefined],
    ["rate", 4, undefined],
  ]);
  const [first] = events;
  assert(first.type === "limit" && /^You exceeded your current quota/.test(first.message));
  assert(first.type === "limit" && first.status === 429 && first.code === "RESOURCE_EXHAUSTED");
});

Deno.test("real Gemini 0.61.0 at its daily quota writes no retry line: nothing from its debug log", () => {
  assertEquals(read("daily-quota.log").flatMap((l) => geminiDebugLine(l, NOW)), []);
});

Deno.test("Gemini's generic retry path, a hard quota in its own words, a 5xx, unknown lines", () => {
  // Gemini 0.61.0's logRetryAttempt (its generic path: a 429 without quota details).
  const generic = geminiDebugLine(
    "[2026-12-04T18:49:50.829Z] [WARN] Attempt 2 failed with status 429. Retrying with backoff... " +
      'ApiError: {"error":{"code":429}}',
    NOW,
  );
  assertEquals(generic.map((e) => e.type === "limit" && [e.kind, e.attempt]), [["rate", 2]]);
  const hard = geminiDebugLine(
    "[2026-12-04T18:49:50.829Z] [WARN] Attempt 1 failed: You have exhausted your daily quota on " +
      "this model. Retrying after 1000ms...",
    NOW,
  );
  assertEquals(hard.map((e) => e.type === "limit" && e.kind), ["usage"]);
  for (
    const line of [
      "[2026-12-04T18:49:50.829Z] [WARN] Attempt 1 failed with status 503. Retrying with backoff...",
      "[2026-12-04T18:49:50.829Z] [WARN] Attempt 1 failed with 5xx error. Retrying with backoff...",
      "Attempt 1 failed with status 429. Retrying with backoff...", // not an entry's first line
      "[2026-12-04T18:49:50.829Z] [DEBUG] Experiments loaded {",
      "[garbage",
      "",
    ]
  ) assertEquals(geminiDebugLine(line, NOW), [], line);
});

Deno.test("the debug log is off when the user names their own file", () => {
  const check = (env: Record<string, string>) =>
    GEMINI_DEBUG_LOG.offReason({ extraArgs: [], env, version: "0.61.0" });
  assertEquals(check({}), null);
  assert(check({ GEMINI_DEBUG_LOG_FILE: "/home/me/gemini.log" })?.includes("/home/me/gemini.log"));
});

// Gemini CLI 0.61.0 against the mock's gemini-capacity lane (Code Assist's 429
// MODEL_CAPACITY_EXHAUSTED), 2026-12-05: its two silent retries, verbatim; then it loops without a line.
const CAPACITY = [
  "[2026-12-05T05:14:37.824Z] [WARN] Attempt 1 failed: No capacity available for model " +
  "gemini-2.5-pro on the server. Retrying after 1063ms...",
  "[2026-12-05T05:14:38.898Z] [WARN] Attempt 2 failed: No capacity available for model " +
  "gemini-2.5-pro on the server. Retrying after 3193ms...",
];

Deno.test("real Gemini 0.61.0 in its capacity loop: each silent retry an endless rate limit", () => {
  const events = CAPACITY.flatMap((l) => geminiDebugLine(l, NOW));
  assertEquals(
    events.map((e) => e.type === "limit" && [e.kind, e.attempt, e.waitSeconds, e.endless]),
    [["rate", 1, 1, true], ["rate", 2, 3, true]],
  );
  assert(events[0].type === "limit");
  assertEquals(events[0].message, "No capacity available for model gemini-2.5-pro on the server");
  // Gemini's own capacity words, however long a reset they state: it retries them by itself.
  const own = geminiDebugLine(
    "[2026-12-05T05:14:37.824Z] [WARN] Attempt 1 failed: You have exhausted your capacity on " +
      "this model. Your quota will reset after 5s.. Retrying after 5930ms...",
    NOW,
  );
  assertEquals(own.map((e) => e.type === "limit" && [e.kind, e.endless]), [["rate", true]]);
  // A per-minute quota it retries is no endless retry.
  const perMinute = read("per-minute-quota.log").flatMap((l) => geminiDebugLine(l, NOW));
  assert(perMinute.every((e) => e.type === "limit" && !e.endless));
});
