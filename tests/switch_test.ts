/**
 * End-to-end switching at a limit through the real `script` shim, simulated agents that behave
 * like the real CLIs (same flags, screens and limit messages), tmux as the user's terminal and the
 * real SQLite journal: the handoff on each road, refused receivers, waiting for a reset, the stall
 * rule. Switching by hand: manual_switch_test.ts; signals: switch_signals_test.ts; the store road:
 * store_road_test.ts.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { framedBody, TypedKeyboard, typeWhenReady, World, worldTest } from "./_world.ts";
import { CONTINUE_REQUEST } from "../src/handoff/frame.ts";
import type { AgentRun } from "../src/session/agent_run.ts";
import { REPO_DIR } from "./_paths.ts";

const REQUEST = "Add a --dry-run flag to deploy.sh and a test for it";
const opts = { sanitizeOps: false, sanitizeResources: false };

worldTest(
  "automatic: a usage limit hands the framed conversation to the next agent's prompt",
  () => new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    const [start] = await w.waitForEvent("codex", "start");
    // Codex got a new session with the framed handoff as its opening prompt, nobody pressed Enter.
    const prompt = String(start.prompt);
    const framed = framedBody(prompt);
    assert(framed, `codex's prompt is not framed:\n${prompt.slice(0, 500)}`);
    assert(prompt.startsWith("----- BEGIN UULDANA HANDOFF"), "the frame comes first");
    assert(
      /Original request[^\n]*\n\s*Add a --dry-run flag/.test(framed.body),
      framed.body.slice(0, 1500),
    );
    assert(framed.body.includes("You've hit your session limit"), "the limit is named");
    assert([...prompt].length <= 20_000);
    // After the record, outside it: uuldana asks, for the user, to continue the original request.
    assert(prompt.trimEnd().endsWith(CONTINUE_REQUEST), prompt.slice(-300));
    assertEquals((start.argv as string[]).includes("--no-daemon"), true);
    await w.waitForEvent("codex", "submit");

    assertEquals(await w.quit(), 0);
    w.withJournal((j) => {
      const [codexRun, claudeRun] = j.runs();
      assertEquals([claudeRun.agent, claudeRun.endReason, codexRun.agent, codexRun.endReason], [
        "claude",
        "limit",
        "codex",
        "exit",
      ]);
      assertEquals(claudeRun.limitMessage, "You've hit your session limit · resets 3:01am (UTC)");
      assertMatch(claudeRun.resetsAt ?? "", /T03:01:00/);
      assertEquals(
        j.entries(claudeRun.id).filter((e) => e.role === "user").map((e) => [e.text, e.fidelity]),
        // Exact from Claude's own UserPromptSubmit hook (its channel).
        [[REQUEST, "event"]],
      );
      assert(j.screen(claudeRun.id)!.some((l) => l.includes("You've hit your session limit")));
      const [h] = j.handoffsFrom(claudeRun.id);
      assertEquals([h.toAgent, h.mode, h.road, h.status, h.toRun], [
        "codex",
        "auto",
        "prompt",
        "delivered",
        codexRun.id,
      ]);
      assertEquals(statSync(h.filePath!).mode & 0o777, 0o600);
      assertEquals(framedBody(readFileSync(h.filePath!, "utf8"))!.nonce, framed.nonce);
    });
  },
);

worldTest(
  "automatic to Claude: the handoff arrives through the SessionStart hook, a kickoff starts the turn",
  () => new World(["codex", "claude"], { codex: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("codex", REQUEST);
    const hook = await w.waitForHandoffHook();
    const context = String(hook.additionalContext);
    assert(framedBody(context), context.slice(0, 300));
    assert(context.includes(REQUEST));
    assert(context.length <= 10_000, `hook context is ${context.length} characters`);
    const [submit] = await w.waitForEvent("claude", "submit");
    assertMatch(String(submit.text), /Continue the work described in the uuldana handoff/);
    // Claude quoting codex's limit message in its context must not count as Claude's own limit.
    await new Promise((r) => setTimeout(r, 1500));
    assertEquals(w.events("claude", "exit").length, 0, "claude was not stopped");
    assertEquals(await w.quit(), 0);
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.road, h.status], ["claude", "hook", "delivered"]);
    });
  },
);

worldTest(
  "nobody spoke: the next agent starts clean, with no prompt and no handoff",
  () => new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    // The prompt goes in as the agent's own argument: uuldana saw no typed turn.
    await w.start(["run", "claude", "--", "hello"]);
    const [start] = await w.waitForEvent("codex", "start");
    assertEquals(start.prompt, null);
    assertEquals(await w.quit(), 0);
    // The status line is on the normal screen, visible once Codex left its alternate screen.
    assertMatch(
      (await w.term.capture()).replaceAll("\n", ""),
      /Nobody spoke to claude; codex starts clean/,
    );
    w.withJournal((j) => {
      assertEquals(j.handoffs().length, 0);
    });
  },
);

worldTest(
  "refused: an agent whose --help does not prove an opening prompt is skipped; the file is saved",
  () =>
    new World(["claude", "codex", "gemini"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      codex: { SIM_HELP_WITHOUT_PROMPT: "1" },
    }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    const [start] = await w.waitForEvent("gemini", "start");
    assert(framedBody(String(start.prompt)), "gemini got the framed handoff via -i");
    assertEquals(w.events("codex", "start").length, 0, "codex was never started");
    await w.quit();
    w.withJournal((j) => {
      const hs = j.handoffs();
      const refused = hs.find((h) => h.toAgent === "codex")!;
      assertEquals(refused.status, "refused");
      assert(existsSync(refused.filePath!));
      assertEquals(hs.find((h) => h.toAgent === "gemini")!.status, "delivered");
    });
  },
);

worldTest(
  "a receiver whose --help is slow because it relaunches itself (Gemini CLI) is proven, not refused",
  // Every start of the simulated Gemini costs 4 s unless GEMINI_CLI_NO_RELAUNCH is set, as the
  // real one's self-relaunch does (2.3–5.8 s seen): longer than the first probe waits.
  () =>
    new World(["claude", "gemini"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      gemini: { SIM_RELAUNCH_MS: "4000" },
    }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    const [start] = await w.waitForEvent("gemini", "start", 1, 40_000);
    assert(framedBody(String(start.prompt))?.body.includes(REQUEST), "gemini got the handoff");
    w.withJournal((j) => {
      const [h] = j.handoffs(1);
      assertEquals([h.toAgent, h.status], ["gemini", "delivered"]);
    });
  },
);

worldTest(
  "every agent limited or refused with --no-wait: exit 3, the handoff saved",
  () =>
    new World(["claude", "codex"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      codex: { SIM_HELP_WITHOUT_PROMPT: "1" },
    }),
  async (w) => {
    await w.start(["run", "--no-wait"]);
    await w.ask("claude", REQUEST);
    assertEquals(await w.exitCode(), 3);
    const screen = await w.term.capture();
    assertMatch(screen.replaceAll("\n", ""), /every agent of the chain is limited/);
    w.withJournal((j) => {
      const last = j.handoffs(1)[0];
      assertEquals(last.status, "refused");
      assert(existsSync(last.filePath!));
    });
  },
);

worldTest(
  "every agent limited: uuldana waits for the reset, then resumes on a new session with the handoff",
  // Claude's limit resets at the first whole minute 5 s after it shows (a real wait, ≤ 65 s).
  () =>
    new World(["claude"], {
      claude: { SIM_LIMIT_AFTER: "1", SIM_RESET_IN: "5", TZ: "UTC" },
    }),
  async (w) => {
    await w.start(["run", "claude", "--then", ""]);
    await w.ask("claude", REQUEST);
    await w.term.waitFor(/waiting for claude to reset/, 20_000);
    const [, second] = await w.waitForEvent("claude", "start", 2, 100_000);
    assertEquals(second.prompt !== undefined, true);
    const hook = await w.waitForHandoffHook();
    assert(String(hook.additionalContext).includes(REQUEST));
  },
);

worldTest(
  "after waiting for a reset, an agent whose --help does not prove a prompt is still refused",
  () =>
    new World(["codex"], {
      codex: { SIM_LIMIT_AFTER: "1", SIM_HELP_WITHOUT_PROMPT: "1" },
    }),
  async (w) => {
    const keys = new TypedKeyboard();
    let runs = 0;
    const { code, status } = await w.runChain({
      keyboard: keys,
      wait: true,
      // Once uuldana waits for codex's reset, a day passes: its reset time has come.
      onStatus: (line) => {
        if (line.includes("waiting for codex")) w.clockAhead(25 * 3600_000);
      },
      onRun: (run) => {
        if (!run) return;
        if (++runs > 1) return run.stop("SIGTERM");
        typeWhenReady(keys, run, REQUEST);
      },
    });
    assertEquals(runs, 1, "codex was started on the handoff without a proof");
    assertEquals(code, 3, status.join("\n"));
    assert(status.some((l) => l.includes("waiting for codex to reset")), status.join("\n"));
    assert(status.some((l) => l.includes("not guessing")), status.join("\n"));
  },
);

Deno.test(
  "the stall rule: busy past stallSeconds with no answer hands off; off by default",
  opts,
  async () => {
    const fixture = join(REPO_DIR, "tests", "fixtures", "pty_agents", "silent_retry.sh");
    // Types a request at the fixture's prompt; stops the next agent once it answered the handoff.
    const drive = (keys: TypedKeyboard) => (run: AgentRun | null) => {
      if (run?.adapterName === "gemini") {
        run.waitUntil(() => run.vt.screenLines().some((l) => l.includes(">")), 20_000)
          .then((ready) => ready && keys.type("fix the build\r"));
      } else if (run?.adapterName === "codex") {
        run.waitUntil(() => run.vt.screenLines().some((l) => l.includes("Continuing from")), 20_000)
          .then(() => run.stop("SIGTERM"));
      }
    };
    const on = new World(["gemini", "codex"], {}, {
      bins: { gemini: fixture },
      agents: { gemini: { stallSeconds: 3 } },
    });
    const off = new World(["gemini", "codex"], {}, { bins: { gemini: fixture } });
    try {
      const keys = new TypedKeyboard();
      assertEquals((await on.runChain({ keyboard: keys, onRun: drive(keys) })).code, 143);
      const [start] = on.events("codex", "start");
      const prompt = String(start.prompt);
      assert(framedBody(prompt)?.body.includes("fix the build"), prompt.slice(0, 300));
      assertMatch(prompt, /gemini stopped answering \("[^"]*busy for [3-6] s with no answer/);
      assert(!prompt.includes("usage limit"), "a stall is not called a usage limit");
      on.withJournal((j) => {
        const gemini = j.runs().find((r) => r.agent === "gemini")!;
        // A stall is named a stall, never a usage limit.
        assertEquals(gemini.endReason, "stall");
        assertMatch(gemini.limitMessage ?? "", /stall rule: 3 s/);
      });

      const keysOff = new TypedKeyboard();
      const { code } = await off.runChain({ keyboard: keysOff, onRun: drive(keysOff) });
      assertEquals(code, 0, "without the rule the agent runs until it gives up by itself");
      assertEquals(off.events("codex", "start").length, 0);
    } finally {
      await on.close();
      await off.close();
    }
  },
);
