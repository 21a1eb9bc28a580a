/**
 * End-to-end: the limit ledger every run shares, going back to the first agent, and telling the
 * user. Real `script`, simulated agents that behave like the real CLIs, tmux as the user's
 * terminal, the real SQLite journal.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  claudeClock,
  CLOCK_PATTERN,
  framedBody,
  stopWhenDrawn,
  TypedKeyboard,
  typeWhenReady,
  until,
  World,
  worldTest,
} from "./_world.ts";
import type { AgentRun } from "../src/session/agent_run.ts";
import { newLimitEntry } from "../src/chain/limits.ts";

const REQUEST = "Add a --dry-run flag to deploy.sh and a test for it";
const opts = { sanitizeOps: false, sanitizeResources: false };
const HOUR = 3600_000;

/** A reset time `ms` ahead, shown the way Claude shows it ("3:01am"), in UTC. */
function shownAhead(ms: number): string {
  return claudeClock(new Date(Date.now() + ms));
}

/** Claude, limited at its first turn until two hours from now, then codex. */
function claudeThenCodex(
  codexEnv: Record<string, string> = {},
  config: Record<string, unknown> = {},
): World {
  return new World(["claude", "codex"], {
    claude: { SIM_LIMIT_AFTER: "1", SIM_RESET_AT: shownAhead(2 * HOUR), TZ: "UTC" },
    codex: codexEnv,
  }, { config });
}

/** Types the request once the run shows a pasteable prompt and is quiet. */
function askWhenReady(keys: TypedKeyboard, run: AgentRun): void {
  typeWhenReady(keys, run, REQUEST);
}

worldTest(
  "a second `uuldana run` after a limit starts the next agent and says why in one line",
  () => claudeThenCodex(),
  async (w) => {
    const keys = new TypedKeyboard();
    // The first run: claude hits its limit, codex takes over, then stops.
    const first = await w.runChain({
      keyboard: keys,
      onRun: (run) => {
        if (run?.adapterName === "claude") askWhenReady(keys, run);
        else stopWhenDrawn(run);
      },
    });
    assertEquals(first.code, 143, first.status.join("\n"));
    const claudeRun = w.withJournal((j) => j.runs().find((r) => r.agent === "claude")!.id);

    // A second uuldana, another process: it reads the ledger and starts codex.
    await w.start(["run"]);
    await w.waitForEvent("codex", "start", 2);
    assertEquals(w.events("claude", "start").length, 1, "claude was not started again");
    await w.term.waitFor("? for shortcuts"); // its keys read: quit keys cannot signal it
    assertEquals(await w.quit(), 0);
    // The line is on the normal screen, visible once Codex left its alternate screen.
    const screen = (await w.term.capture()).replaceAll("\n", "");
    assertMatch(
      screen,
      new RegExp(
        `uuldana: claude is limited until ${CLOCK_PATTERN} \\(seen ${CLOCK_PATTERN} in run ${claudeRun}\\); starting codex`,
      ),
    );

    // `uuldana limits` and `uuldana agents --json` show it; `limits clear` forgets it.
    const listed = JSON.parse((await w.uuldana(["limits", "--json"])).stdout);
    assertEquals(listed.map((l: { agent: string; limited: boolean }) => [l.agent, l.limited]), [
      ["claude", true],
    ]);
    assertEquals(listed[0].runId, claudeRun);
    assertMatch(listed[0].message, /You've hit your session limit/);
    const agents = JSON.parse((await w.uuldana(["agents", "--json"])).stdout);
    const claude = agents.find((a: { name: string }) => a.name === "claude");
    assertEquals(claude.limit.limited, true);
    assertEquals(agents.find((a: { name: string }) => a.name === "codex").limit, null);
    const cleared = await w.uuldana(["limits", "clear", "claude"]);
    assertEquals([cleared.code, cleared.stdout.trim()], [
      0,
      "cleared claude's limit; runs choose it again",
    ]);
    assertEquals(JSON.parse((await w.uuldana(["limits", "--json"])).stdout), []);
    const unknown = await w.uuldana(["limits", "clear", "nosuch"]);
    assertEquals(unknown.code, 2);
    assertMatch(unknown.stderr, /unknown agent "nosuch"/);
  },
);

worldTest(
  "after the reset time the first agent is chosen again",
  () => new World(["claude", "codex"]),
  async (w) => {
    // Claude's limit, as an earlier uuldana recorded it, resets in a minute.
    Deno.mkdirSync(w.home, { recursive: true });
    w.withJournal((j) =>
      j.addLimit(newLimitEntry(
        {
          kind: "usage",
          message: "You've hit your session limit",
          resetsAt: new Date(Date.now() + 60_000).toISOString(),
        },
        { agent: "claude", runId: null, now: new Date(), previous: null },
      ))
    );
    const skipped = await w.runChain({ onRun: stopWhenDrawn });
    assertEquals(w.events("codex", "start").length, 1);
    assertMatch(
      skipped.status[0],
      new RegExp(`^claude is limited until ${CLOCK_PATTERN} \\(seen .*\\); starting codex$`),
    );
    // The reset passes (the chain reads the time from Date.now).
    w.clockAhead(61_000);
    const chosen = await w.runChain({ onRun: stopWhenDrawn });
    assertEquals(w.events("claude", "start").length, 1, "claude started once its reset passed");
    assertEquals(w.events("codex", "start").length, 1);
    assertEquals(chosen.status, [], "nothing was skipped");
  },
);

worldTest(
  "every agent limited at the start: wait for the earliest reset, then start it",
  () => new World(["claude", "codex"]),
  async (w) => {
    Deno.mkdirSync(w.home, { recursive: true });
    w.withJournal((j) => {
      for (const [agent, inMs] of [["claude", HOUR], ["codex", 60_000]] as const) {
        j.addLimit(newLimitEntry(
          {
            kind: "usage",
            message: "limit",
            resetsAt: new Date(Date.now() + inMs).toISOString(),
          },
          { agent, runId: null, now: new Date(), previous: null },
        ));
      }
    });
    const noWait = await w.runChain();
    assertEquals(noWait.code, 3, "--no-wait: exit 3 at once");
    assertMatch(
      noWait.status[0],
      /every agent of the chain is limited .*claude is limited until/,
    );
    const { status } = await w.runChain({
      wait: true,
      onRun: stopWhenDrawn,
      // Once the wait began, codex's reset comes (the wait reads the time from Date.now).
      onStatus: (line) => {
        if (line.startsWith("every agent is limited; waiting")) {
          w.clockAhead(61_000);
        }
      },
    });
    assertMatch(
      status[0],
      new RegExp(`^every agent is limited; waiting for codex to reset at ${CLOCK_PATTERN}`),
    );
    assertEquals(w.events("codex", "start").length, 1, "codex started once its reset came");
    assertEquals(w.events("claude", "start").length, 0);
  },
);

worldTest(
  "within one long run, an agent whose reset passed is chosen again at the next limit",
  () => claudeThenCodex({ SIM_LIMIT_AFTER: "1" }),
  async (w) => {
    const keys = new TypedKeyboard();
    let claudeRuns = 0;
    const { code, status } = await w.runChain({
      keyboard: keys,
      onRun: (run) => {
        if (!run) return;
        if (run.adapterName === "codex") {
          // Codex works for a long time: claude's reset (2 h) passes meanwhile.
          w.clockAhead(3 * HOUR);
        } else if (++claudeRuns === 1) askWhenReady(keys, run);
      },
    });
    // Claude took the work back at codex's limit (and, being the simulated one, hit its own
    // limit again on that turn: then every agent is limited, exit 3 with --no-wait).
    assertEquals(claudeRuns, 2, status.join("\n"));
    assert(status.some((l) => l.startsWith("codex → claude:")), status.join("\n"));
    assertEquals(code, 3, status.join("\n"));
    const [, second] = w.events("claude", "start");
    assert(second, "claude started a second time");
    const hook = w.events("claude", "hook").find((h) => h.additionalContext)!;
    assert(framedBody(String(hook.additionalContext))?.body.includes(REQUEST));
  },
);

Deno.test(
  "a stale reset does not loop: limited again right after its reset, the agent is backed off",
  opts,
  async () => {
    // Claude's limit reset at the start of this minute; it still shows that time when started.
    const reset = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const shown = claudeClock(reset);
    const w = new World(["claude", "codex"], {
      claude: { SIM_LIMIT_AFTER: "1", SIM_RESET_AT: shown, TZ: "UTC" },
    });
    const keys = new TypedKeyboard();
    try {
      Deno.mkdirSync(w.home, { recursive: true });
      w.withJournal((j) =>
        j.addLimit({
          agent: "claude",
          kind: "usage",
          message: `You've hit your session limit · resets ${shown} (UTC)`,
          seenAt: new Date(reset.getTime() - HOUR).toISOString(),
          until: reset.toISOString(),
          runId: null,
          strikes: 0,
        })
      );
      const { code, status } = await w.runChain({
        keyboard: keys,
        onRun: (run) => {
          if (run?.adapterName === "claude") askWhenReady(keys, run);
          else stopWhenDrawn(run);
        },
      });
      assertEquals(code, 143, status.join("\n"));
      // Its reset had passed: claude was chosen, showed the same reset time (read as tomorrow's),
      // and was backed off for 5 minutes instead of a day or a restart loop; codex took the work.
      assertEquals(w.events("claude", "start").length, 1);
      assertEquals(w.events("codex", "start").length, 1);
      assert(status.some((l) => l.startsWith("claude → codex:")), status.join("\n"));
      w.withJournal((j) => {
        const [latest] = j.limitHistory(1);
        assertEquals([latest.agent, latest.strikes], ["claude", 1]);
        const backoff = Date.parse(latest.until!) - Date.parse(latest.seenAt);
        assertEquals(backoff, 5 * 60_000);
      });
      const next = await w.runChain({ onRun: stopWhenDrawn });
      assertMatch(
        next.status[0],
        new RegExp(`^claude is limited until ${CLOCK_PATTERN} \\(backing off`),
      );
    } finally {
      await w.close();
    }
  },
);

worldTest(
  "going back: 'available again' is said while a later agent works; off by default",
  () => claudeThenCodex(),
  async (w) => {
    const keys = new TypedKeyboard();
    const lines: string[] = [];
    let codexRun: AgentRun | null = null;
    const chain = w.runChain({
      keyboard: keys,
      onStatus: (line) => lines.push(line),
      onRun: (run) => {
        if (run?.adapterName === "claude") askWhenReady(keys, run);
        else if (run) codexRun = run;
      },
    });
    await until(() => codexRun !== null, "codex to start");
    await new Promise((r) => setTimeout(r, 1_000));
    assert(!lines.some((l) => l.includes("available again")), "not before the reset");
    w.clockAhead(3 * HOUR);
    await until(() => lines.some((l) => l.includes("available again")), "the line", 15_000);
    assert(lines.includes("claude is available again: type /agent claude to go back"));
    await new Promise((r) => setTimeout(r, 2_000));
    assertEquals(codexRun!.finished, false, "codex keeps working: no return by default");
    codexRun!.stop("SIGTERM");
    assertEquals((await chain).code, 143);
    assertEquals(w.events("claude", "start").length, 1);
  },
);

Deno.test(
  "returnToFirst: the work goes back to the first agent when the later one is idle",
  opts,
  async () => {
    const w = new World(["claude", "codex"], {
      claude: {
        SIM_LIMIT_AFTER: "1",
        SIM_LIMIT_SESSIONS: "1", // claude's account has reset when the work comes back
        SIM_RESET_AT: shownAhead(2 * HOUR),
        TZ: "UTC",
      },
    }, { config: { returnToFirst: true } });
    const keys = new TypedKeyboard();
    let claudeRuns = 0;
    // A return that never comes fails the test instead of hanging it.
    const giveUp = new AbortController();
    let current: AgentRun | null = null;
    const deadline = setTimeout(() => {
      giveUp.abort("SIGTERM");
      current?.stop("SIGTERM");
    }, 60_000);
    try {
      const { code, status } = await w.runChain({
        keyboard: keys,
        abort: giveUp.signal,
        onRun: (run) => {
          current = run;
          if (!run) return;
          if (run.adapterName === "codex") {
            // Once codex answered the handoff, claude's reset passes.
            run.waitUntil(
              () => run.vt.screenLines().some((l) => l.includes("Continuing from")),
              20_000,
            )
              .then(() => w.clockAhead(3 * HOUR));
          } else if (++claudeRuns === 1) askWhenReady(keys, run);
          else stopWhenDrawn(run);
        },
      });
      assertEquals(code, 143, status.join("\n"));
      assertEquals(claudeRuns, 2, status.join("\n"));
      assert(
        status.some((l) => /goes back to it at the next quiet moment/.test(l)),
        status.join("\n"),
      );
      assert(status.some((l) => l.startsWith("codex → claude: claude is available again")));
      const hook = w.events("claude", "hook").find((h) => h.additionalContext)!;
      const framed = framedBody(String(hook.additionalContext));
      assert(framed && framed.body.includes(REQUEST), String(hook.additionalContext).slice(0, 300));
      assert(framed.body.includes("claude's usage limit has reset"), framed.body.slice(0, 800));
      w.withJournal((j) => {
        const codex = j.runs().find((r) => r.agent === "codex")!;
        assertEquals(codex.endReason, "return");
        const [h] = j.handoffsFrom(codex.id);
        assertEquals([h.toAgent, h.mode, h.road, h.status], [
          "claude",
          "auto",
          "hook",
          "delivered",
        ]);
      });
    } finally {
      clearTimeout(deadline);
      await w.close();
    }
  },
);

worldTest(
  "a switch rings the bell and sends OSC 9 to the outer terminal, never to an agent",
  () => new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    const out = join(w.root, "outer.bytes");
    await w.start(["run"]);
    await w.term.recordOutput(out);
    await w.ask("claude", REQUEST);
    await w.waitForEvent("codex", "submit");
    await until(() => readFileSync(out, "latin1").includes("\x1b]9;"), "the notification");
    const outer = readFileSync(out, "utf8");
    assert(
      outer.includes(
        "\x07\x1b]9;uuldana: claude → codex: You've hit your session limit · resets 3:01am (UTC)\x1b\\",
      ),
      JSON.stringify(outer.slice(outer.indexOf("\x1b]9;") - 20, outer.indexOf("\x1b]9;") + 120)),
    );
    for (const agent of ["claude", "codex"]) {
      const typed = w.events(agent, "input").map((e) => String(e.bytes)).join("");
      assert(!typed.includes("\x07") && !typed.includes("\x1b]9"), `${agent} got it`);
    }
    assertEquals(await w.quit(), 0);
  },
);
