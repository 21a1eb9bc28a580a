/**
 * Usage warnings through a real `uuldana run`: the simulated Claude draws its warning as Claude
 * Code 2.1.332 does (against the right edge above its input box, as the turn starts), tmux as the
 * user's terminal, the real journal. The warning reaches `uuldana limits` as near its limit and,
 * with `handoffEarly` off, changes nothing else; with it on, the work moves to the next agent at
 * Claude's next turn boundary: never mid-turn, never while the user has typed into the box.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { CLOCK_PATTERN, World, worldTest } from "./_world.ts";
import { SIM_WARNING } from "../src/sim/env.ts";
import { newNearEntry } from "../src/chain/limits.ts";
import { parseResetTime } from "../adapters/reset_time.ts";
import { Journal } from "../src/journal/journal.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The world: Claude warns in its first turn (taking `replyMs` to answer), then Codex. */
function warningWorld(replyMs: number, handoffEarly: boolean): World {
  return new World(["claude", "codex"], {
    claude: { SIM_WARN_AFTER: "1", SIM_REPLY_MS: String(replyMs), TZ: "UTC" },
  }, { config: { handoffEarly } });
}

/** Waits until the journal's ledger holds claude's warning. */
async function ledgerHasWarning(w: World): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (w.withJournal((j) => j.latestLimits().get("claude")?.near)) return;
    await sleep(100);
  }
  throw new Error(`no warning in the ledger:\n${await w.term.capture()}`);
}

worldTest(
  "a warning reaches `uuldana limits` as near its limit; with handoffEarly off nothing else changes",
  () => warningWorld(50, false),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "tidy the changelog");
    await w.waitForEvent("claude", "warning");
    await w.waitForEvent("claude", "reply");
    await ledgerHasWarning(w);
    const human = await w.uuldana(["limits"]);
    assertEquals(human.code, 0, human.stderr);
    // The reset is 9:13pm UTC: today's, or tomorrow's ("Dec 5 21:13") once that has passed.
    const line = new RegExp(
      `^claude is near its limit until ${CLOCK_PATTERN} \\(seen .* in run 1\\); it still works$`,
      "m",
    );
    assert(line.test(human.stdout), human.stdout);
    assert(human.stdout.includes(`"${SIM_WARNING}"`), human.stdout);
    const json = await w.uuldana(["limits", "--json"]);
    const [state] = JSON.parse(json.stdout);
    assertEquals(
      [state.agent, state.limited, state.near, state.warning, state.message, state.shownReset],
      ["claude", false, true, true, SIM_WARNING, true],
    );
    assert(/T21:13:00\.000Z$/.test(state.availableAt), state.availableAt);
    // Off: Claude keeps the work, idle with an empty box long past the quiet interval.
    await sleep(3000);
    await w.type("and the readme");
    await w.waitForEvent("claude", "reply", 2);
    assertEquals(w.events("codex", "start").length, 0, "codex never started");
    await w.quit();
    w.withJournal((j) => {
      const [run] = j.runs();
      assertEquals([run.agent, run.endReason], ["claude", "exit"]);
      const decisions = j.decisions(run.id);
      // The warning is the one record the screen made: nothing was seen, waited for or acted on.
      assertEquals(decisions.filter((d) => d.source === "screen").map((d) => d.verdict), [
        "warning",
      ]);
      assertEquals(decisions.find((d) => d.verdict === "warning")?.warning?.message, SIM_WARNING);
      assertEquals(j.handoffs().length, 0);
    });
  },
);

worldTest(
  "handoffEarly: the warning mid-turn hands off once the turn is over, not before",
  () => warningWorld(5000, true),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "rename the deploy script");
    await w.waitForEvent("claude", "warning");
    // The turn goes on for 5 s with the warning shown and nothing drawn (quiet, but Claude says
    // `esc to interrupt`): no handoff while it works.
    await sleep(3500);
    assertEquals(w.events("codex", "start").length, 0, "codex started mid-turn");
    const [reply] = await w.waitForEvent("claude", "reply");
    const [start] = await w.waitForEvent("codex", "start", 1, 20_000);
    assert(Date.parse(String(start.time)) > Date.parse(String(reply.time)), "after the turn");
    assert(String(start.prompt).includes("BEGIN UULDANA HANDOFF"), "codex got the handoff");
    assert(String(start.prompt).includes("near its usage limit"), "framed as a warning");
    assert(String(start.prompt).includes("rename the deploy script"), "with the conversation");
    await w.waitForEvent("codex", "reply");
    await w.quit();
    w.withJournal((j) => {
      const claude = j.runs().find((r) => r.agent === "claude")!;
      assertEquals([claude.endReason, claude.limitMessage], ["early", null]);
      // Near its limit still: never limited by its warning.
      assertEquals(j.latestLimits().get("claude")?.near, true);
      assertEquals(j.handoffs().map((h) => [h.toAgent, h.mode]), [["codex", "auto"]]);
    });
  },
);

worldTest(
  "handoffEarly: not while the user has typed into the box; at the next turn boundary after it",
  () => warningWorld(3000, true),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "add a --dry-run flag");
    await w.waitForEvent("claude", "warning");
    // Typed while Claude answers (3 s), not sent: the box holds it when the turn ends.
    await w.type("and also", false);
    await w.waitForEvent("claude", "reply");
    await sleep(4000);
    assertEquals(w.events("codex", "start").length, 0, "codex started over the user's typing");
    await w.type(" the tests");
    await w.waitForEvent("claude", "reply", 2);
    const [start] = await w.waitForEvent("codex", "start", 1, 20_000);
    assert(String(start.prompt).includes("and also the tests"), "the typed turn is carried");
    await w.waitForEvent("codex", "reply");
    await w.quit();
    w.withJournal((j) => {
      assertEquals(j.runs().find((r) => r.agent === "claude")!.endReason, "early");
    });
  },
);

worldTest(
  "handoffEarly: a warning the ledger already holds from an earlier run still moves this run on",
  () => warningWorld(50, true),
  async (w) => {
    const kept = newNearEntry(
      { message: SIM_WARNING, resetsAt: parseResetTime(SIM_WARNING, new Date()) },
      { agent: "claude", runId: null, now: new Date(), previous: null },
    )!;
    // An earlier run's: the data folder and its journal made as uuldana makes them.
    Deno.mkdirSync(w.home, { recursive: true, mode: 0o700 });
    const earlier = Journal.open(w.home);
    earlier.addLimit(kept);
    earlier.close();
    await w.start(["run"]);
    await w.ask("claude", "bump the version");
    await w.waitForEvent("claude", "warning");
    const [start] = await w.waitForEvent("codex", "start", 1, 20_000);
    assert(String(start.prompt).includes("bump the version"), "codex got the conversation");
    await w.quit();
    w.withJournal((j) => {
      assertEquals(j.runs().find((r) => r.agent === "claude")!.endReason, "early");
      // The same warning is kept once.
      assertEquals(j.limitHistory().filter((h) => h.agent === "claude").length, 1);
    });
  },
);
