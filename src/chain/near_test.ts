import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import {
  clock,
  isLimited,
  isNear,
  type LimitEntry,
  limitState,
  NEAR_HOLD_MS,
  newLimitEntry,
  newNearEntry,
} from "./limits.ts";
import { earlyStep, eligible, firstStep, nextStep } from "./decide.ts";
import { member } from "./_members_test_util.ts";

const T0 = new Date("2026-12-04T18:13:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const MIN = 60_000;
const WARNING = "You've used 91% of your 5-hour limit · resets 9:13pm (UTC)";
const seen = (now: Date, previous: LimitEntry | null = null) => ({
  agent: "claude",
  runId: 7,
  now,
  previous,
});
const warned = (resetsAt: string | null = at(180 * MIN).toISOString()) =>
  newNearEntry({ message: WARNING, resetsAt }, seen(T0))!;

Deno.test("a warning is kept as near its limit until the reset it states, never limited", () => {
  const e = warned();
  assertEquals(e, {
    agent: "claude",
    kind: "usage",
    message: WARNING,
    seenAt: T0.toISOString(),
    until: "2026-12-04T21:13:00.000Z",
    runId: 7,
    strikes: 0,
    near: true,
  });
  assertEquals(isLimited(e, T0), false);
  assertEquals(isNear(e, at(179 * MIN)), true);
  // Its reset passing replaces it: no longer near.
  assertEquals(isNear(e, at(180 * MIN)), false);
  // Without a reset it counts for NEAR_HOLD_MS.
  const none = warned(null);
  assertEquals(none.until, null);
  assertEquals(isNear(none, at(NEAR_HOLD_MS - 1)), true);
  assertEquals(isNear(none, at(NEAR_HOLD_MS)), false);
  // A reset already past is not kept.
  assertEquals(warned(at(-MIN).toISOString()).until, null);
});

Deno.test("a warning never replaces a real limit that holds; a later real limit replaces it", () => {
  const limit = newLimitEntry(
    { kind: "usage", message: "You've hit your limit", resetsAt: at(60 * MIN).toISOString() },
    seen(T0),
  );
  assertEquals(newNearEntry({ message: WARNING, resetsAt: null }, seen(at(MIN), limit)), null);
  // Once the limit is over, a warning is kept.
  assertEquals(
    newNearEntry({ message: WARNING, resetsAt: null }, seen(at(61 * MIN), limit))?.near,
    true,
  );
  // A real limit after a warning is a real limit, its first (no back-off from the warning).
  const after = newLimitEntry(
    { kind: "usage", message: "You've hit your limit", resetsAt: null },
    seen(at(180 * MIN + MIN), warned()),
  );
  assertEquals([after.near, after.strikes, isLimited(after, at(180 * MIN + 2 * MIN))], [
    undefined,
    0,
    true,
  ]);
  // The same warning again, still near: nothing new to keep.
  assertEquals(
    newNearEntry({ message: WARNING, resetsAt: at(180 * MIN).toISOString() }, {
      ...seen(at(MIN)),
      previous: warned(),
    }),
    null,
  );
});

Deno.test("near its limit, the agent is still chosen: the chain starts it", () => {
  const list = [member("claude"), member("codex")];
  const state = {
    members: list,
    limits: new Map([["claude", warned()]]),
    refused: new Set<string>(),
    now: at(MIN),
  };
  assertEquals(eligible(state, list[0]), true);
  const first = firstStep(state, false);
  assertEquals(first.kind === "start" && first.member.name, "claude");
  assertEquals(first.kind === "start" && first.notes, []);
  const next = nextStep(state, list[1], "wrap");
  assertEquals(next.kind === "start" && next.member.name, "claude");
});

Deno.test("limits shows a warning as near its limit, then as over", () => {
  const state = limitState(warned(), at(MIN));
  assertEquals([state.limited, state.near, state.warning], [false, true, true]);
  // Local wall-clock times, as the user's terminal shows them (clock() is limits_test's).
  assertEquals(
    state.line,
    `claude is near its limit until ${clock(at(180 * MIN), at(MIN))} (seen ${
      clock(T0, at(MIN))
    } in run 7); it still works`,
  );
  const over = limitState(warned(), at(181 * MIN));
  assertEquals([over.limited, over.near, over.warning], [false, false, true]);
  assertMatch(over.line, /^claude was near its limit \(seen .* in run 7, over at .*\)$/);
});

Deno.test("the early step names the next agent, never the warned one, never a wait", () => {
  const list = [member("claude"), member("codex"), member("gemini")];
  const limited = newLimitEntry(
    { kind: "usage", message: "limit", resetsAt: at(60 * MIN).toISOString() },
    { ...seen(T0), agent: "codex" },
  );
  const state = (limits: [string, LimitEntry][]) => ({
    members: list,
    limits: new Map(limits),
    refused: new Set<string>(),
    now: at(MIN),
  });
  assertEquals(earlyStep(state([["claude", warned()]]), list[0])?.member.name, "codex");
  assertEquals(
    earlyStep(state([["claude", warned()], ["codex", limited]]), list[0])?.member.name,
    "gemini",
  );
  // Everyone else limited: nobody to move on to; the warned agent goes on.
  const gemini = { ...limited, agent: "gemini" };
  assertEquals(earlyStep(state([["codex", limited], ["gemini", gemini]]), list[0]), null);
});
