/**
 * `uuldana debug detect` on every limit screen of the adapter tests: each reported message in its
 * agent's framing is found with its reset time for a fixed clock and zone, and no quote fires.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
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
