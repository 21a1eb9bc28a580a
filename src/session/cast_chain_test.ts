import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { HandoffRow } from "../journal/journal.ts";
import { joinCasts, movedLine, runChainFrom, switchLine } from "./cast_chain.ts";

const cast = (title: string, events: [number, string][]) =>
  [
    JSON.stringify({ version: 2, width: 120, height: 40, timestamp: 1, title }),
    ...events.map(([t, text]) => JSON.stringify([t, "o", text])),
  ].join("\n") + "\n";

const handoff = (over: Partial<HandoffRow>): HandoffRow => ({
  id: "h",
  fromRun: 1,
  toAgent: "codex",
  toRun: 2,
  mode: "auto",
  road: "prompt",
  characters: 100,
  omitted: 0,
  redactions: 0,
  status: "delivered",
  filePath: "/d/handoffs/h.md",
  error: null,
  receipt: null,
  createdAt: "2026-12-01T10:00:05Z",
  ...over,
});

Deno.test("a chain of casts is one timeline: later runs moved by their start, the switch line between", () => {
  const joined = joinCasts(
    [
      {
        run: { startedAt: "2026-12-01T10:00:00Z" },
        cast: cast("uuldana: claude", [[0.5, "a"], [4, "limit"]]),
      },
      // Started 6 s after the first; its own clock starts at 0.
      { run: { startedAt: "2026-12-01T10:00:06Z" }, cast: cast("uuldana: codex", [[0.25, "b"]]) },
      // A run whose recorded start is before the last event written: never goes back in time.
      { run: { startedAt: "2026-12-01T10:00:05Z" }, cast: cast("uuldana: gemini", [[0, "c"]]) },
    ],
    ["uuldana: claude → codex", "uuldana: codex → gemini"],
    "uuldana: claude → codex → gemini",
    ["uuldana: claude moved", "uuldana: codex moved"],
  );
  const [header, ...events] = joined.trimEnd().split("\n").map((l) => JSON.parse(l));
  assertEquals(header.title, "uuldana: claude → codex → gemini");
  assertEquals([header.width, header.height], [120, 40]);
  assertEquals(events, [
    [0.5, "o", "a"],
    [4, "o", "limit"],
    [6, "o", "\r\nuuldana: claude → codex\r\n"],
    [6.25, "o", "b"],
    [6.25, "o", "\r\nuuldana: codex → gemini\r\n"],
    [6.25, "o", "c"],
    [6.75, "o", "\r\nuuldana: claude moved\r\nuuldana: codex moved\r\n"],
  ]);
});

Deno.test("what moved, in one line: the limit or the switch, the turns, the handoff's size", () => {
  const h = handoff({ characters: 3101 });
  assertEquals(
    movedLine({ agent: "claude", endReason: "limit" }, h, 2),
    "claude hit its limit at turn 2; codex got the request, 2 turns and claude's screen (3,101 characters)",
  );
  assertEquals(
    movedLine({ agent: "claude", endReason: "switch" }, handoff({ mode: "manual" }), 1),
    "claude was switched from by hand at turn 1; codex got the request, 1 turn and claude's screen (100 characters)",
  );
});

Deno.test("the switch line says what the live one said: the limit's words, the road, the file", () => {
  assertEquals(
    switchLine(
      { agent: "claude", limitMessage: "You've hit your limit · resets 3am" },
      handoff({}),
    ),
    'uuldana: claude → codex: "You\'ve hit your limit · resets 3am". Handoff via prompt: /d/handoffs/h.md',
  );
  assertEquals(
    switchLine({ agent: "claude", limitMessage: null }, handoff({ mode: "manual", road: "paste" })),
    "uuldana: claude → codex (/agent). Handoff via paste: /d/handoffs/h.md",
  );
});

Deno.test("the chain follows each run's last handoff that started a run, and stops at a loop", () => {
  const runs = new Map([1, 2, 3].map((id) => [id, { id }]));
  const from: Record<number, HandoffRow[]> = {
    1: [handoff({ toRun: null, status: "refused" }), handoff({ toRun: 2 })],
    2: [handoff({ toRun: 3, toAgent: "gemini" })],
    3: [handoff({ toRun: 1, toAgent: "claude" })],
  };
  const chain = runChainFrom(runs.get(1)!, (id) => runs.get(id) ?? null, (id) => from[id] ?? []);
  assertEquals(chain.runs.map((r) => r.id), [1, 2, 3]);
  assertEquals(chain.handoffs.map((h) => h.toAgent), ["codex", "gemini"]);
});
