/**
 * The store road end to end (real `script`, simulated OpenCode and Kilo, tmux, the real journal):
 * the handoff imported as a new session of the agent's own, and the kickoff submitted.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { framedBody, World, worldTest } from "./_world.ts";

const REQUEST = "Add a --dry-run flag to deploy.sh and a test for it";

worldTest(
  "store road: Kilo's request carries the imported handoff (its id sorts before the turn's)",
  // Kilo is OpenCode's fork: the simulated OpenCode stands in for it under the kilo adapter.
  () =>
    new World(["claude", "kilo"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      kilo: { SIM_DEFAULT_MODEL: "kilo/user-choice" },
    }, { playedBy: { kilo: "opencode" }, agents: { kilo: { road: "store" } } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    await w.waitForEvent("kilo", "session");
    const [request] = await w.waitForEvent("kilo", "request");
    assertEquals(
      (request.history as string[]).length,
      1,
      "the imported message, before the turn",
    );
    assert(framedBody(String(request.context))?.body.includes(REQUEST), String(request.context));
    assertEquals(request.model, "kilo/user-choice");
  },
);

worldTest(
  "store road: OpenCode gets a new imported session holding the handoff, and the kickoff is submitted",
  // Like real OpenCode, the simulated one drops input until its box is drawn.
  () =>
    new World(["claude", "opencode"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      // The model the user's own OpenCode configuration picks. Its --help shows no --prompt:
      // the store road gives it no opening prompt, so it needs no proof of one.
      opencode: {
        SIM_LOADING_MS: "2500",
        SIM_DEFAULT_MODEL: "localai/user-choice",
        SIM_HELP_WITHOUT_PROMPT: "1",
      },
    }, { agents: { opencode: { road: "store" } } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    const [session] = await w.waitForEvent("opencode", "session");
    assert(framedBody(String(session.firstMessage))?.body.includes(REQUEST));
    const [submit] = await w.waitForEvent("opencode", "submit");
    assertEquals(submit.text, "Continue the work described in the handoff message above.");
    const dropped = w.events("opencode", "dropped").map((e) => String(e.bytes));
    assert(!dropped.some((b) => b.includes("Continue the work")), "not typed into the blank TUI");
    assertEquals(w.events("opencode", "submit").length, 1, "pasted once its box showed, sent once");
    const [start] = w.events("opencode", "start");
    assert((start.argv as string[]).includes("-s"), JSON.stringify(start.argv));
    // The kickoff's request runs on the user's model and carries the imported handoff.
    const [request] = w.events("opencode", "request");
    assertEquals(request.model, "localai/user-choice");
    assert(framedBody(String(request.context))?.body.includes(REQUEST), "the model got it");
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.road, h.status], ["opencode", "store", "delivered"]);
    });
  },
);
