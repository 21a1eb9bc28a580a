/**
 * `uuldana debug detect` on every limit screen of the adapter tests: each reported message in its
 * agent's framing is found with its reset time for a fixed clock and zone, and no quote fires;
 * and on a run of an older journal (raw output, timed by its classic timing).
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { Journal } from "../src/journal/journal.ts";
import { RecordingFile } from "../src/journal/recording_file.ts";
import { type Case, NOW, QUOTES, REAL } from "../adapters/_limit_cases_test_util.ts";
import { runUuldana } from "./_uuldana.ts";

// The screen as an agent would print it: rows, CR LF between them.
function raw(c: Case): string {
  return c.screen.join("\r\n");
}

Deno.test("debug detect: the reported messages and the quotes, per agent, from raw bytes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-detect-" });
  try {
    const cases = [...REAL, ...QUOTES];
    const byAgent = new Map<string, { c: Case; file: string }[]>();
    cases.forEach((c, i) => {
      const file = join(dir, `${i}.raw`);
      Deno.writeTextFileSync(file, raw(c));
      byAgent.set(c.agent, [...(byAgent.get(c.agent) ?? []), { c, file }]);
    });
    for (const [agent, list] of byAgent) {
      const res = await runUuldana(
        ["debug", "detect", ...list.map((l) => l.file), "--agent", agent, "--now", NOW, "--json"],
        { env: { TZ: "UTC" } },
      );
      assertEquals(res.code, 0, res.stderr);
      const parsed = JSON.parse(res.stdout);
      const reports = Array.isArray(parsed) ? parsed : [parsed];
      list.forEach(({ c }, i) => {
        const r = reports[i];
        const got = r.detected ? { kind: r.kind, resetsAt: r.resetsAt } : null;
        const want = c.expect ? { kind: c.expect.kind, resetsAt: c.expect.resetsAt } : null;
        assertEquals(got, want, `${c.name}: ${r.message}`);
        if (c.expect?.handOff !== undefined) assertEquals(r.handOff, c.expect.handOff, c.name);
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("debug detect RUN on an older journal's raw recording replays it by its timing; raw output needs --agent", async () => {
  const home = await Deno.makeTempDir({ prefix: "uuldana-detect-old-" });
  try {
    const claude = REAL.find((c) => c.agent === "claude" && c.name.includes("Alaska"))!;
    const bytes = new TextEncoder().encode(raw(claude));
    const journal = Journal.open(home);
    const runId = journal.startRun({ agent: "claude", workspace: home, transport: "pty" });
    // As uuldana recorded before schema 7: raw output in run-N.gz, the classic timing at the end.
    const file = RecordingFile.create(
      journal.startOutput(runId, { cols: 120, rows: 40 }, `recordings/run-${runId}.gz`),
    );
    file.append(gzipSync(bytes.subarray(0, 1000)));
    file.append(gzipSync(bytes.subarray(1000)));
    file.close();
    journal.finishOutput(runId, {
      timing: `0.5 1000\n0.25 ${bytes.length - 1000}`,
      truncated: false,
    });
    journal.close();
    const env = { UULDANA_HOME: home, TZ: "UTC", NO_COLOR: "1" };
    const res = await runUuldana(["debug", "detect", "last", "--now", NOW, "--json"], { env });
    assertEquals(res.code, 0, res.stderr);
    const report = JSON.parse(res.stdout);
    // Acted on at the output's end (the timing's last chunk, 0.75 s): the menu is its last screen.
    assertEquals([report.detected, report.timed, report.atOffset, report.atMs], [
      true,
      true,
      bytes.length,
      750,
    ]);
    assertEquals(report.resetsAt, claude.expect!.resetsAt);
    assertEquals(report.live, undefined, "an older run kept no decision log to compare with");
    // The same bytes as a raw file of someone's: which agent is a question only they can answer.
    const rawFile = join(home, "session.raw");
    Deno.writeFileSync(rawFile, bytes);
    const noAgent = await runUuldana(["debug", "detect", rawFile], { env });
    assertEquals(noAgent.code, 2);
    assert(noAgent.stderr.includes("give --agent NAME"), noAgent.stderr);
    const screen = await runUuldana([
      "debug",
      "screen",
      join(home, "recordings", `run-${runId}.gz`),
    ], {
      env,
    });
    assert(screen.stdout.includes("You've hit your limit"), screen.stdout);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
