import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { framedBody, TypedKeyboard, World } from "./_world.ts";
import type { AgentRun } from "../src/session/agent_run.ts";
import { REPO_DIR } from "./_paths.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test(
  "the retry-loop rule: a capacity error the agent's debug log names, then only its spinner, hands off; 0 turns it off",
  opts,
  async () => {
    const fixture = join(REPO_DIR, "tests", "fixtures", "pty_agents", "capacity_loop.sh");
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
      agents: { gemini: { retryLoopSeconds: 2 } },
    });
    const off = new World(["gemini", "codex"], {}, {
      bins: { gemini: fixture },
      agents: { gemini: { retryLoopSeconds: 0 } },
    });
    try {
      const keys = new TypedKeyboard();
      assertEquals((await on.runChain({ keyboard: keys, onRun: drive(keys) })).code, 143);
      const [start] = on.events("codex", "start");
      assert(framedBody(String(start.prompt))?.body.includes("fix the build"));
      on.withJournal((j) => {
        const gemini = j.runs().find((r) => r.agent === "gemini")!;
        assertEquals(gemini.endReason, "limit");
        assertEquals(
          gemini.limitMessage,
          "No capacity available for model gemini-2.5-pro on the server",
        );
        const acted = j.decisions(gemini.id).find((d) => d.verdict === "acted");
        assert(acted?.why?.includes("retryLoopSeconds"), JSON.stringify(acted));
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
