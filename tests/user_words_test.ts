/**
 * What `uuldana agents`, `doctor` and `config init` print on a user's machine with agents
 * installed (small real programs under the agents' names, Crush among them, Auggie absent) speaks
 * of that machine and those agents, never of the project's test machines (issue 32); and every
 * reason the real-agent record gives for an agent uuldana's tests could not run is said as such.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { topHelp } from "./fixtures/fake_agents/help.ts";
import { installVersionedAgent } from "./fixtures/fake_agents/install.ts";
import { TESTED_VERSIONS, testedLine, testedState } from "../adapters/tested.ts";
import { DENO_DIR } from "./_paths.ts";
import { runUuldana } from "./_uuldana.ts";
import { labWords } from "./_lab_words.ts";

Deno.test("agents, doctor and config init print nothing about the project's test machines", async () => {
  const root = await Deno.makeTempDir({ prefix: "uuldana-words-" });
  try {
    const bin = `${root}/bin`;
    await Deno.mkdir(bin);
    await Deno.mkdir(`${root}/home`);
    // Claude newer than its tested version, Codex unproven, Crush never run by our tests.
    installVersionedAgent(bin, "claude", "9.9.9 (Claude Code)", topHelp("claude"));
    installVersionedAgent(bin, "codex", "codex-cli 9.9.9", "Usage: codex [OPTIONS] [COMMAND]\n");
    installVersionedAgent(bin, "crush", "crush version v0.9.0", "Usage:\n  crush [flags]\n");
    const env = {
      DENO_DIR,
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: `${root}/home`,
      UULDANA_HOME: `${root}/data`,
      UULDANA_CONFIG: `${root}/config.json`,
      NO_COLOR: "1",
    };
    const said: string[] = [];
    for (
      const args of [["agents"], ["doctor"], ["config", "init"], ["agents"], ["doctor", "--json"]]
    ) {
      const r = await runUuldana(args, { env, clearEnv: true });
      assert(r.stdout.length > 0, `uuldana ${args.join(" ")} printed nothing: ${r.stderr}`);
      said.push(...labWords(r.stdout + r.stderr).map((w) => `uuldana ${args.join(" ")}: ${w}`));
      if (args[0] === "agents") {
        assert(r.stdout.includes("not tested by uuldana: "), "Crush and Auggie are said as such");
      }
    }
    assertEquals(said, []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("every agent uuldana's tests could not run is said so, for the reason of our tests", () => {
  const lines = Object.entries(TESTED_VERSIONS)
    .filter(([, entry]) => entry.notRun)
    .map(([name]) => testedLine(name, testedState(name, null)));
  assert(lines.length >= 3, "crush, droid, auggie and aider are in the record");
  for (const line of lines) assert(line.startsWith("not tested by uuldana: "), line);
  assertEquals(lines.flatMap(labWords), []);
});
