/**
 * `/agent NAME` end to end (real `script`, simulated agents, tmux, the real journal): the handoff
 * pasted into the next agent's input box, unsent, and what happens when the box never shows, the
 * paste never appears or the agent takes no bracketed paste.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { framedBody, notified, World, worldTest } from "./_world.ts";

worldTest(
  "manual: /agent NAME pastes the handoff into the new agent and does not send it",
  () => new World(["claude", "codex"]),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "refactor the parser");
    await w.waitForEvent("claude", "reply");

    // An unknown agent: no switch, the typed command is erased from Claude's input box, and the
    // answer shows on the terminal's other screen, Claude's untouched under it.
    await w.type("/agent nosuch");
    const answer = await w.term.waitFor(`unknown agent "nosuch"; type /agent to list them`);
    assert(answer.includes("(any key: back to claude)"), answer);
    assert(!answer.includes("? for shortcuts"), `drawn over Claude's screen:\n${answer}`);
    // Any key goes back (swallowed): Claude's screen as it was, its input box empty.
    await w.term.send("Escape");
    const back = await w.term.waitFor("? for shortcuts");
    assert(!back.includes("uuldana:") && !back.includes("nosuch"), back);
    assert(back.split("\n").some((l) => l.trimEnd() === "❯"), back);
    assert(back.includes("❯ refactor the parser"), back);
    const inputs = w.events("claude", "input").map((e) => String(e.bytes)).join("");
    assert(
      inputs.endsWith("/agent nosuch" + "\x7f".repeat(13)),
      JSON.stringify(inputs.slice(-40)),
    );
    assertEquals(
      w.events("claude", "submit").length,
      1,
      "the command never reached Claude as a turn",
    );

    await w.type("/agent codex");
    const [paste] = await w.waitForEvent("codex", "paste");
    const [start] = w.events("codex", "start");
    assertEquals(start.prompt, null, "the new agent starts without a prompt");
    const framed = framedBody(String(paste.text));
    assert(framed, String(paste.text).slice(0, 300));
    assert(framed.body.includes("refactor the parser"));
    const input = w.events("codex", "input").map((e) => String(e.bytes)).join("");
    assert(
      input.startsWith("\x1b[200~") && input.endsWith("\x1b[201~"),
      "one bracketed paste, nothing after it",
    );
    await new Promise((r) => setTimeout(r, 1000));
    assertEquals(w.events("codex", "submit").length, 0, "the paste was not sent");

    assertEquals(await w.quit(), 0);
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.mode, h.road, h.status], ["codex", "manual", "paste", "pasted"]);
      // The receipt names this handoff's own END boundary, never a line an interface also shows.
      assertEquals(
        h.receipt,
        `visible on screen: "----- END UULDANA HANDOFF ${framed.nonce} -----"`,
      );
      assertEquals(j.runs()[1].endReason, "switch");
    });
  },
);

worldTest(
  "manual: /agent opencode while it loads: the paste waits for its input box, then shows at once",
  // Like real OpenCode, the simulated one turns bracketed paste on, draws a blank frame and
  // drops input while it loads; its box comes after.
  () => new World(["claude", "opencode"], { opencode: { SIM_LOADING_MS: "4000" } }),
  async (w) => {
    await w.switchByHand("refactor the parser", "opencode");
    const [paste] = await w.waitForEvent("opencode", "paste", 1, 40_000);
    assert(framedBody(String(paste.text))?.body.includes("refactor the parser"));
    const dropped = w.events("opencode", "dropped").map((e) => String(e.bytes)).join("");
    assert(!dropped.includes("BEGIN UULDANA HANDOFF"), "nothing was pasted into the blank TUI");
    await new Promise((r) => setTimeout(r, 1000));
    assertEquals(w.events("opencode", "paste").length, 1, "it arrived once");
    assertEquals(w.events("opencode", "submit").length, 0, "and was not sent");
    await w.quit();
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.status], ["opencode", "pasted"]);
      assertMatch(h.receipt ?? "", /^visible on screen: "----- END UULDANA HANDOFF/);
    });
  },
);

// Gemini and Copilot collapse a long paste into a label: the label is the receipt.
for (
  const [agent, shown, label] of [
    ["gemini", "[Pasted Text: N lines]", String.raw`\[Pasted Text: \d+ lines\]`],
    ["copilot", "[Paste #1 - N lines]", String.raw`\[Paste #1 - \d+ lines\]`],
  ]
) {
  worldTest(
    `manual: /agent ${agent} shows the paste as ${shown}: pasted once, then sent whole`,
    () => new World(["claude", agent]),
    async (w) => {
      await w.start(["run"]);
      await w.ask("claude", "refactor the parser");
      await w.waitForEvent("claude", "reply");
      await w.type(`/agent ${agent}`);
      await w.term.waitFor(new RegExp(label), 30_000);
      await new Promise((r) => setTimeout(r, 8000)); // longer than one receipt wait
      assertEquals(w.events(agent, "paste").length, 1, "a paste that showed is not pasted again");
      w.withJournal((j) => {
        const [h] = j.handoffs(1);
        assertEquals(h.status, "pasted");
        assertMatch(h.receipt ?? "", new RegExp(`visible on screen: "${label}"`));
      });
      await w.term.send("Enter");
      const [submit] = await w.waitForEvent(agent, "submit");
      assert(framedBody(String(submit.text))?.body.includes("refactor the parser"));
    },
  );
}

worldTest(
  "manual: an OpenCode that never draws its prompt box gets nothing, though ?2004 is on",
  () =>
    new World(["claude", "opencode"], { opencode: { SIM_LOADING_MS: "600000" } }, {
      config: { pasteTimeoutSeconds: 3 },
    }),
  async (w) => {
    await w.switchByHand("write the changelog", "opencode");
    const raw = join(w.root, "outer.bytes");
    await w.term.recordOutput(raw);
    // Told at once beside OpenCode's screen, never in it; said on the status line once it is gone.
    const told = await notified(raw, "nothing was pasted", 20_000);
    // (A notification's text has no `;`: it would end the sequence where OSC 777 is used.)
    assertMatch(
      told,
      /opencode: the agent did not show its input box within 3 s nothing was pasted the handoff is saved in \S+handoff\.md$/,
    );
    // Its status line (`\r\x1b[Juuldana: …`) waits until OpenCode is gone: after the switch's
    // own line, said before OpenCode started (or before the recording did), there is none.
    const sent = readFileSync(raw, "utf8");
    const since = sent.slice(Math.max(0, sent.indexOf("switching claude → opencode")));
    assert(!since.includes("\x1b[Juuldana:"), JSON.stringify(since));
    assertEquals(w.events("opencode", "dropped").length, 0, "nothing was written to it");
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.status], ["opencode", "saved"]);
      assertMatch(h.error ?? "", /did not show its input box within 3 s/);
    });
  },
);

worldTest(
  "manual: a paste that never shows is not journaled as pasted; handoff.md is saved, the user told",
  // Its box is drawn, but it takes no input. All three pastes fall within the one paste wait, each
  // with the receipt's 5 s look after it: on a loaded machine that can pass the default 40 s, so
  // this test allows 120 s (the user's to set) to see the third.
  () =>
    new World(["claude", "opencode"], { opencode: { SIM_DEAF_MS: "600000" } }, {
      config: { pasteTimeoutSeconds: 120 },
    }),
  async (w) => {
    await w.switchByHand("write the changelog", "opencode");
    const raw = join(w.root, "outer.bytes");
    await w.term.recordOutput(raw);
    await notified(raw, "never showed in opencode's input box", 60_000);
    const dropped = w.events("opencode", "dropped").map((e) => String(e.bytes)).join("");
    assertEquals(dropped.split("BEGIN UULDANA HANDOFF").length - 1, 3, "written three times");
    const saved = join(w.home, "handoff.md");
    assert(framedBody(readFileSync(saved, "utf8"))!.body.includes("write the changelog"));
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.status], ["opencode", "saved"]);
      assertMatch(h.receipt ?? "", /written 3 times, never visible/);
      assertMatch(h.error ?? "", /never showed in opencode's input box/);
    });
  },
);

worldTest(
  "manual: an agent that never enables bracketed paste gets nothing; handoff.md is saved",
  // `cat` stands in for an agent that never shows a pasteable prompt.
  () =>
    new World(["claude", "gemini"], {}, {
      bins: { gemini: "/bin/cat" },
      config: { pasteTimeoutSeconds: 2 },
    }),
  async (w) => {
    await w.switchByHand("write the changelog", "gemini");
    const raw = join(w.root, "outer.bytes");
    await w.term.recordOutput(raw);
    await notified(raw, "nothing was pasted", 20_000);
    const saved = join(w.home, "handoff.md");
    assert(existsSync(saved));
    assert(framedBody(readFileSync(saved, "utf8"))!.body.includes("write the changelog"));
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.status], ["gemini", "saved"]);
      assertMatch(h.error ?? "", /bracketed paste/);
    });
  },
);

worldTest(
  "manual: /agent over an agent on the alternate screen: drawn over it, then it repaints as it was",
  () => new World(["opencode", "claude"]),
  async (w) => {
    await w.start(["run"]);
    await w.waitForEvent("opencode", "start");
    const before = await w.term.waitFor("Ask anything");
    await w.type("/agent");
    const answer = await w.term.waitFor("(any key: back to opencode)");
    assert(answer.includes("claude"), answer);
    assert(!answer.includes("Ask anything"), `drawn beside OpenCode's screen:\n${answer}`);
    await w.term.send("Escape");
    // OpenCode repaints on one row less and then its size again: its screen as it was.
    await w.waitForEvent("opencode", "resize", 2);
    assertEquals(
      w.events("opencode", "resize").map((e) => `${e.cols}x${e.rows}`),
      ["120x39", "120x40"],
    );
    let now = "";
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      if ((now = await w.term.capture()) === before) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(now, before, "OpenCode's screen is not back as it was");
    assertEquals(w.events("opencode", "submit").length, 0, "nothing was sent to OpenCode");
  },
);
