import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import {
  compareVersions,
  recordedProof,
  TESTED_VERSIONS,
  testedLine,
  testedState,
} from "./tested.ts";
import { existsSync, readFileSync } from "node:fs";
import { ADAPTERS } from "./registry.ts";
import { HELP_DIR, topHelp } from "../tests/fixtures/fake_agents/help.ts";

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
    "not tested by uuldana: its npm package downloads its binary from GitHub",
  );
  assertEquals(testedLine("aider", testedState("aider", null, table)), "not tested by uuldana");
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

Deno.test("the record proves an opening prompt only for the exact version its receiver cell passed with", () => {
  const cell = (version: string, result: string) => ({
    cells: { receiver: { version, date: "2026-12-02", result } },
  });
  const table = {
    codex: { tested: "0.171.0", ...cell("0.171.0", "pass (model mock-1, 4.5 s after the limit)") },
    gemini: { tested: "0.60.0", ...cell("0.61.0", "FAIL: no model request carried the frame") },
    qwen: { tested: "0.24.4", cells: { sender: { version: "0.24.4", result: "pass" } } },
    pi: { tested: null, notRun: "needs a login" },
  };
  assertEquals(recordedProof("codex", "0.171.0", table), {
    version: "0.171.0",
    date: "2026-12-02",
  });
  for (const v of ["0.171.1", "0.170.9", "0.171.0-beta", "0.171", null]) {
    assertEquals(recordedProof("codex", v, table), null, String(v));
  }
  assertEquals(recordedProof("gemini", "0.61.0", table), null, "a failed cell proves nothing");
  assertEquals(recordedProof("gemini", "0.60.0", table), null, "nor an older tested version");
  assertEquals(recordedProof("qwen", "0.24.4", table), null, "the sender cell proves no prompt");
  assertEquals(recordedProof("pi", "0.73.1", table), null);
  assertEquals(recordedProof("aider", "1.0.0", table), null);
});

Deno.test("every version the record proves has its real --help in testdata, and the adapter's proof accepts it", () => {
  // The record stands in for the --help of that version: the flag the adapter launches it with
  // must be the one that version documents (an adapter changed since the matrix ran fails here).
  let proved = 0;
  for (const adapter of ADAPTERS) {
    const version = TESTED_VERSIONS[adapter.name]?.cells?.receiver?.version ?? null;
    if (!recordedProof(adapter.name, version)) continue;
    proved++;
    const own = `${HELP_DIR}/${adapter.name}@${version}.txt`;
    const kept = existsSync(own) ? version! : undefined;
    const head = readFileSync(kept ? own : `${HELP_DIR}/${adapter.name}.txt`, "utf8")
      .split("\n").slice(0, 3).join("\n");
    assert(
      new RegExp(`(^|[^\\d.])${version!.replaceAll(".", "\\.")}(?!\\.?\\d)`).test(head),
      `${adapter.name} ${version}: keep its real --help as testdata/reference/help/` +
        `${adapter.name}@${version}.txt (the kept one is: ${head.split("\n")[0]})`,
    );
    const proof = adapter.proveInitialPrompt(topHelp(adapter.name, kept));
    assertEquals(proof.accepted, true, `${adapter.name} ${version}: ${proof.reason}`);
  }
  assert(proved >= 7, `${proved} agents proven by the record`);
});
