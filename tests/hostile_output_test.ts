/**
 * Hostile agent output through the whole `uuldana run` in a real outer terminal (tmux): an agent
 * floods REP with huge counts (after narrow, wide and combining characters), RIS, combining
 * marks, huge parameters and strings that never end; right after, a typed key must reach it,
 * its echo must come back and Ctrl-C must end it. The bounds are generous (seconds): what they
 * catch is an interpreter that takes minutes (or forever) over a few KB.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { World } from "./_world.ts";
import { denoAgent } from "./fixtures/pty_agents/harness.ts";
import { shellQuote } from "../src/pty/script.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** A `gemini` program that answers uuldana's probes and otherwise runs the hostile agent. */
function hostileScript(flag: string, floods: string[]): string {
  return `case "$1" in --version) echo 1.0.0; exit 0;; --help) echo usage; exit 0;; esac\n` +
    `exec ${denoAgent("hostile.ts", flag, ...floods).map(shellQuote).join(" ")}\n`;
}

async function waitForFile(path: string, w: World, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!existsSync(path)) {
    if (Date.now() > deadline) {
      throw new Error(`${path} never appeared; screen:\n${await w.term.capture()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FLOODS: [string, string[]][] = [
  ["REP with huge counts", ["rep:65536", "rep-wide:65536", "rep-combining:65536"]],
  ["RIS, combining marks, wide text", [
    "ris:65536",
    "ris-after-text:65536",
    "combining-one-cell:1048576",
    "combining-every-cell:1048576",
    "wide:262144",
  ]],
  ["huge parameters, unterminated strings, invalid UTF-8", [
    "huge-params:262144",
    "many-params:262144",
    "scroll-huge-counts:262144",
    "unterminated-osc:1048576",
    "unterminated-dcs:1048576",
    "unterminated-apc:1048576",
    "invalid-utf8:1048576",
  ]],
];

// HOSTILE_ONLY=KIND:BYTES runs one flood alone (to find which one a failure is about).
const ONLY = Deno.env.get("HOSTILE_ONLY");
for (const [what, floods] of ONLY ? [[ONLY, [ONLY]] as [string, string[]]] : FLOODS) {
  Deno.test(
    `hostile output (${what}): keys still reach the agent, Ctrl-C ends it`,
    opts,
    async () => {
      const w = new World(["gemini"]);
      const flag = join(w.root, "flooded");
      w.agentProgram("gemini", hostileScript(flag, floods));
      try {
        await w.start(["run"]);
        // The agent writes the flag once uuldana has taken all but the last pty buffer of it.
        await waitForFile(flag, w, 60_000);
        await w.term.send("hello", true);
        await w.term.waitFor("got: hello", 15_000);
        await w.term.waitFor(`flooded ${floods.length}`, 15_000);
        await w.term.send("C-c");
        await w.term.waitFor("bye", 15_000);
        assertEquals(await w.exitCode(15_000), 0);
        assert(!(await w.term.capture()).includes("Uncaught"));
      } finally {
        await w.close();
      }
    },
  );
}
