/**
 * Pastes into OpenCode on a loaded machine (issue 21): the simulated OpenCode draws its prompt box
 * late, goes quiet late, and draws a paste late, as real OpenCode 1.18.33 and Kilo 7.7.7 do beside
 * two busy loops; the handoff still lands in its input box once, unsent.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { framedBody, until, World, worldTest } from "./_world.ts";

// The handoff's journal entry once its paste is settled (pasted, saved), or null.
function settled(w: World) {
  return w.withJournal((j) => {
    const h = j.handoffs(1)[0];
    return h && h.status !== "pending" ? h : null;
  });
}

worldTest(
  "manual: OpenCode's box shows as the paste's wait runs out: it still gets its time to go quiet",
  // Real OpenCode drew its box 118 s into the 120 s wait, and the paste was dropped for the 1.5 s
  // of quiet it had no time left for. Here going quiet takes longer than the whole wait.
  () =>
    new World(["claude", "opencode"], { opencode: { SIM_LOADING_MS: "1000" } }, {
      config: { pasteTimeoutSeconds: 5, quietSeconds: 5.5 },
    }),
  async (w) => {
    await w.switchByHand("refactor the parser", "opencode");
    const [paste] = await w.waitForEvent("opencode", "paste", 1, 40_000);
    assert(framedBody(String(paste.text))?.body.includes("refactor the parser"));
    await until(() => settled(w) !== null, "the paste's journal entry");
    const h = settled(w)!;
    assertEquals([h.toAgent, h.status], ["opencode", "pasted"], h.error ?? "");
    assertEquals(w.events("opencode", "submit").length, 0, "not sent");
  },
);

worldTest(
  "manual: a paste OpenCode draws only after the receipt's wait is not pasted a second time",
  // A loaded OpenCode takes the paste at once but draws it 7 s later, after uuldana's 5 s look.
  () => new World(["claude", "opencode"], { opencode: { SIM_PASTE_SHOW_MS: "7000" } }),
  async (w) => {
    await w.switchByHand("refactor the parser", "opencode");
    await w.waitForEvent("opencode", "paste", 1, 40_000);
    await until(() => settled(w) !== null, "the paste's journal entry");
    const h = settled(w)!;
    assertEquals([h.toAgent, h.status], ["opencode", "pasted"], h.error ?? "");
    assertMatch(h.receipt ?? "", /^visible on screen: ".*\(it showed late\)$/);
    assertEquals(w.events("opencode", "paste").length, 1, "pasted once: the box holds it once");
  },
);
