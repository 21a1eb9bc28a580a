import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseDuration, parseResetTime } from "./reset_time.ts";

const now = new Date("2026-03-10T02:00:00Z");

Deno.test("time of day: later today, or tomorrow when already past", () => {
  assertEquals(parseResetTime("resets 3:01am (UTC)", now), "2026-03-10T03:01:00.000Z");
  assertEquals(parseResetTime("resets 1:59am (UTC)", now), "2026-03-11T01:59:00.000Z");
  assertEquals(parseResetTime("Access resets at 3:06 AM UTC.", now), "2026-03-10T03:06:00.000Z");
  assertEquals(parseResetTime("resets 9pm (UTC)", now), "2026-03-10T21:00:00.000Z");
  assertEquals(parseResetTime("resets 12am (UTC)", now), "2026-03-11T00:00:00.000Z");
  assertEquals(parseResetTime("resets 12:30pm (UTC)", now), "2026-03-10T12:30:00.000Z");
});

Deno.test("zones: IANA names, fixed offsets, abbreviations, and the local zone when none", () => {
  // Bogota is UTC-5 (no DST).
  assertEquals(
    parseResetTime("Your limit will reset at 3pm (America/Bogota).", now),
    "2026-03-10T20:00:00.000Z",
  );
  assertEquals(parseResetTime("resets at 10:57 PM GMT-3.", now), "2026-03-11T01:57:00.000Z");
  assertEquals(parseResetTime("resets at 1:00 AM PST", now), "2026-03-10T09:00:00.000Z");
  assertEquals(
    parseResetTime("or try again at 3:02 AM.", now, "Asia/Tokyo"),
    "2026-03-10T18:02:00.000Z",
  );
  assertEquals(parseResetTime("or try again at 3:02 AM.", now, "UTC"), "2026-03-10T03:02:00.000Z");
});

Deno.test("dates: later this year, next year when past, explicit years", () => {
  assertEquals(parseResetTime("resets Dec 3, 1:15am (UTC)", now), "2026-12-03T01:15:00.000Z");
  assertEquals(parseResetTime("resets Jan 3 at 1:15pm (UTC)", now), "2027-01-03T13:15:00.000Z");
  assertEquals(
    parseResetTime("try again at Dec 2nd, 2026 7:52 PM.", now, "UTC"),
    "2026-12-02T19:52:00.000Z",
  );
  assertEquals(
    parseResetTime("reset on April 20, 2026 at 2:00 AM (UTC)", now),
    "2026-04-20T02:00:00.000Z",
  );
});

Deno.test("relative waits and epochs", () => {
  assertEquals(parseResetTime("try again in 2 hours.", now), "2026-03-10T04:00:00.000Z");
  assertEquals(parseResetTime("Please retry after 2733 seconds.", now), "2026-03-10T02:45:33.000Z");
  assertEquals(parseResetTime("reset after 1h2m3s.", now), "2026-03-10T03:02:03.000Z");
  // A provider's quota error as Qwen Code 0.24.4 shows it (its StopFailure hook carries the same).
  assertEquals(
    parseResetTime(
      "Your quota has been exhausted and will reset at 2026-03-10T05:52:26.000Z.",
      now,
    ),
    "2026-03-10T05:52:26.000Z",
  );
  assertEquals(parseResetTime("resets 2026-03-10T05:52+02:00", now), "2026-03-10T03:52:00.000Z");
  assertEquals(
    parseResetTime("Claude AI usage limit reached|1773111600", now),
    "2026-03-10T03:00:00.000Z",
  );
  assertEquals(parseResetTime("You've hit your session limit", now), null);
  assertEquals(parseResetTime("retrying in 13s attempt #1", now), null);
});

Deno.test("durations", () => {
  assertEquals(parseDuration("13s"), 13);
  assertEquals(parseDuration("5 days 22 hours 11 minutes"), 5 * 86400 + 22 * 3600 + 660);
  assertEquals(parseDuration("1m 5s"), 65);
  assertEquals(parseDuration("1h2m3.5s"), 3724);
  assertEquals(parseDuration("soon"), null);
});

Deno.test("relative resets as the agents print them: approximate, compact, spelled out", () => {
  // pi 0.73 (issue 29): a provider's wait, approximate.
  assertEquals(parseResetTime("Try again in ~142 min.", now), "2026-03-10T04:22:00.000Z");
  assertEquals(parseResetTime("try again in about 2 hours", now), "2026-03-10T04:00:00.000Z");
  assertEquals(parseResetTime("try again in 3h 20m", now), "2026-03-10T05:20:00.000Z");
  assertEquals(
    parseResetTime("Go usage limit reached. It will reset in 4 days 20 hours.", now),
    "2026-03-14T22:00:00.000Z",
  );
  // Claude's fast mode (a fallback: it goes on at normal speed), its reset all the same.
  assertEquals(
    parseResetTime("Fast limit reached, fast mode paused · resets in 12m", now),
    "2026-03-10T02:12:00.000Z",
  );
  // Gemini: a per-minute 429's suggestion, and a capacity's reset (Go's duration format).
  assertEquals(parseResetTime("Suggested retry after 60s.", now), "2026-03-10T02:01:00.000Z");
  assertEquals(
    parseResetTime("Your quota will reset after 2h17m0s.", now),
    "2026-03-10T04:17:00.000Z",
  );
  assertEquals(parseResetTime("resets in 1 hr 5 min", now), "2026-03-10T03:05:00.000Z");
  // A retry's countdown is not when the limit resets.
  assertEquals(parseResetTime("retrying in 3h 20m attempt #2", now), null);
});

Deno.test("dates with years, in either order of day and time", () => {
  assertEquals(
    parseResetTime("or try again at Apr 28th, 2026 10:03 PM.", now, "UTC"),
    "2026-04-28T22:03:00.000Z",
  );
  // A year shown is kept even when the date has passed.
  assertEquals(
    parseResetTime("try again at Jan 3rd, 2026 7:52 PM.", now, "UTC"),
    "2026-01-03T19:52:00.000Z",
  );
  assertEquals(
    parseResetTime("Please try again after April 20, 2026 at 2:00 AM (UTC).", now),
    "2026-04-20T02:00:00.000Z",
  );
});
