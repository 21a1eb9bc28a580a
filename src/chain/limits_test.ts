import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import {
  AGAIN_WINDOW_MS,
  availableAt,
  BACKOFF_FIRST_MS,
  BACKOFF_MAX_MS,
  HOLD_MS,
  isLimited,
  limitedLine,
  type LimitEntry,
  newLimitEntry,
} from "./limits.ts";

const T0 = new Date("2026-12-01T01:12:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const usage = (resetsAt: string | null) => ({ kind: "usage" as const, message: "limit", resetsAt });
const seen = (now: Date, previous: LimitEntry | null = null) => ({
  agent: "claude",
  runId: 42,
  now,
  previous,
});

Deno.test("a reset time ahead is taken as it is", () => {
  const e = newLimitEntry(usage(at(109 * MIN).toISOString()), seen(T0));
  assertEquals(e, {
    agent: "claude",
    kind: "usage",
    message: "limit",
    seenAt: T0.toISOString(),
    until: at(109 * MIN).toISOString(),
    runId: 42,
    strikes: 0,
  });
  assertEquals(isLimited(e, at(108 * MIN)), true);
  assertEquals(isLimited(e, at(109 * MIN)), false, "eligible again at its reset");
});

Deno.test("no reset time: held for the kind's hold, from when it was seen", () => {
  const e = newLimitEntry(usage(null), seen(T0));
  assertEquals(e.until, null);
  assertEquals(availableAt(e), at(HOLD_MS.usage));
  const rate = newLimitEntry({ kind: "rate", message: "429", resetsAt: null }, seen(T0));
  assertEquals(availableAt(rate), at(HOLD_MS.rate));
});

Deno.test("limited again right after its reset with no new time: backed off, doubling, capped", () => {
  let prev = newLimitEntry(usage(at(10 * MIN).toISOString()), seen(T0));
  let now = at(10 * MIN + 5_000);
  const waits: number[] = [];
  for (let i = 0; i < 8; i++) {
    // The agent shows its old (now past) reset time again.
    const e = newLimitEntry(usage(prev.until), seen(now, prev));
    waits.push(Date.parse(e.until!) - now.getTime());
    assertEquals(e.strikes, i + 1);
    prev = e;
    now = new Date(Date.parse(e.until!) + 1_000);
  }
  assertEquals(waits.slice(0, 4), [
    BACKOFF_FIRST_MS,
    2 * BACKOFF_FIRST_MS,
    4 * BACKOFF_FIRST_MS,
    8 * BACKOFF_FIRST_MS,
  ]);
  assertEquals(Math.max(...waits), BACKOFF_MAX_MS);
});

Deno.test("limited again right after its reset with a new time ahead: the new time, no strike", () => {
  const prev = newLimitEntry(usage(at(10 * MIN).toISOString()), seen(T0));
  const tomorrow = at(24 * 60 * MIN).toISOString();
  const e = newLimitEntry(usage(tomorrow), seen(at(10 * MIN + 5_000), prev));
  assertEquals([e.until, e.strikes], [tomorrow, 0]);
});

Deno.test("right after its reset, the same time of day read as tomorrow's is stale: backed off", () => {
  const prev = newLimitEntry(usage(at(10 * MIN).toISOString()), seen(T0));
  // "resets 1:22am" seen again at 1:22:30 resolves to tomorrow's 1:22.
  const tomorrowSame = at(10 * MIN + 24 * 60 * MIN).toISOString();
  const e = newLimitEntry(usage(tomorrowSame), seen(at(10 * MIN + 30_000), prev));
  assertEquals(e.strikes, 1);
  assertEquals(Date.parse(e.until!), at(10 * MIN + 30_000).getTime() + BACKOFF_FIRST_MS);
});

Deno.test("a limit long after the last reset is a new one, not a strike", () => {
  const prev = newLimitEntry(usage(at(10 * MIN).toISOString()), seen(T0));
  const e = newLimitEntry(usage(null), seen(at(10 * MIN + AGAIN_WINDOW_MS + 1), prev));
  assertEquals([e.until, e.strikes], [null, 0]);
});

Deno.test("limitedLine says until when, when it was seen and in which run", () => {
  const e = newLimitEntry(usage(at(109 * MIN).toISOString()), seen(T0));
  const hm = (d: Date) =>
    `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  assertEquals(
    limitedLine(e, T0),
    `claude is limited until ${hm(at(109 * MIN))} (seen ${hm(T0)} in run 42)`,
  );
  assertMatch(limitedLine(newLimitEntry(usage(null), seen(T0)), T0), /no reset time was shown/);
});
