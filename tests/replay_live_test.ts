/**
 * Replay equals live, end to end: a real `uuldana run` (simulated agents, tmux, the real journal)
 * switches at a limit; its runs' recordings replay to the decision logs they kept, `uuldana debug
 * detect RUN` says so, and a decision log that is not what the recording shows is caught (the
 * world helper's check can fail).
 *
 * @module
 */
import {
  deepStrictEqual as assertEquals,
  ok as assert,
  throws as assertThrows,
} from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { World } from "./_world.ts";
import { assertRunsReplay } from "./_replay_check.ts";
import { runUuldana } from "./_uuldana.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "a switch at a limit replays to the decisions the run kept; a forged log is caught",
  opts,
  async () => {
    const w = new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1", TZ: "UTC" } });
    try {
      await w.start(["run"]);
      await w.waitForEvent("claude", "start");
      await new Promise((r) => setTimeout(r, 1000));
      await w.type("tidy the changelog");
      await w.waitForEvent("codex", "start");
      await new Promise((r) => setTimeout(r, 1000));
      await w.term.send("C-c");
      await w.term.send("C-c");
      await w.exitCode();
      await w.term.close();
      const check = assertRunsReplay(w.home);
      assertEquals(check.runs, 2, "both runs were replayed");
      assert(check.acted >= 1, "the limit acted on was among the decisions compared");

      // `debug detect RUN` replays it the same way, and says it matches the live decisions.
      const env = { UULDANA_CONFIG: w.config, UULDANA_HOME: w.home, NO_COLOR: "1" };
      const claudeRun = w.withJournal((j) => j.runs().find((r) => r.agent === "claude")!);
      const text = await runUuldana(["debug", "detect", String(claudeRun.id)], { env });
      assertEquals(text.code, 0, text.stderr);
      assert(
        /usage limit acted on at \d+\.\d{3} s, after \d+ bytes/.test(text.stdout),
        text.stdout,
      );
      assert(/live: +the same \d+ decisions as the run made/.test(text.stdout), text.stdout);
      const json = JSON.parse(
        (await runUuldana(["debug", "detect", "1", "--json"], { env })).stdout,
      );
      const acted = w.withJournal((j) => j.decisions(claudeRun.id)).find((d) =>
        d.verdict === "acted"
      )!;
      assertEquals([json.atOffset, json.atMs, json.live.match], [acted.offset, acted.atMs, "same"]);

      // A log that says the limit was acted on one byte later is not what the recording shows.
      const db = new DatabaseSync(join(w.home, "journal.db"));
      db.prepare(
        "UPDATE decisions SET record = json_set(record, '$.offset', json_extract(record, '$.offset') + 1) " +
          "WHERE run_id = ? AND verdict = 'acted'",
      ).run(claudeRun.id);
      db.close();
      assertThrows(() => assertRunsReplay(w.home), /replay is not live:\nrun \d+ \(claude/);
      const differs = await runUuldana(["debug", "detect", "last", "--json"], { env });
      assertEquals(JSON.parse(differs.stdout).live?.match, "same", "the codex run is unaffected");
    } finally {
      await w.close({ replay: false });
    }
  },
);
