/**
 * `uuldana demo` in a real outer terminal (tmux): the first simulated agent works, hits its
 * limit, the switch line shows, the second agent starts on the handoff and its answer is on the
 * screen at the end, with the one-line summary of what moved; the journal agrees.
 *
 * @module
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { DENO_DIR, REPO_DIR, UULDANA } from "./_paths.ts";
import { TmuxTerminal } from "./_tmux.ts";
import { runUuldana } from "./_uuldana.ts";
import { assertRunsReplay } from "./_replay_check.ts";

Deno.test("demo: the viewer sees the work, the limit, the switch, and the second agent answer on the handoff", async () => {
  const scratch = Deno.makeTempDirSync({ prefix: "uuldana-demo-test-" });
  const term = new TmuxTerminal();
  try {
    await term.start([...UULDANA, "demo", "--keep"], {
      cols: 120,
      rows: 40,
      env: { DENO_DIR, NO_COLOR: "1", UULDANA_CONFIG: join(scratch, "none.json") },
    });
    await term.waitFor(/\[exit \d+\]/, 90_000);
    // The visible screen, its rows joined where a line wrapped; above it, the scrollback.
    const history = await term.history();
    const rows = history.replace(/\n+$/, "").split("\n");
    const screen = rows.slice(-40).join("\n");
    assert(screen.includes("[exit 0]"), screen);
    // The end of the story is what stays on screen: Codex's answer to the handoff, then the summary.
    const answer = screen.indexOf(
      "• Continuing from the handoff: Add a --dry-run flag to deploy.sh",
    );
    assert(answer >= 0, `codex's answer is on the screen:\n${screen}`);
    assertMatch(
      screen.slice(answer),
      /This is a simulated codex reply \(turn 1\)[\s\S]*Done\.[\s\S]*demo: claude hit its limit at turn 2; codex got the request, 2 turns and claude's screen \([\d,]+ characters\), and answered\./,
    );
    const home = /UULDANA_HOME=(\S+) uuldana runs/.exec(screen)?.[1];
    assert(home, screen);
    // Earlier in the scrollback: claude's first answer, the turn that met the limit, the switch.
    assertMatch(
      history,
      /Working on: Add a --dry-run flag[\s\S]*❯ Also mention --dry-run in the README\s*\n\s*⎿\s+You've hit your session limit[\s\S]*uuldana: claude → codex: "You've hit your session limit/,
    );

    const runs = JSON.parse(
      (await runUuldana(["runs", "--json"], {
        env: { UULDANA_HOME: home, UULDANA_CONFIG: join(scratch, "none.json") },
      })).stdout,
    );
    const [codex, claude] = runs;
    assertEquals([claude.agent, claude.endReason, codex.agent, codex.endReason], [
      "claude",
      "limit",
      "codex",
      "exit",
    ]);
    assertEquals(
      claude.handoffs.map((h: { toAgent: string; status: string }) => [h.toAgent, h.status]),
      [["codex", "delivered"]],
    );
    // The whole story as one recording, the way docs/demo.cast is made.
    const castFile = join(scratch, "demo.cast");
    const exported = await runUuldana(
      ["export", String(claude.id), "--chain", "--asciicast", castFile],
      { env: { UULDANA_HOME: home, UULDANA_CONFIG: join(scratch, "none.json") } },
    );
    assertEquals(exported.code, 0, exported.stderr);
    assertWholeStory(Deno.readTextFileSync(castFile));
    // Replay equals live, as for every end-to-end switch.
    assert(assertRunsReplay(home).acted >= 1, "the demo's limit was replayed");
    Deno.removeSync(join(home, ".."), { recursive: true });
  } finally {
    await term.close();
    Deno.removeSync(scratch, { recursive: true });
  }
});

/**
 * A recording of the demo (`export --chain --asciicast`) tells the whole story, in order: the
 * first agent's work, its limit, uuldana's switch line, the second agent on the handoff, its
 * answer, and the line saying what moved.
 */
function assertWholeStory(cast: string): void {
  const [header, ...events] = cast.trimEnd().split("\n").map((l) => JSON.parse(l));
  assertEquals(header.title, "uuldana: claude → codex");
  const times = events.map((e: [number]) => e[0]);
  assertEquals(times, [...times].sort((a, b) => a - b), "one timeline");
  const text = events.map((e: [number, string, string]) => e[2]).join("");
  const order = [
    /Working on: Add a --dry-run flag/,
    /You've hit your session limit/,
    /uuldana: claude → codex: "You've hit your session limit · resets 3:01am \(UTC\)"\. Handoff via prompt:/,
    /Continuing from the handoff: Add a --dry-run flag/,
    /This is a simulated codex reply \(turn 1\)/,
    /uuldana: claude hit its limit at turn 2; codex got the request, 2 turns and claude's screen \([\d,]+ characters\)\./,
  ].map((re) => text.search(re));
  assert(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), `story at ${order}`);
}

Deno.test("docs/demo.cast is a real demo's recording and tells the whole story, the summary of what moved last", () => {
  assertWholeStory(Deno.readTextFileSync(join(REPO_DIR, "docs", "demo.cast")));
});
