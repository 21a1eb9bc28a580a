/**
 * End-to-end: profiles, the same agent on another account, key or model, as chain members of their
 * own. Real `script`, simulated agents that behave like the real CLIs (a profile's env is how the
 * world tells them apart: its own log, its own limit), tmux as the user's terminal, the real
 * SQLite journal.
 *
 * @module
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { join } from "node:path";
import { CLOCK_PATTERN, framedBody, World, worldTest } from "./_world.ts";

const REQUEST = "Add a --dry-run flag to deploy.sh";

/** The files under `dir` (gzip ones read unpacked) whose text holds `needle`. */
async function filesHolding(dir: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory) found.push(...(await filesHolding(path, needle)));
    if (!e.isFile) continue;
    let bytes = await Deno.readFile(path);
    if (path.endsWith(".gz")) {
      const unzipped = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      bytes = new Uint8Array(await new Response(unzipped).arrayBuffer());
    }
    if (new TextDecoder().decode(bytes).includes(needle)) found.push(path);
  }
  return found;
}

/** Claude limited at its third turn, then the profile claude-work (another account) answering. */
function twoClaudes(): World {
  return new World(["claude"], { claude: { SIM_LIMIT_AFTER: "3", TZ: "UTC" } }, {
    profiles: { "claude-work": { agent: "claude", env: { SIM_LIMIT_AFTER: "0" } } },
    config: { chain: ["claude", "claude-work"] },
  });
}

worldTest(
  "Claude → Claude: the first profile's limit hands off to the second on the hook road; only the first is limited; a new run starts the second and says why",
  twoClaudes,
  async (w) => {
    await w.start(["run"]);
    await w.ask("claude", REQUEST);
    await w.waitForEvent("claude", "reply");
    await w.ask("claude", "and a test for it");
    await w.waitForEvent("claude", "reply", 2);
    await w.ask("claude", "run the tests");
    // The second account's Claude: a new native session, the framed handoff in its SessionStart.
    const hook = await w.waitForHandoffHook("claude-work");
    const context = String(hook.additionalContext);
    const framed = framedBody(context);
    assert(framed, context.slice(0, 300));
    assert(framed.body.includes(REQUEST), framed.body.slice(0, 1500));
    assert(framed.body.includes("You've hit your session limit"), "the limit is named");
    assertEquals(w.events("claude-work", "start").length, 1);
    await w.waitForEvent("claude-work", "submit");
    // The kickoff's turn answered: quit keys now reach a settled Claude, not the switch.
    await w.waitForEvent("claude-work", "reply");
    assertEquals(await w.quit(), 0);

    w.withJournal((j) => {
      const [work, first] = j.runs();
      assertEquals(
        [first.agent, first.profile, first.endReason, work.agent, work.profile],
        ["claude", null, "limit", "claude", "claude-work"],
      );
      const [h] = j.handoffsFrom(first.id);
      assertEquals([h.toAgent, h.road, h.status], ["claude-work", "hook", "delivered"]);
    });
    const limits = JSON.parse((await w.uuldana(["limits", "--json"])).stdout);
    assertEquals(limits.map((l: { agent: string; limited: boolean }) => [l.agent, l.limited]), [
      ["claude", true],
    ]);

    // A second uuldana reads the ledger: the limited account is passed over, the other starts.
    await w.start(["run"]);
    await w.waitForEvent("claude-work", "start", 2);
    assertEquals(w.events("claude", "start").length, 1, "the limited profile was not started");
    // Quit keys sent before Claude reads its keys would stop it by a signal (exit 130).
    await w.term.waitFor("? for shortcuts");
    assertEquals(await w.quit(), 0);
    assertMatch(
      (await w.term.capture()).replaceAll("\n", ""),
      new RegExp(`uuldana: claude is limited until ${CLOCK_PATTERN}.*; starting claude-work`),
    );
  },
);

worldTest(
  "`agents`, `config` and completions speak of the profile; `limits clear` takes its name",
  twoClaudes,
  async (w) => {
    const agents = JSON.parse((await w.uuldana(["agents", "--json"])).stdout);
    const work = agents.find((a: { name: string }) => a.name === "claude-work");
    assertEquals([work.profileOf, work.found, work.defaultRoad], ["claude", true, "hook"]);
    const text = (await w.uuldana(["agents"])).stdout;
    assertMatch(text, /claude-work \(Claude Code, a profile of claude\)/);
    const shown = JSON.parse((await w.uuldana(["config", "--json"])).stdout);
    assertEquals(shown.effective.profiles["claude-work"].agent, "claude");
    const bash = (await w.uuldana(["completions", "bash"])).stdout;
    assert(bash.includes("claude-work"), "the profile is completed");
    const cleared = await w.uuldana(["limits", "clear", "claude-work"]);
    assertEquals([cleared.code, cleared.stdout.trim()], [
      0,
      "claude-work has no limit in the ledger; nothing to clear",
    ]);
  },
);

/** A world whose config holds `profiles` and `chain` (the simulated Claude and Qwen installed). */
function configured(profiles: Record<string, unknown>, chain: string[]): World {
  return new World(["claude", "qwen"], {}, { config: { chain, profiles } });
}

const BAD_CONFIGS: [name: string, profiles: Record<string, unknown>, chain: string[], RegExp][] = [
  [
    "an unknown agent",
    { "claude-x": { agent: "clade" } },
    ["claude"],
    /profile "claude-x" names the unknown agent "clade"/,
  ],
  [
    "a profile named like another agent",
    { codex: { agent: "claude" } },
    ["claude"],
    /profile "codex" is named like the agent codex/,
  ],
  ["a profile chained to itself", { loop: { agent: "loop" } }, ["loop"], /"loop" names itself/],
  [
    "a profile of a profile",
    { a: { agent: "claude" }, b: { agent: "a" } },
    ["b"],
    /profile "b" names the profile "a" as its agent/,
  ],
  [
    "a profile with no agent",
    { p: { env: {} } },
    ["claude"],
    /"profiles\.p\.agent" must be the name of an agent/,
  ],
  [
    "a disabled profile in the chain",
    { "claude-api": { agent: "claude", disabled: true } },
    ["claude", "claude-api"],
    /profile "claude-api" is disabled but the chain names it/,
  ],
  [
    "a missing variable",
    { "claude-api": { agent: "claude", env: { ANTHROPIC_API_KEY: "${UULDANA_TEST_UNSET_KEY}" } } },
    ["claude-api"],
    /claude-api: \$\{UULDANA_TEST_UNSET_KEY\} is not set in your environment/,
  ],
  [
    "a profile that turns its channel's hooks off",
    { "claude-bare": { agent: "claude", args: ["--bare"] } },
    ["claude-bare"],
    /profile "claude-bare" changes what uuldana adds for Claude Code's hooks: --bare/,
  ],
  [
    "a profile that names its own system defaults",
    { "qwen-x": { agent: "qwen", env: { QWEN_CODE_SYSTEM_DEFAULTS_PATH: "/etc/x.json" } } },
    ["qwen-x"],
    /profile "qwen-x" changes what uuldana adds for Qwen Code's hooks/,
  ],
];

for (const [name, profiles, chain, expected] of BAD_CONFIGS) {
  worldTest(
    `a bad profile is one clear line and exit 2 before anything starts: ${name}`,
    () => configured(profiles, chain),
    async (w) => {
      const r = await w.uuldana(["run", "--no-wait"]);
      assertEquals(r.code, 2, r.stderr);
      const [first, ...rest] = r.stderr.trim().split("\n");
      assertMatch(first, expected);
      assert(rest.length <= 1 && !/\bat\s.*:\d+/.test(r.stderr), r.stderr);
      assertEquals(w.events("claude").length + w.events("qwen").length, 0, "nothing started");
    },
  );
}

worldTest(
  "a profile's ${VAR} reaches its agent's process and nothing uuldana writes",
  () =>
    new World(["claude", "codex"], {}, {
      profiles: {
        "claude-api": {
          agent: "claude",
          env: { SIM_LIMIT_AFTER: "${UULDANA_TEST_LIMIT_AT}", SIM_SECRET: "${UULDANA_TEST_KEY}" },
        },
      },
      config: { chain: ["claude-api", "codex"] },
    }),
  async (w) => {
    const secret = "sk-test-4f1c9a77e2d04b8e";
    await w.start(["run"], { env: { UULDANA_TEST_LIMIT_AT: "1", UULDANA_TEST_KEY: secret } });
    await w.ask("claude-api", REQUEST);
    // The profile's SIM_LIMIT_AFTER came from the variable: its agent hit its limit at turn 1.
    await w.waitForEvent("codex", "start");
    await w.term.waitFor("? for shortcuts"); // its keys read: quit keys cannot signal it
    assertEquals(await w.quit(), 0);
    const bundle = await w.uuldana(["debug", "bundle", "1", "--with-conversation"], {
      cwd: w.root,
    });
    assertEquals(bundle.code, 0, bundle.stderr);
    const unpacked = join(w.root, "bundle");
    Deno.mkdirSync(unpacked);
    for await (const e of Deno.readDir(w.root)) {
      if (!e.name.endsWith(".tar.gz")) continue;
      const tar = new Deno.Command("tar", { args: ["-xzf", join(w.root, e.name), "-C", unpacked] });
      assert((await tar.output()).success, "the bundle unpacks");
    }
    assert(!Deno.readDirSync(unpacked).next().done, "a bundle was written");
    const leaks: string[] = [];
    for (const dir of [w.home, unpacked]) leaks.push(...(await filesHolding(dir, secret)));
    assertEquals(leaks, []);
  },
);
