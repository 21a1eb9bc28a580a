import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import {
  availableAgainLine,
  type ChainState,
  eligible,
  firstStep,
  nextStep,
  preferred,
  returnCheck,
} from "./decide.ts";
import { type LimitEntry, newLimitEntry } from "./limits.ts";
import type { Member } from "./member.ts";
import { member } from "./_members_test_util.ts";

const NOW = new Date("2026-12-01T01:12:00Z");
const MIN = 60_000;
const claude = member("claude");
const codex = member("codex");
const gemini = member("gemini");
const members = [claude, codex, gemini];

function limit(agent: string, minutes: number | null, now = NOW): LimitEntry {
  return newLimitEntry({
    kind: "usage",
    message: "limit",
    resetsAt: minutes === null ? null : new Date(now.getTime() + minutes * MIN).toISOString(),
  }, { agent, runId: 42, now, previous: null });
}

function state(
  limits: LimitEntry[] = [],
  opts: { refused?: string[]; now?: Date; members?: Member[] } = {},
): ChainState {
  return {
    members: opts.members ?? members,
    limits: new Map(limits.map((e) => [e.agent, e])),
    refused: new Set(opts.refused ?? []),
    now: opts.now ?? NOW,
  };
}

Deno.test("first: the first agent the ledger does not show limited, saying why it skipped", () => {
  const s = firstStep(state([limit("claude", 109)]), false);
  assert(s.kind === "start");
  assertEquals(s.member, codex);
  assertEquals(s.road, "prompt");
  assertEquals(s.notes.length, 1);
  assertMatch(s.notes[0], /^claude is limited until \d\d:\d\d \(seen \d\d:\d\d in run 42\)$/);
});

Deno.test("first: nothing limited starts the first; after the reset the first again", () => {
  assertEquals(firstStep(state(), false), {
    kind: "start",
    member: claude,
    road: "hook",
    notes: [],
  });
  const later = new Date(NOW.getTime() + 110 * MIN);
  const s = firstStep(state([limit("claude", 109)], { now: later }), false);
  assert(s.kind === "start" && s.member === claude && s.notes.length === 0);
});

Deno.test("first: a missing or disabled agent is passed over without a note", () => {
  const s = firstStep(
    state([], { members: [member("claude", { installed: false }), codex] }),
    false,
  );
  assert(s.kind === "start" && s.member === codex && s.notes.length === 0);
  assertEquals(
    firstStep(state([], { members: [member("claude", { installed: false })] }), false),
    { kind: "none", why: "not-installed" },
  );
});

Deno.test("first: all limited waits for the earliest reset", () => {
  const s = firstStep(state([limit("claude", 30), limit("codex", 10), limit("gemini", 20)]), false);
  assert(s.kind === "wait");
  assertEquals(s.member, codex);
  assertEquals(s.at, new Date(NOW.getTime() + 10 * MIN));
  assertEquals(s.notes.length, 3);
});

Deno.test("first: a named agent starts even when limited, with a note", () => {
  const s = firstStep(state([limit("claude", 30)]), true);
  assert(s.kind === "start" && s.member === claude);
  assertMatch(s.notes[0], /claude is limited until .*; starting it as asked/);
  const missing = [member("claude", { installed: false }), codex];
  assertEquals(firstStep(state([], { members: missing }), true), {
    kind: "none",
    why: "not-installed",
  });
});

Deno.test("next (wrap): after a limit, the next eligible agent, wrapping round", () => {
  const s = nextStep(state([limit("codex", 60)]), codex, "wrap");
  assert(s.kind === "start" && s.member === gemini);
  // gemini refused: back round to claude, eligible again.
  const r = nextStep(state([limit("codex", 60)], { refused: ["gemini"] }), codex, "wrap");
  assert(r.kind === "start" && r.member === claude);
});

Deno.test("next (wrap): an agent whose reset has passed within the run is chosen again", () => {
  const earlier = new Date(NOW.getTime() - 120 * MIN);
  const s = nextStep(
    state([limit("claude", 60, earlier), limit("codex", 60)], { refused: ["gemini"] }),
    codex,
    "wrap",
  );
  assert(s.kind === "start" && s.member === claude);
});

Deno.test("next (wrap): every agent limited waits for the earliest; refused ones are not waited for", () => {
  const s = nextStep(
    state([limit("claude", 50), limit("codex", 20), limit("gemini", 5)], { refused: ["gemini"] }),
    claude,
    "wrap",
  );
  assert(s.kind === "wait");
  assertEquals(s.member, codex);
  assertEquals(
    nextStep(
      state([limit("claude", 50)], { refused: ["codex", "gemini"], members }),
      claude,
      "wrap",
    )
      .kind,
    "wait",
  );
  assertEquals(
    nextStep(state([], { refused: ["claude", "codex", "gemini"] }), claude, "wrap"),
    { kind: "none", why: "unavailable" },
  );
});

Deno.test("next (once): each agent once, never a wait", () => {
  const s = nextStep(state([limit("claude", 60)]), claude, "once");
  assert(s.kind === "start" && s.member === codex);
  assertEquals(
    nextStep(state([limit("gemini", 60)]), gemini, "once"),
    { kind: "none", why: "unavailable" },
  );
});

Deno.test("eligible: usable, not refused, not limited", () => {
  assertEquals(eligible(state(), claude), true);
  assertEquals(eligible(state([limit("claude", 1)]), claude), false);
  assertEquals(eligible(state([], { refused: ["claude"] }), claude), false);
  assertEquals(eligible(state(), member("claude", { config: { disabled: true } })), false);
});

Deno.test("return: the first agent available again while a later one works", () => {
  assertEquals(preferred(members), claude);
  assertEquals(returnCheck(state(), claude), { kind: "no" }, "the first one is working");
  const limited = state([limit("claude", 30)]);
  assertEquals(returnCheck(limited, codex), {
    kind: "later",
    at: new Date(NOW.getTime() + 30 * MIN),
  });
  const reset = state([limit("claude", 30)], { now: new Date(NOW.getTime() + 31 * MIN) });
  assertEquals(returnCheck(reset, codex), { kind: "available", to: claude });
  assertEquals(returnCheck(state([limit("claude", 30)], { refused: ["claude"] }), codex), {
    kind: "no",
  });
  assertEquals(
    availableAgainLine(claude, false),
    "claude is available again: type /agent claude to go back",
  );
  assertMatch(availableAgainLine(claude, true), /goes back to it at the next quiet moment/);
});
