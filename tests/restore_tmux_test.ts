/**
 * The terminal is restored completely: after an agent that left a scroll region, line drawing
 * and the other modes a full-screen agent sets, the shell in a real outer terminal (tmux) gets
 * its whole screen back, in plain characters.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { TmuxTerminal } from "./_tmux.ts";
import { REPO_DIR, UULDANA } from "./_paths.ts";
import { shellQuote } from "../src/pty/script.ts";

const LEAVE_MODES = join(REPO_DIR, "tests/fixtures/pty_agents/leave_modes.sh");

Deno.test(
  "after an agent left rows 5-8 as the scroll region and DEC line drawing, the shell has the full screen",
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    const term = new TmuxTerminal();
    const home = Deno.makeTempDirSync({ prefix: "uuldana-restore-" });
    try {
      const uuldana = [...UULDANA, "run", "gemini"].map(shellQuote).join(" ");
      // After uuldana exits, the shell prints 30 numbered lines on a 20-row screen.
      const script = `${uuldana}; i=1; while [ $i -le 30 ]; do echo "line $i"; i=$((i+1)); done`;
      await term.start(["sh", "-c", script], {
        cols: 80,
        rows: 20,
        env: {
          UULDANA_HOME: home,
          UULDANA_GEMINI_BIN: LEAVE_MODES,
          TERM: "xterm-256color",
          LANG: "C.UTF-8",
        },
      });
      const screen = await term.waitFor(/\[exit 0\]/);
      const rows = screen.split("\n").slice(0, 20).map((r) => r.trimEnd());
      // The whole screen scrolled: the last 18 lines, the exit line and the cursor's row fill it.
      assertEquals(rows.slice(0, 2), ["line 13", "line 14"], screen);
      assertEquals(rows.slice(16, 20), ["line 29", "line 30", "[exit 0]", ""], screen);
      assert(!/[─│┌┐└┘]/.test(screen), `line drawing is still on:\n${screen}`);
    } finally {
      await term.close();
    }
  },
);
