import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adapterByName } from "./registry.ts";

// The channel's first prompt event of a receiver started on the prompt road is the handoff
// uuldana gave it: the launch names it (`Launch.opening`), so the conversation takes it as
// uuldana's own turn, opened at once, and keeps its reply (before, every agent but Claude had its
// opening prompt "ignored: uuldana saw no submit for it" and its first reply dropped).
Deno.test("on the prompt road, the launch names the handoff as its opening prompt", () => {
  const scratch = mkdtempSync(join(tmpdir(), "uuldana-opening-"));
  try {
    const handoff =
      "----- BEGIN UULDANA HANDOFF 0123 -----\nthe work\n----- END UULDANA HANDOFF 0123 -----";
    for (const name of ["claude", "codex", "qwen", "copilot", "opencode", "kilo", "gemini"]) {
      const adapter = adapterByName(name)!;
      const launch = adapter.launch({
        bin: `/bin/${name}`,
        road: "prompt",
        handoff,
        extraArgs: [],
        workspace: scratch,
        scratchDir: scratch,
        version: name === "codex" ? "0.171.0" : null,
      });
      assertEquals([name, launch.opening], [name, handoff]);
      // A clean start opens no turn of uuldana's.
      const clean = adapter.launch({
        bin: `/bin/${name}`,
        road: "prompt",
        handoff: null,
        extraArgs: [],
        workspace: scratch,
        scratchDir: scratch,
      });
      assertEquals([name, clean.opening], [name, undefined]);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
