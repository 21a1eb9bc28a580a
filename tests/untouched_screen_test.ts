/**
 * The agent's screen is the agent's: while it runs, uuldana writes none of its own text into it.
 * The simulated Claude with its hooks off (as under managed settings) makes uuldana find its
 * channel silent mid-run, the moment the real-agent matrix once saw `uuldana: claude's channel is
 * silent…` drawn over Claude's input box and the user's next keys garbled on it. Here the text
 * typed after that moment must stand alone in the input box, no byte of uuldana's own text may
 * have reached the outer terminal (tmux) while the agent ran, and the line must be said once the
 * agent is gone and be kept with the run (`uuldana show`).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { until, World, worldTest } from "./_world.ts";

const TYPED = "typed after the silence";

worldTest(
  "a line uuldana has while the agent runs waits until the agent is gone",
  () => new World(["claude"], { claude: { SIM_HOOKS_OFF: "1" } }),
  async (w) => {
    const raw = join(w.root, "outer.bytes");
    await w.start(["run"]);
    await w.ask("claude", "first question");
    await w.waitForEvent("claude", "reply");
    // From the agent's first frame on, every byte the outer terminal is sent.
    await w.term.recordOutput(raw);
    // The channel is found silent when the submit has waited for its prompt event in vain: that
    // moment keeps the submit as typed in the journal (run_channel.ts, channel_turns.ts).
    const typed = () =>
      w.withJournal((j) => j.runs().flatMap((r) => j.entries(r.id)))
        .filter((e) => e.role === "user").map((e) => e.text);
    await until(() => typed().length > 0, "the channel found silent", 20_000);
    assertEquals(typed(), ["first question"]);
    await w.term.send(TYPED, true);
    const screen = await w.term.waitFor(TYPED);
    // The input box row holds exactly what was typed: nothing was drawn over it or beside it.
    const rows = screen.split("\n").map((l) => l.trimEnd());
    assert(rows.includes(`❯\u00a0${TYPED}`), screen);
    assert(!screen.includes("uuldana:"), screen);
    const sent = Deno.readTextFileSync(raw);
    assert(sent.includes(TYPED), "the recording of the outer terminal missed the typed text");
    assert(!sent.includes("uuldana:"), `uuldana wrote into the agent's screen:\n${sent}`);

    // Once the agent is gone the screen is uuldana's: the line is said there, once.
    assertEquals(await w.quit(), 0);
    const after = await w.term.history();
    const said = after.split("\n").filter((l) => l.includes("channel is silent"));
    assertEquals(said.length, 1, after);
    assert(said[0].startsWith("uuldana: claude's channel is silent"), said[0]);
    // And the run keeps it.
    const run = w.withJournal((j) => j.runs().find((r) => r.agent === "claude")!);
    assertEquals((await w.runChannel(run.id))?.state, "silent");
    const shown = (await w.uuldana(["show", String(run.id)])).stdout;
    assert(/channel +silent \(no event came 4 s after a submit/.test(shown), shown);
  },
);
