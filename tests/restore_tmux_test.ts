/**
 * The terminal is restored completely: after an agent that left a scroll region, line drawing
 * and the other modes a full-screen agent sets, the shell in a real outer terminal (tmux) gets
 * its whole screen back, in plain characters.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { World, worldTest } from "./_world.ts";
import { REPO_DIR, UULDANA } from "./_paths.ts";
import { shellQuote } from "../src/pty/script.ts";

const LEAVE_MODES = join(REPO_DIR, "tests/fixtures/pty_agents/leave_modes.sh");

worldTest(
  "after an agent left rows 5-8 as the scroll region and DEC line drawing, the shell has the full screen",
  () => new World(["gemini"], {}, { bins: { gemini: LEAVE_MODES } }),
  async (w) => {
    const uuldana = [...UULDANA, "run", "gemini"].map(shellQuote).join(" ");
    // After uuldana exits, the shell prints 30 numbered lines on a 20-row screen.
    const script = `${uuldana}; i=1; while [ $i -le 30 ]; do echo "line $i"; i=$((i+1)); done`;
    await w.startCommand(["sh", "-c", script], { cols: 80, rows: 20 });
    const screen = await w.term.waitFor(/\[exit 0\]/);
    const rows = screen.split("\n").slice(0, 20).map((r) => r.trimEnd());
    // The whole screen scrolled: the last 18 lines, the exit line and the cursor's row fill it.
    assertEquals(rows.slice(0, 2), ["line 13", "line 14"], screen);
    assertEquals(rows.slice(16, 20), ["line 29", "line 30", "[exit 0]", ""], screen);
    assert(!/[─│┌┐└┘]/.test(screen), `line drawing is still on:\n${screen}`);
  },
);
