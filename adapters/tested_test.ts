import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { compareVersions, TESTED_VERSIONS, testedLine, testedState } from "./tested.ts";
import { ADAPTERS } from "./registry.ts";

Deno.test("versions compare by dotted numeric parts; a pre-release comes before its release", () => {
  const sorted = [
    "2.1.99",
    "2.1.340",
    "0.61.0",
    "0.61.0-sim",
    "2.1.332",
    "2.1",
    "10.0.0",
    "2.1.332+b7",
  ]
    .sort(compareVersions);
  assertEquals(sorted, [
    "0.61.0-sim",
    "0.61.0",
    "2.1",
    "2.1.99",
    "2.1.332",
    "2.1.332+b7",
    "2.1.340",
    "10.0.0",
  ]);
  assertEquals(compareVersions("2.1.332", "2.1.332+b7"), 0);
  assert(compareVersions("1.0.0-beta.2", "1.0.0-beta.10") !== 0);
});

Deno.test("an agent newer than the newest tested is said, with what may break", () => {
  const table = {
    claude: { tested: "2.1.332", date: "2026-12-02" },
    crush: { tested: null, notRun: "its npm package downloads its binary from GitHub" },
  };
  const newer = testedState("claude", "2.1.340", table);
  assertEquals(newer, { kind: "newer", version: "2.1.340", tested: "2.1.332", date: "2026-12-02" });
  assertEquals(
    testedLine("claude", newer),
    "claude 2.1.340 is newer than the newest tested (2.1.332): limit detection may miss its screens",
  );
  assertEquals(testedState("claude", "2.1.332", table).kind, "tested");
  assertEquals(testedState("claude", "2.1.197", table).kind, "tested");
  assertEquals(
    testedLine("claude", testedState("claude", "2.1.197", table)),
    "tested for real up to 2.1.332 (2026-12-02)",
  );
  assertEquals(testedState("claude", null, table).kind, "unknown");
  assertEquals(
    testedLine("crush", testedState("crush", "0.9.0", table)),
    "not run for real: its npm package downloads its binary from GitHub",
  );
  assertEquals(testedLine("aider", testedState("aider", null, table)), "not run for real");
  // Run, but no version passed every cell: said, with the newest version that ran.
  const failing = {
    qwen: {
      tested: null,
      cells: {
        sender: { version: "0.24.4", date: "2026-12-01", result: "FAIL: timed out" },
        receiver: { version: "0.24.4", date: "2026-12-02", result: "pass" },
      },
    },
  };
  assertEquals(
    testedLine("qwen", testedState("qwen", "0.24.4", failing)),
    "no version of qwen passed every real-agent cell yet (0.24.4 ran 2026-12-02): limit detection may miss its screens",
  );
});

Deno.test("the shipped table has every agent, each with a tested version or none", () => {
  for (const [name, entry] of Object.entries(TESTED_VERSIONS)) {
    if (entry.tested !== null) assert(/^\d+\.\d+/.test(entry.tested), `${name}: ${entry.tested}`);
    assert(!(entry.tested && entry.notRun), `${name}: tested, and not run?`);
  }
  for (const a of ADAPTERS) {
    assert(a.name in TESTED_VERSIONS, `${a.name} is in tested_versions.json`);
  }
});
