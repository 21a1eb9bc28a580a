/**
 * `uuldana config`, `config init` and `config schema` as a user runs them, against fake agents
 * (real help texts) on a private PATH.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { DENO_DIR, REPO_DIR } from "./_paths.ts";
import { runUuldana } from "./_uuldana.ts";
import { installFakeAgent } from "./fixtures/fake_agents/install.ts";
import { topHelp } from "./fixtures/fake_agents/help.ts";

/** A home, a config path and a PATH holding fake `agents` (name → its `--help` text). */
function machine(agents: Record<string, string>) {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-config-" });
  const bin = join(root, "bin");
  Deno.mkdirSync(bin);
  for (const [name, help] of Object.entries(agents)) {
    const helpFile = join(root, `${name}.help`);
    Deno.writeTextFileSync(helpFile, help);
    const wrapper = installFakeAgent(bin, name);
    Deno.writeTextFileSync(
      wrapper,
      Deno.readTextFileSync(wrapper).replace("exec ", `FAKE_AGENT_HELP='${helpFile}' exec `),
    );
  }
  const config = join(root, "home", ".config", "uuldana", "config.json");
  const env: Record<string, string> = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: join(root, "home"),
    UULDANA_HOME: join(root, "data"),
    NO_COLOR: "1",
    DENO_DIR,
  };
  return {
    root,
    config,
    run: (...args: string[]) => runUuldana(args, { env, clearEnv: true }),
  };
}

Deno.test("config init writes the chain of agents found here that take a handoff, never overwrites", async () => {
  const m = machine({
    gemini: topHelp("gemini"),
    claude: topHelp("claude"),
    // Installed, but its help does not prove an opening prompt: not put in the chain.
    codex: topHelp("codex").replace("Usage: codex [OPTIONS] [PROMPT]", "Usage: codex [COMMAND]"),
  });
  try {
    const r = await m.run("config", "init");
    assertEquals(r.code, 0, r.stderr);
    assert(r.stdout.includes(`wrote ${m.config}`), r.stdout);
    const written = JSON.parse(Deno.readTextFileSync(m.config));
    assertEquals(written.chain, ["claude", "gemini"]);
    assertEquals(written.$schema, "./config.schema.json");
    const schema = Deno.readTextFileSync(
      join(m.root, "home", ".config", "uuldana", "config.schema.json"),
    );
    assertEquals(schema, Deno.readTextFileSync(join(REPO_DIR, "config.schema.json")));

    // What `config` then shows is that file, read back with its values.
    const shown = await m.run("config", "--json");
    assertEquals(shown.code, 0, shown.stderr);
    const { path, exists, effective } = JSON.parse(shown.stdout);
    assertEquals([path, exists, effective.chain, effective.quietSeconds], [
      m.config,
      true,
      ["claude", "gemini"],
      written.quietSeconds,
    ]);

    // A second init refuses and leaves the file as the user made it, valid or not.
    for (const mine of ['{"chain": ["gemini"]}\n', '{"chain": "not valid"']) {
      Deno.writeTextFileSync(m.config, mine);
      const again = await m.run("config", "init");
      assertEquals(again.code, 1);
      assert(again.stderr.includes("already exists"), again.stderr);
      assertEquals(Deno.readTextFileSync(m.config), mine);
    }
  } finally {
    Deno.removeSync(m.root, { recursive: true });
  }
});

Deno.test("config shows the file in use, or that the defaults apply; an invalid file is one line", async () => {
  const m = machine({});
  try {
    const none = await m.run("config");
    assertEquals(none.code, 0, none.stderr);
    assert(none.stdout.startsWith(`config file: ${m.config}  (not found`), none.stdout);
    assert(none.stdout.includes(`"quietSeconds": 1.5`), none.stdout);

    Deno.mkdirSync(join(m.root, "home", ".config", "uuldana"), { recursive: true });
    Deno.writeTextFileSync(m.config, '{"quietSeconds": 3, "agents": {"codex": {"road": "paste"}}}');
    const shown = await m.run("config", "show");
    assertEquals(shown.code, 0, shown.stderr);
    assert(shown.stdout.startsWith(`config file: ${m.config}\n`), shown.stdout);
    assert(shown.stdout.includes(`"quietSeconds": 3`) && shown.stdout.includes(`"road": "paste"`));

    Deno.writeTextFileSync(m.config, '{"quietSeconds": "3"}');
    const bad = await m.run("config");
    assertEquals(bad.code, 2);
    assert(bad.stderr.includes(`"quietSeconds" must be a number from 0.1 to 60`), bad.stderr);
  } finally {
    Deno.removeSync(m.root, { recursive: true });
  }
});

Deno.test("config schema prints the schema the repository ships", async () => {
  const m = machine({});
  try {
    const r = await m.run("config", "schema");
    assertEquals(r.code, 0, r.stderr);
    assertEquals(r.stdout, Deno.readTextFileSync(join(REPO_DIR, "config.schema.json")));
  } finally {
    Deno.removeSync(m.root, { recursive: true });
  }
});
