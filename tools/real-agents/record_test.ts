import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import {
  type AgentRun,
  mergeRun,
  readRecord,
  RECORD_DOC,
  renderTable,
  type TestedVersions,
  writeRecord,
} from "./record.ts";

const EMPTY: TestedVersions = { _doc: RECORD_DOC, agents: {} };
const REQUIRED = ["sender", "receiver", "paste", "terminal"];

function run(version: string, cells: Record<string, string>, extra: Partial<AgentRun> = {}) {
  return {
    name: "claude",
    package: "@anthropic-ai/claude-code",
    version,
    required: REQUIRED,
    cells: Object.fromEntries(Object.entries(cells).map(([c, result]) => [c, { result }])),
    ...extra,
  };
}
const ALL_PASS = { sender: "pass", receiver: "pass", paste: "pass", terminal: "pass (3 runs)" };

Deno.test("every cell passing at one version makes it the newest tested", () => {
  const r = mergeRun(EMPTY, run("2.1.332", ALL_PASS), "2026-12-02");
  assertEquals(r.agents.claude.tested, "2.1.332");
  assertEquals(r.agents.claude.date, "2026-12-02");
  assertEquals(r.agents.claude.cells?.sender, {
    version: "2.1.332",
    date: "2026-12-02",
    result: "pass",
  });
});

Deno.test("a failing cell keeps the older tested version; rerunning that cell moves it up", () => {
  let r = mergeRun(EMPTY, run("2.1.197", ALL_PASS), "2026-11-20");
  r = mergeRun(r, run("2.1.332", { ...ALL_PASS, sender: "FAIL: no handoff" }), "2026-12-01");
  assertEquals(r.agents.claude.tested, "2.1.197");
  assertEquals(r.agents.claude.date, "2026-11-20");
  // One cell rerun (--cells sender): the others are still the 2.1.332 passes of the day before.
  r = mergeRun(r, run("2.1.332", { sender: "pass" }), "2026-12-02");
  assertEquals(r.agents.claude.tested, "2.1.332");
  assertEquals(r.agents.claude.date, "2026-12-02");
  assertEquals(r.agents.claude.cells?.receiver.date, "2026-12-01");
});

Deno.test("cells passing at different versions prove no version", () => {
  let r = mergeRun(EMPTY, run("1.0.0", { sender: "pass", receiver: "pass" }), "2026-12-01");
  r = mergeRun(r, run("1.1.0", { paste: "pass", terminal: "pass" }), "2026-12-01");
  assertEquals(r.agents.claude.tested, null);
});

Deno.test("an agent not run keeps its cells and says why; a failing run never lowers tested", () => {
  let r = mergeRun(EMPTY, run("2.1.332", ALL_PASS), "2026-12-01");
  r = mergeRun(r, run("2.1.197", ALL_PASS), "2026-12-02");
  assertEquals(r.agents.claude.tested, "2.1.332");
  const crush = {
    name: "crush",
    package: "@charmland/crush",
    required: REQUIRED,
    cells: {},
    notRun: "its npm package downloads its binary from GitHub",
  };
  r = mergeRun(r, crush, "2026-12-02");
  assertEquals(r.agents.crush, {
    package: "@charmland/crush",
    tested: null,
    notRun: "its npm package downloads its binary from GitHub",
  });
});

Deno.test("the table names version and date per cell, the timing, and agents not run", () => {
  let r = mergeRun(
    EMPTY,
    {
      ...run("2.1.332", ALL_PASS),
      cells: {
        sender: {
          result: "pass",
          toHandoff: 0.4,
          toNextAgent: 1.8,
          replay: "same: 2 runs, 13 decisions (1 acted)",
        },
        receiver: { result: "pass (hook road)", replay: "FAIL: replay is not live" },
        paste: { result: "pass ([Pasted text #1 +41 lines])" },
        terminal: { result: "pass (after each of the 3 runs)" },
      },
    },
    "2026-12-02",
  );
  r = mergeRun(r, {
    name: "droid",
    package: "@factory/cli",
    required: REQUIRED,
    cells: {},
    notRun: "stops at login | no account",
  }, "2026-12-02");
  const table = renderTable(r, ["claude", "droid", "pi"], (n) => n === "claude" ? "Claude Code" : n)
    .split("\n");
  assertEquals(table.length, 4);
  assert(table[0].startsWith("| agent | newest passed | sender |"));
  assertEquals(
    table[2],
    "| Claude Code | 2.1.332 | pass (2.1.332, 2026-12-02) | pass (hook road) (2.1.332, 2026-12-02) | pass ([Pasted text #1 +41 lines]) (2.1.332, 2026-12-02) | — | pass (after each of the 3 runs) (2.1.332, 2026-12-02) | 1.8 s (handoff at 0.4 s) | 1/2 cells, 13 decisions |",
  );
  assertEquals(
    table[3],
    "| droid | — | not tested by uuldana: stops at login / no account | — | — | — | — | — | — |",
  );
});

Deno.test("the record file round-trips, agents in the registry's order", () => {
  const dir = Deno.makeTempDirSync();
  const path = join(dir, "tested_versions.json");
  assertEquals(readRecord(path), EMPTY);
  let r = mergeRun(EMPTY, { ...run("1.0.0", ALL_PASS), name: "pi" }, "2026-12-02");
  r = mergeRun(r, run("2.1.332", ALL_PASS), "2026-12-02");
  writeRecord(path, r, ["claude", "pi"]);
  const back = readRecord(path);
  assertEquals(Object.keys(back.agents), ["claude", "pi"]);
  assertEquals(back, { _doc: RECORD_DOC, agents: { claude: r.agents.claude, pi: r.agents.pi } });
  Deno.removeSync(dir, { recursive: true });
});
