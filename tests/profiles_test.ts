/**
 * End-to-end: profiles, the same agent on another account, key or model, as chain members of their
 * own. Real `script`, simulated agents that behave like the real CLIs (a profile's env is how the
 * world tells them apart: its own log, its own limit), tmux as the user's terminal, the real
 * SQLite journal.
 *
 * @module
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { CLOCK_PATTERN, framedBody, World, worldTest } from "./_world.ts";

const REQUEST = "Add a --dry-run flag to deploy.sh";

/** Claude limited at its third turn, then the profile claude-work (another account) answering. */
function twoClaudes(): World {
  return new World(["claude"], { claude: { SIM_LIMIT_AFTER: "3", TZ: "UTC" } }, {
    profiles: { "claude-work": { agent: "claude", env: { SIM_LIMIT_AFTER: "0" } } },
    config: { chain: ["claude", "claude-work"] },
  });
}

worldTest(
  "Claude → Claude: the first profile's limit hands off to the second on the hook road; only the first is limited; a new run starts the second and says why",
  twoClaudes,
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    await w.waitForEvent("claude", "reply");
    await w.ask("claude", "and a test for it");
    await w.waitForEvent("claude", "reply", 2);
    await w.ask("claude", "run the tests");
    // The second account's Claude: a new native session, the framed handoff in its SessionStart.
    const hook = await w.waitForHandoffHook("claude-work");
    const context = String(hook.additionalContext);
    const framed = framedBody(context);
    assert(framed, context.slice(0, 300));
    assert(framed.body.includes(REQUEST), framed.body.slice(0, 1500));
    assert(framed.body.includes("You've hit your session limit"), "the limit is named");
    assertEquals(w.events("claude-work", "start").length, 1);
    await w.waitForEvent("claude-work", "submit");
    assertEquals(await w.quit(), 0);

    w.withJournal((j) => {
      const [work, first] = j.runs();
      assertEquals(
        [first.agent, first.profile, first.endReason, work.agent, work.profile],
        ["claude", null, "limit", "claude", "claude-work"],
      );
      const [h] = j.handoffsFrom(first.id);
      assertEquals([h.toAgent, h.road, h.status], ["claude-work", "hook", "delivered"]);
    });
    const limits = JSON.parse((await w.uuldana(["limits", "--json"])).stdout);
    assertEquals(limits.map((l: { agent: string; limited: boolean }) => [l.agent, l.limited]), [
      ["claude", true],
    ]);

    // A second uuldana reads the ledger: the limited account is passed over, the other starts.
    await w.start(["run"]);
    await w.waitForEvent("claude-work", "start", 2);
    assertEquals(w.events("claude", "start").length, 1, "the limited profile was not started");
    assertEquals(await w.quit(), 0);
    assertMatch(
      (await w.term.capture()).replaceAll("\n", ""),
      new RegExp(`uuldana: claude is limited until ${CLOCK_PATTERN}.*; starting claude-work`),
    );
  },
);

worldTest(
  "`agents`, `config` and completions speak of the profile; `limits clear` takes its name",
  twoClaudes,
  async (w) => {
    const agents = JSON.parse((await w.uuldana(["agents", "--json"])).stdout);
    const work = agents.find((a: { name: string }) => a.name === "claude-work");
    assertEquals([work.profileOf, work.found, work.defaultRoad], ["claude", true, "hook"]);
    const text = (await w.uuldana(["agents"])).stdout;
    assertMatch(text, /claude-work \(Claude Code, a profile of claude\)/);
    const shown = JSON.parse((await w.uuldana(["config", "--json"])).stdout);
    assertEquals(shown.effective.profiles["claude-work"].agent, "claude");
    const bash = (await w.uuldana(["completions", "bash"])).stdout;
    assert(bash.includes("claude-work"), "the profile is completed");
    const cleared = await w.uuldana(["limits", "clear", "claude-work"]);
    assertEquals([cleared.code, cleared.stdout.trim()], [
      0,
      "claude-work has no limit in the ledger; nothing to clear",
    ]);
  },
);
