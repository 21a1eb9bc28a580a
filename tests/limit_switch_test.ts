/**
 * Limit detection through a real `uuldana run`: simulated agents that show their limits the way
 * the real ones were seen to (a message split across writes, a second limit equal to one the
 * handoff quotes, OpenCode's footer wrapped at 120 columns and its final `┃` error block,
 * Copilot's error through a user's own provider, Qwen 0.24.4 retrying DashScope's quota 429 at
 * column 2), tmux as the user's terminal, the real journal.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { World, worldTest } from "./_world.ts";
import { codexLimitLine, QWEN_QUOTA_RETRY_ROW } from "../src/sim/limit.ts";
import type { Journal, RunRow } from "../src/journal/journal.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** Runs `check` on the journal once `ready` holds there (the run's end is written at its exit). */
async function journalWhen(
  w: World,
  check: (j: Journal) => void,
  ready: (j: Journal) => boolean,
): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!w.withJournal(ready) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  w.withJournal(check);
}

worldTest(
  "a limit message split across two writes inside its reset clause is decided on complete: uuldana waits for the reset",
  () =>
    new World(["claude"], {
      claude: { SIM_LIMIT_AFTER: "1", SIM_SPLIT_MS: "150", SIM_RESET_AT: "11:58pm", TZ: "UTC" },
    }),
  async (w) => {
    await w.start(["run", "claude", "--then", ""]);
    await w.ask("claude", "tidy the changelog", null);
    await w.waitForEvent("claude", "split");
    // Cut short ("resets 11"), there would be no reset time: exit 3 instead of a wait.
    await w.term.waitFor(/waiting for claude to reset/, 20_000);
    await journalWhen(w, (j) => {
      const [run] = j.runs();
      assertEquals(run.limitMessage, "You've hit your session limit · resets 11:58pm (UTC)");
      assert(/T23:58:00/.test(run.resetsAt ?? ""), run.resetsAt ?? "no reset time");
    }, (j) => j.runs()[0]?.endReason === "limit");
  },
);

Deno.test(
  "a genuine second limit equal to one the handoff quotes is seen once the echo scrolled away",
  opts,
  async () => {
    // The user quotes Codex's limit to Claude; Claude's limit hands that to Codex, whose own,
    // identical, limit comes eight turns later, long after the handoff's echo left the screen.
    const limitAfter = 9;
    const w = new World(["claude", "codex", "gemini"], {
      claude: { SIM_LIMIT_AFTER: "1" },
      codex: { SIM_LIMIT_AFTER: String(limitAfter) },
    });
    try {
      await w.start(["run"]);
      await w.ask("claude", `codex stopped with: ${codexLimitLine()} please go on`, null);
      const [start] = await w.waitForEvent("codex", "start");
      assert(String(start.prompt).includes("You’ve hit your usage limit"), "the handoff quotes it");
      await w.waitForEvent("codex", "reply");
      for (let turn = 2; turn < limitAfter; turn++) {
        await new Promise((r) => setTimeout(r, 300));
        await w.type(`next step ${turn}`);
        await w.waitForEvent("codex", "reply", turn);
      }
      await new Promise((r) => setTimeout(r, 300));
      await w.type("last step");
      await w.waitForEvent("codex", "limit");
      await w.waitForEvent("gemini", "start", 1, 20_000);
      await w.quit();
      w.withJournal((j) => {
        const codexRun = j.runs().find((r) => r.agent === "codex")!;
        assertEquals(codexRun.endReason, "limit");
        assert(/T03:02:00/.test(codexRun.resetsAt ?? ""), codexRun.resetsAt ?? "no reset");
      });
    } finally {
      await w.close();
    }
  },
);

// 94 characters: at 120 columns the footer breaks after "[retrying in", as real OpenCode's did.
const WRAPPED =
  "You exceeded your current quota, please check your plan and billing details… (click to expand)";

/** OpenCode at its quota on the first turn, with its plugin on or off: the run that met it. */
function openCodeQuotaWorld(plugin: boolean): World {
  return new World(["opencode", "claude"], {
    opencode: {
      SIM_LIMIT_AFTER: "1",
      SIM_LIMIT_TEXT: WRAPPED,
      SIM_RETRY_MS: "400",
      ...(plugin ? {} : { SIM_HOOKS_OFF: "1" }),
    },
  });
}

/** Asks OpenCode once, waits for Claude to take over, quits; returns the OpenCode run's row. */
async function limitedOpenCodeRun(w: World): Promise<RunRow> {
  await w.start(["run"]);
  await w.ask("opencode", "fix the flaky test", null);
  await w.waitForEvent("claude", "start", 1, 20_000);
  await w.quit();
  const run = w.withJournal((j) => j.runs().find((r) => r.agent === "opencode")!);
  assertEquals(run.endReason, "limit");
  return run;
}

worldTest(
  "OpenCode's retry footer wrapped at 120 columns (a quota text) hands off",
  // Its plugin off: the screen alone.
  () => openCodeQuotaWorld(false),
  async (w) => {
    const run = await limitedOpenCodeRun(w);
    assert(
      /^You exceeded your current quota.*\[retrying in 13s attempt #\d+\]$/.test(
        run.limitMessage ?? "",
      ),
      run.limitMessage ?? "no message",
    );
    // The footer really wrapped: its two rows are on the saved screen.
    const screen = w.withJournal((j) => j.screen(run.id)!);
    assert(screen.some((l) => /\[retrying in\s*$/.test(l)), screen.join("\n"));
  },
);

worldTest(
  "OpenCode's plugin reports the quota at its first retry: the channel's limit hands off",
  () => openCodeQuotaWorld(true),
  async (w) => {
    const run = await limitedOpenCodeRun(w);
    const decisions = w.withJournal((j) => j.decisions(run.id));
    assert(
      decisions.some((d) => d.source === "channel" && d.event?.type === "limit"),
      JSON.stringify(decisions.map((d) => [d.source, d.verdict, d.event?.type])),
    );
    assert(decisions.some((d) => d.verdict === "acted"));
  },
);

worldTest(
  "OpenCode's final `┃` error block, once it stopped retrying, hands off",
  () =>
    new World(["opencode", "claude"], {
      // Its plugin off: with it, the quota in its first retry hands off before it gives up.
      opencode: {
        SIM_LIMIT_AFTER: "1",
        SIM_RETRY_GIVEUP: "1",
        SIM_RETRY_MS: "300",
        SIM_HOOKS_OFF: "1",
      },
    }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("opencode", "fix the flaky test", null);
    await w.waitForEvent("opencode", "gave-up");
    await w.waitForEvent("claude", "start", 1, 20_000);
    await w.quit();
    w.withJournal((j) => {
      const run = j.runs().find((r) => r.agent === "opencode")!;
      assertEquals([run.endReason, run.limitMessage], [
        "limit",
        "Rate limit reached for requests",
      ]);
    });
  },
);

Deno.test(
  "Copilot's error through a user's own provider (retried, then 429 out of quota) hands off",
  opts,
  async () => {
    const text =
      "Failed to get response from the AI model; retried 5 times (total retry wait time: " +
      "6.4 seconds) Last error: 429 You exceeded your current quota, please check your plan and " +
      "billing details.";
    const w = new World(["copilot", "claude"], {
      copilot: { SIM_LIMIT_AFTER: "1", SIM_LIMIT_TEXT: text },
    });
    try {
      await w.start(["run"]);
      await w.ask("copilot", "fix the flaky test", null);
      await w.waitForEvent("claude", "start", 1, 20_000);
      await w.quit();
      w.withJournal((j) => {
        const run = j.runs().find((r) => r.agent === "copilot")!;
        assertEquals([run.endReason, run.limitMessage], ["limit", text]);
      });
    } finally {
      await w.close();
    }
  },
);

worldTest(
  "Copilot retrying a quota 429 behind its turning `◉ Working` footer: its hook's first report hands off, not its `✗` row a minute later",
  () =>
    new World(["copilot", "codex"], {
      // Five retries 2 s apart: the `✗` row would come 10 s after the first report.
      copilot: { SIM_LIMIT_AFTER: "1", SIM_COPILOT_RETRIES: "5", SIM_RETRY_MS: "2000" },
    }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("copilot", "fix the flaky test", null);
    const [limit] = await w.waitForEvent("copilot", "limit");
    const [start] = await w.waitForEvent("codex", "start", 1, 20_000);
    const took = Date.parse(String(start.time)) - Date.parse(String(limit.time));
    assert(took < 5_000, `codex started ${took} ms after copilot's first failed call`);
    assert(String(start.prompt ?? "").includes("fix the flaky test"), "the handoff has the turn");
    await w.quit();
    w.withJournal((j) => {
      const run = j.runs().find((r) => r.agent === "copilot")!;
      assertEquals(run.endReason, "limit");
      const acted = j.decisions(run.id).find((d) => d.verdict === "acted")!;
      assert(/retrying the provider's error/.test(acted.why ?? ""), acted.why);
    });
  },
);

worldTest(
  "Qwen retrying DashScope's `429 Free allocated quota exceeded.` at column 2, counting down: handed off, Qwen's processes gone",
  () => new World(["qwen", "codex"], { qwen: { SIM_LIMIT_AFTER: "1" } }),
  async (w) => {
    await w.start(["run"]);
    await w.ask("qwen", "fix the flaky test", null);
    await w.waitForEvent("qwen", "limit");
    const [start] = await w.waitForEvent("codex", "start", 1, 20_000);
    assert(String(start.prompt ?? "").includes("fix the flaky test"), "the handoff has the turn");
    await w.quit();
    w.withJournal((j) => {
      const run = j.runs().find((r) => r.agent === "qwen")!;
      assertEquals(
        [run.endReason, run.limitMessage],
        ["limit", QWEN_QUOTA_RETRY_ROW.trim().replace(/^✕ /, "")],
      );
    });
    // Qwen's whole process group went with the switch.
    const left = new TextDecoder().decode(
      (await new Deno.Command("pgrep", { args: ["-f", w.bins.qwen], stdout: "piped" })
        .output()).stdout,
    ).trim();
    assertEquals(left, "", "qwen processes left running");
  },
);

worldTest(
  "Claude running `cat notes.txt` whose first line is its own limit line: no switch",
  () =>
    new World(["claude", "codex"], {
      claude: { SIM_TOOL_CAT: "notes.txt" },
    }),
  async (w) => {
    Deno.writeTextFileSync(
      join(w.workspace, "notes.txt"),
      "You've hit your session limit · resets 3:01am (UTC)\nask for more credits\n",
    );
    await w.start(["run"]);
    await w.ask("claude", "show me notes.txt", null);
    await w.waitForEvent("claude", "tool");
    await w.term.waitFor("ask for more credits");
    // Claude is idle on its input box, the line on its `⎿` row: give uuldana time to be wrong.
    await new Promise((r) => setTimeout(r, 2000));
    assertEquals(w.events("codex", "start").length, 0, "uuldana switched to codex");
    await w.quit();
    w.withJournal((j) => assertEquals(j.runs()[0].endReason, "exit"));
  },
);
