/**
 * End-to-end switching flows through the real `script` shim, simulated agents that behave like the
 * real CLIs (same flags, screens and limit messages), tmux as the user's terminal and the real
 * SQLite journal.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
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
  "manual: /agent NAME pastes the handoff into the new agent and does not send it",
  () => new World(["claude", "codex"]),
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", "refactor the parser");
    await w.waitForEvent("claude", "reply");

    // An unknown agent: no switch, the typed command is erased from Claude's input box.
    await w.type("/agent nosuch");
    await w.term.waitFor(`unknown agent "nosuch"; type /agent to list them`);
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
    await w.term.waitFor("nothing was pasted", 20_000);
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
  // Its box is drawn, but it takes no input.
  () => new World(["claude", "opencode"], { opencode: { SIM_DEAF_MS: "600000" } }),
  async (w) => {
    await w.switchByHand("write the changelog", "opencode");
    await w.term.waitFor("never showed in opencode's input box", 60_000);
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
    await w.term.waitFor("nothing was pasted", 20_000);
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
  "SIGKILL of uuldana mid-run: the agent does not outlive it, the next start repairs the journal",
  () => new World(["claude"]),
  async (w) => {
    const tag = `tag-${crypto.randomUUID()}`;
    await w.start(["run", "claude", "--", "--name", tag]);
    await w.waitForEvent("claude", "start");
    // The agent itself, and the `script` holding its pty (not tmux's shell, whose command line
    // also names the tag).
    const agentAlive = async () => {
      for (const pattern of [`sim-agent claude --name ${tag}`, `^script .*--name ${tag}`]) {
        const out = await new Deno.Command("pgrep", { args: ["-f", pattern], stdout: "piped" })
          .output();
        if (out.stdout.length > 0) return true;
      }
      return false;
    };
    assert(await agentAlive());
    const [run] = w.withJournal((j) => j.runs());
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(join(w.home, "journal.db"));
    const owner = Number(
      (db.prepare("SELECT owner_pid FROM runs WHERE id = ?").get(run.id) as { owner_pid: number })
        .owner_pid,
    );
    db.close();
    // What the agent showed reaches the recording's file while it runs, not at the end.
    const recording = join(w.home, "recordings", `run-${run.id}.cast.gz`);
    const flushed = Date.now() + 10_000;
    while ((Deno.statSync(recording).size === 0) && Date.now() < flushed) {
      await new Promise((r) => setTimeout(r, 200));
    }
    Deno.kill(owner, "SIGKILL");
    const deadline = Date.now() + 15_000;
    while (await agentAlive() && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    assertEquals(await agentAlive(), false, "the agent was left running");
    w.withJournal((again) => {
      assertEquals(again.run(run.id)!.endReason, "interrupted");
      const shown = new TextDecoder().decode(gunzipSync(again.output(run.id)!.data));
      assert(shown.includes("Claude Code"), JSON.stringify(shown.slice(0, 200)));
    });
  },
);

worldTest(
  "a signal while no agent runs (during a switch) starts no other agent; the handoff is saved",
  () => new World(["claude", "codex"], { claude: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    const keys = new TypedKeyboard();
    const abort = new AbortController();
    const { code } = await w.runChain({
      keyboard: keys,
      abort: abort.signal,
      onRun: (run) => {
        // The signal lands between claude's limit and the next start, when no run can take it.
        if (!run) return abort.abort("SIGTERM");
        if (run.adapterName !== "claude") return run.stop("SIGTERM");
        typeWhenReady(keys, run, REQUEST);
      },
    });
    assertEquals(code, 143);
    assertEquals(w.events("codex", "start").length, 0, "codex was started after the signal");
    w.withJournal((j) => {
      const [claudeRun] = j.runs();
      assertEquals([claudeRun.agent, claudeRun.endReason], ["claude", "limit"]);
      const [h] = j.handoffsFrom(claudeRun.id);
      assertEquals([h.toAgent, h.status], ["codex", "interrupted"]);
      assert(existsSync(h.filePath!));
    });
  },
);

Deno.test("a resize while an agent is being started still reaches it", opts, async () => {
  const w = new World(["claude"]);
  let current: AgentRun | null = null;
  let calls = 0;
  // The size read for the launch is the old one; the terminal changed before the run was known.
  const chain = w.runChain({
    size: () => calls++ === 0 ? { cols: 100, rows: 30 } : { cols: 120, rows: 40 },
    onRun: (run) => {
      current = run ?? current;
    },
  });
  try {
    await w.waitForEvent("claude", "start");
    // The size the agent has now: the one it started with, or the last resize it got.
    const agentSize = () => {
      const sizes = w.events("claude").flatMap((e) =>
        e.event === "start" ? [e.size] : e.event === "resize" ? [e] : []
      ) as { cols: number; rows: number }[];
      const last = sizes.at(-1)!;
      return [last.cols, last.rows];
    };
    const deadline = Date.now() + 15_000;
    while (agentSize()[0] !== 120 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(agentSize(), [120, 40]);
  } finally {
    (current as AgentRun | null)?.stop("SIGTERM");
    await chain;
    await w.close();
  }
});

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
