/**
 * findAgent / proveAgent / describeAgent against real programs: a hanging or slow `--help`, a
 * flood of output, a missing configured bin, the simulated Gemini CLI that relaunches itself, and
 * the probe cache (a binary without a version, a changed binary, `--refresh`, the shared budget).
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import {
  binaryStamp,
  describeAgent,
  describeAgents,
  findAgent,
  packageVersion,
  proveAgent,
  whichBinary,
} from "../adapters/find.ts";
import { PROBE_OUTPUT_CAP, ProbeBudget, runProbe } from "../adapters/probe.ts";
import { adapterByName } from "../adapters/registry.ts";
import { TESTED_VERSIONS } from "../adapters/tested.ts";
import { parseConfig } from "../src/config/config.ts";
import { Journal } from "../src/journal/journal.ts";
import { installSimAgents } from "../src/sim/install.ts";
import { UULDANA } from "./_paths.ts";

Deno.test("a --help that hangs (a grandchild holding the pipe too) is cut off and refused, and what it started goes too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-" });
  const path = `${dir}/gemini`;
  // The grandchild sleeps longer than the test waits for it to go: only a kill ends it in time.
  await Deno.writeTextFile(path, `#!/bin/sh\nsleep 8 &\necho $! > '${dir}/child'\nsleep 8\n`);
  await Deno.chmod(path, 0o755);
  const out = await runProbe(path, ["--help"], { timeoutMs: 300 });
  assertEquals(out.timedOut, true);
  assertEquals(out.code, null);
  const proof = await proveAgent(adapterByName("gemini")!, { path, version: null }, undefined, {
    timeoutMs: 300,
    retryTimeoutMs: 300,
  });
  assertEquals([proof.accepted, proof.inconclusive], [false, true]);
  assertMatch(proof.reason!, /did not answer in 0\.3 s; not a refusal/);
  // The grandchild it left (a launcher's real binary, say) is stopped with it, within the
  // watcher's second.
  const child = Number(await Deno.readTextFile(`${dir}/child`));
  const deadline = Date.now() + 5000;
  const alive = () => {
    try {
      Deno.kill(child, "SIGCONT");
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assertEquals(alive(), false, "the probe's grandchild was stopped");
});

Deno.test("a --help slower than the first limit is given the longer one, not restarted, and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-slow-" });
  try {
    const path = `${dir}/gemini`;
    // A start that takes 1 s each time: killed at 0.3 s and started again, it would never finish.
    await Deno.writeTextFile(
      path,
      `#!/bin/sh\necho start >> '${dir}/starts'\nsleep 1\n` +
        "echo '  -i, --prompt-interactive  Execute the prompt and continue'\n",
    );
    await Deno.chmod(path, 0o755);
    const proof = await proveAgent(adapterByName("gemini")!, { path, version: null }, undefined, {
      timeoutMs: 300,
      retryTimeoutMs: 10_000,
    });
    assertEquals([proof.accepted, proof.inconclusive], [true, undefined]);
    assertMatch(proof.note!, /did not answer in 0\.3 s; it did after 1(\.\d)? s/);
    assertEquals(await Deno.readTextFile(`${dir}/starts`), "start\n", "started once");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a probe reads at most the output cap, then the program is killed", async () => {
  // `yes` never ends and prints as fast as the pipe takes it: unbounded, it would fill memory.
  const out = await runProbe("/usr/bin/env", ["yes", "a long line of help text"], {
    timeoutMs: 60_000,
  });
  assertEquals([out.truncated, out.timedOut, out.code], [true, false, null]);
  assertEquals(out.stdout.length, PROBE_OUTPUT_CAP);
  const small = await runProbe("/bin/sh", ["-c", "head -c 5000 /dev/zero"], { maxBytes: 4096 });
  assertEquals([small.truncated, small.stdout.length], [true, 4096]);
});

Deno.test(
  "the simulated Gemini CLI that relaunches itself is proven at once: the probe stops the relaunch",
  { sanitizeResources: false, sanitizeOps: false },
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "uuldana-find-relaunch-" });
    try {
      const { gemini: path } = installSimAgents(dir, ["gemini"], UULDANA);
      // Each start of the real one costs seconds before it prints anything; here far more than the
      // probe would wait, so only a probe that stops the relaunch can prove it.
      const env = { SIM_RELAUNCH_MS: "60000" };
      const found = (await findAgent(
        adapterByName("gemini")!,
        parseConfig({ agents: { gemini: { bin: path, env } } }, "t.json", () => undefined),
      ))!;
      assertEquals(found.version, "0.61.0-sim", "--version is probed without the relaunch too");
      const proof = await proveAgent(adapterByName("gemini")!, found, undefined, {
        timeoutMs: 20_000,
        retryTimeoutMs: 1000,
      });
      assertEquals([proof.accepted, proof.note], [true, undefined], proof.reason);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("config bin: a path or a name; missing means not found, never another binary", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-" });
  const path = `${dir}/my-claude`;
  await Deno.writeTextFile(path, "#!/bin/sh\necho '2.1.197 (Claude Code)'\n");
  await Deno.chmod(path, 0o755);
  const claude = adapterByName("claude")!;
  const cfg = (bin: string) =>
    parseConfig({ agents: { claude: { bin } } }, "test.json", () => undefined);
  assertEquals(await findAgent(claude, cfg(path)), { path, version: "2.1.197", env: {} });
  assertEquals(await findAgent(claude, cfg(`${dir}/absent`)), null);
  assertEquals(whichBinary("my-claude", `/nonexistent:${dir}`), path);
  // Not executable: not found.
  await Deno.chmod(path, 0o644);
  assertEquals(whichBinary(path), null);
  assert(whichBinary("sh", "/bin:/usr/bin"));
});

Deno.test("the --help proof runs with the agent's configured environment", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-env-" });
  const path = `${dir}/codex`;
  // A wrapper whose help depends on its environment, as a configured agent's may.
  await Deno.writeTextFile(
    path,
    '#!/bin/sh\n[ -n "$HIDE_PROMPT" ] && { echo "Usage: codex [OPTIONS]"; exit 0; }\necho "Usage: codex [OPTIONS] [PROMPT]"\n',
  );
  await Deno.chmod(path, 0o755);
  const codex = adapterByName("codex")!;
  assertEquals((await proveAgent(codex, { path, version: "1.0.0", env: {} })).accepted, true);
  const hidden = await proveAgent(codex, { path, version: "1.0.0", env: { HIDE_PROMPT: "1" } });
  assertEquals(hidden.accepted, false);
});

Deno.test("a --help that timed out is not cached: the next probe can still prove it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-cache-" });
  const path = `${dir}/gemini`;
  const journal = Journal.open(dir);
  try {
    const gemini = adapterByName("gemini")!;
    const found = { path, version: "0.61.0" };
    // A first start busy unpacking itself: --help is too slow.
    await Deno.writeTextFile(path, "#!/bin/sh\nexec sleep 2\n");
    await Deno.chmod(path, 0o755);
    const slow = await proveAgent(gemini, found, journal, { timeoutMs: 200, retryTimeoutMs: 200 });
    assertEquals([slow.accepted, slow.inconclusive], [false, true]);
    assertEquals(journal.cachedProbe(binaryStamp(path, gemini.probeEnv ?? {})!), null);
    await Deno.writeTextFile(
      path,
      "#!/bin/sh\necho '  -i, --prompt-interactive  Execute the prompt and continue'\n",
    );
    const proof = await proveAgent(gemini, found, journal, { timeoutMs: 2000 });
    assertEquals([proof.accepted, proof.cached], [true, undefined]);
    assertEquals((await proveAgent(gemini, found, journal)).cached, true);
  } finally {
    journal.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A fake agent at `dir/name` that logs each run's arguments to `dir/runs` and runs `body`. */
async function fakeAgent(dir: string, name: string, body: string): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, `#!/bin/sh\necho "$*" >> '${dir}/runs'\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

/** The arguments of every run of the fake agents in `dir`, and forgets them. */
async function takeRuns(dir: string): Promise<string[]> {
  const text = await Deno.readTextFile(`${dir}/runs`).catch(() => "");
  await Deno.writeTextFile(`${dir}/runs`, "");
  return text.split("\n").filter(Boolean).sort();
}

const CODEX_HELP = 'echo "Usage: codex [OPTIONS] [PROMPT]"';

Deno.test("a proof without a version is cached: the second look runs nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-noversion-" });
  const journal = Journal.open(dir);
  try {
    // A development build: its --version names no number.
    const path = await fakeAgent(
      dir,
      "codex",
      `[ "$1" = --version ] && { echo "codex (development build)"; exit 0; }\n${CODEX_HELP}`,
    );
    const codex = adapterByName("codex")!;
    const config = parseConfig({ agents: { codex: { bin: path } } }, "t.json", () => undefined);
    const first = await describeAgent(codex, config, { journal });
    assertEquals([first.version, first.acceptsInitialPrompt, first.cached], [null, true, false]);
    assertEquals(await takeRuns(dir), ["--help", "--version"]);
    const second = await describeAgent(codex, config, { journal });
    assertEquals([second.version, second.acceptsInitialPrompt, second.cached], [null, true, true]);
    assertEquals(second.proof?.line, "Usage: codex [OPTIONS] [PROMPT]");
    assertEquals(await takeRuns(dir), [], "nothing ran the second time");
    // run and handoff ask the same cache: findAgent and proveAgent run nothing either.
    const found = await findAgent(codex, config, { journal });
    assertEquals((await proveAgent(codex, found!, journal)).cached, true);
    assertEquals(await takeRuns(dir), []);
  } finally {
    journal.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a --version that does not answer in time: the proof is cached, the version asked again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-slowversion-" });
  const journal = Journal.open(dir);
  try {
    const path = await fakeAgent(
      dir,
      "codex",
      `[ "$1" = --version ] && exec sleep 5\n${CODEX_HELP}`,
    );
    const codex = adapterByName("codex")!;
    const config = parseConfig({ agents: { codex: { bin: path } } }, "t.json", () => undefined);
    const opts = { journal, timeoutMs: 200, retryTimeoutMs: 300 };
    const first = await describeAgent(codex, config, opts);
    assertEquals([first.version, first.acceptsInitialPrompt], [null, true]);
    assertMatch(
      first.versionNote!,
      /--version' did not answer in 0\.2 s, nor in 0\.3 s in all; asked again at the next `uuldana agents`/,
    );
    assertEquals(await takeRuns(dir), ["--help", "--version"]);
    const second = await describeAgent(codex, config, opts);
    assertEquals([second.acceptsInitialPrompt, second.proof?.cached], [true, true]);
    assertEquals(await takeRuns(dir), ["--version"], "only the version is asked again");
  } finally {
    journal.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a changed binary is probed again: another size, another modification time, --refresh", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-changed-" });
  const journal = Journal.open(dir);
  try {
    const version = (v: string) => `[ "$1" = --version ] && { echo "codex-cli ${v}"; exit 0; }`;
    const path = await fakeAgent(dir, "codex", `${version("0.171.0")}\n${CODEX_HELP}`);
    const codex = adapterByName("codex")!;
    const config = parseConfig({ agents: { codex: { bin: path } } }, "t.json", () => undefined);
    const look = async () => {
      const s = await describeAgent(codex, config, { journal });
      return [s.version, s.cached, (await takeRuns(dir)).length];
    };
    assertEquals(await look(), ["0.171.0", false, 2]);
    assertEquals(await look(), ["0.171.0", true, 0]);
    // Upgraded in place: same path, another size.
    await fakeAgent(dir, "codex", `${version("0.172.10")}\n${CODEX_HELP}`);
    assertEquals(await look(), ["0.172.10", false, 2]);
    assertEquals(await look(), ["0.172.10", true, 0]);
    // Same size, another modification time (rewritten, or touched).
    const { mtime } = await Deno.stat(path);
    await Deno.utime(path, new Date(), new Date(mtime!.getTime() + 5000));
    assertEquals(await look(), ["0.172.10", false, 2]);
    // Same size and modification time as the cached build, other content: its stamp is the cache's.
    await fakeAgent(dir, "codex", `${version("0.172.11")}\n${CODEX_HELP}`);
    await Deno.utime(path, new Date(), new Date(mtime!.getTime() + 5000));
    assertEquals(await look(), ["0.172.10", true, 0]);
    // …which --refresh probes again.
    const refreshed = await describeAgent(codex, config, { journal, refresh: true });
    assertEquals([refreshed.version, refreshed.cached], ["0.172.11", false]);
    assertEquals((await takeRuns(dir)).length, 2);
    assertEquals(await look(), ["0.172.11", true, 0]);
  } finally {
    journal.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the probe cache follows links: another target of the same link is another binary", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-link-" });
  const journal = Journal.open(dir);
  try {
    const v = (n: string) => `[ "$1" = --version ] && { echo "${n}"; exit 0; }\n${CODEX_HELP}`;
    const a = await fakeAgent(dir, "codex-a", v("1.0.0"));
    const b = await fakeAgent(dir, "codex-b", v("2.0.0"));
    const link = `${dir}/codex`;
    await Deno.symlink(a, link);
    const codex = adapterByName("codex")!;
    const config = parseConfig({ agents: { codex: { bin: link } } }, "t.json", () => undefined);
    assertEquals((await describeAgent(codex, config, { journal })).version, "1.0.0");
    await Deno.remove(link);
    await Deno.symlink(b, link);
    assertEquals((await describeAgent(codex, config, { journal })).version, "2.0.0");
  } finally {
    journal.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probes share slots and a deadline: none runs past the budget, and it says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-budget-" });
  try {
    const hangs = await fakeAgent(dir, "codex", "exec sleep 10");
    const codex = adapterByName("codex")!;
    const config = parseConfig({ agents: { codex: { bin: hangs } } }, "t.json", () => undefined);
    const budget = new ProbeBudget({ totalMs: 700, slots: 1 });
    const started = performance.now();
    const s = await describeAgent(codex, config, { budget, timeoutMs: 400, retryTimeoutMs: 5000 });
    const took = performance.now() - started;
    assert(took < 2500, `the budget bounds the look: ${took} ms`);
    // One slot: --version took it for the whole 0.7 s they share; --help never ran.
    assertEquals(s.proof?.inconclusive, true);
    assertMatch(
      s.versionNote!,
      /did not answer in 0\.4 s, nor in 0\.7 s in all \(cut short: the 0\.7 s all probes share ran out\)/,
    );
    assertMatch(
      s.proof!.reason!,
      /--help' was not run: the 0\.7 s all probes share ran out; not a refusal/,
    );
    assertEquals(await takeRuns(dir), ["--version"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the chain's agents take the probe slots first; the statuses keep the adapters' order", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-chain-" });
  try {
    // Both log into one file, in the order they ran (one slot: one at a time).
    const log = (name: string) =>
      `echo "${name} $1" >> '${dir}/order'\n[ "$1" = --version ] && { echo 9.9.9; exit 0; }\n`;
    const codexBin = await fakeAgent(dir, "codex", `${log("codex")}${CODEX_HELP}`);
    const geminiBin = await fakeAgent(
      dir,
      "gemini",
      `${log("gemini")}echo '  -i, --prompt-interactive  Execute the prompt and continue'`,
    );
    const config = parseConfig(
      {
        chain: ["gemini", "codex"],
        agents: { codex: { bin: codexBin }, gemini: { bin: geminiBin } },
      },
      "t.json",
      () => undefined,
    );
    const adapters = [adapterByName("codex")!, adapterByName("gemini")!];
    const statuses = await describeAgents(adapters, config, {
      budget: new ProbeBudget({ slots: 1 }),
    });
    assertEquals(statuses.map((s) => [s.name, s.acceptsInitialPrompt]), [["codex", true], [
      "gemini",
      true,
    ]]);
    const order = (await Deno.readTextFile(`${dir}/order`)).split("\n").filter(Boolean);
    assertEquals(order.map((l) => l.split(" ")[0]), ["gemini", "gemini", "codex", "codex"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an npm-installed agent's version comes from its package, without running it; a version the matrix verified needs no --help", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-package-" });
  const journal = Journal.open(dir);
  try {
    // npm's layout: node_modules/.bin/codex links to the package's bin script.
    const pkgDir = `${dir}/node_modules/@openai/codex`;
    await Deno.mkdir(`${pkgDir}/bin`, { recursive: true });
    await Deno.mkdir(`${dir}/node_modules/.bin`);
    const setVersion = (version: string) =>
      Deno.writeTextFile(
        `${pkgDir}/package.json`,
        JSON.stringify({ name: "@openai/codex", version }),
      );
    // The exact version the real-agent matrix's receiver cell passed with, and one past it.
    const tested = TESTED_VERSIONS.codex.cells!.receiver.version!;
    assert(TESTED_VERSIONS.codex.cells!.receiver.result!.startsWith("pass"));
    const untested = `${tested}-next.1`;
    await setVersion(untested);
    await fakeAgent(
      `${pkgDir}/bin`,
      "codex.js",
      `[ "$1" = --version ] && exec sleep 5\n${CODEX_HELP}`,
    );
    await Deno.writeTextFile(`${dir}/runs`, "");
    const bin = `${dir}/node_modules/.bin/codex`;
    await Deno.symlink("../@openai/codex/bin/codex.js", bin);
    const codex = adapterByName("codex")!;
    assertEquals(packageVersion(codex, bin), untested);
    const config = parseConfig({ agents: { codex: { bin } } }, "t.json", () => undefined);
    const runs = async () => {
      const text = await Deno.readTextFile(`${pkgDir}/bin/runs`);
      await Deno.writeTextFile(`${pkgDir}/bin/runs`, "");
      return text.split("\n").filter(Boolean);
    };
    // A version the matrix never ran: its own --help proves it (never --version).
    const s = await describeAgent(codex, config, { journal });
    assertEquals([s.version, s.versionNote, s.acceptsInitialPrompt], [untested, null, true]);
    assertEquals([s.proof?.line, s.proof?.recorded], [
      "Usage: codex [OPTIONS] [PROMPT]",
      undefined,
    ]);
    assertEquals(await runs(), ["--help"], "--version was never run");

    // npm installs the verified version in place: the launcher keeps its size and npm's fixed
    // modification time, only its package says so. The record proves it: nothing runs.
    const { mtime } = await Deno.stat(`${pkgDir}/bin/codex.js`);
    const keepStamp = () => Deno.utime(`${pkgDir}/bin/codex.js`, new Date(), mtime!);
    await setVersion(tested);
    await keepStamp();
    const verified = await describeAgent(codex, config, { journal });
    assertEquals([verified.version, verified.acceptsInitialPrompt, verified.cached], [
      tested,
      true,
      false,
    ]);
    assertEquals(verified.proof?.recorded, {
      version: tested,
      date: TESTED_VERSIONS.codex.cells!.receiver.date,
    });
    assertEquals(verified.proof?.line, null, "no help line: the binary was not asked");
    assertEquals(await runs(), [], "neither --version nor --help ran");
    // A run's background proof asks the same: nothing runs there either.
    const found = { path: bin, version: null };
    assertEquals((await proveAgent(codex, found, journal)).recorded?.version, tested);
    assertEquals(await runs(), []);
    // --refresh asks the binary itself; its answer is cached and wins over the record after.
    const refreshed = await describeAgent(codex, config, { journal, refresh: true });
    assertEquals([refreshed.proof?.recorded, refreshed.proof?.line], [
      undefined,
      "Usage: codex [OPTIONS] [PROMPT]",
    ]);
    assertEquals(await runs(), ["--help"]);
    const after = await describeAgent(codex, config, { journal });
    assertEquals([after.cached, after.proof?.cached, after.proof?.recorded], [
      true,
      true,
      undefined,
    ]);
    assertEquals(await runs(), []);

    // Upgraded past the verified version: the record says nothing of it, its --help is asked.
    await setVersion(untested.replace("next.1", "next.2"));
    await keepStamp();
    const upgraded = await describeAgent(codex, config, { journal });
    assertEquals([upgraded.version, upgraded.cached, upgraded.proof?.recorded], [
      untested.replace("next.1", "next.2"),
      false,
      undefined,
    ]);
    assertEquals(await runs(), ["--help"]);
    const again = await describeAgent(codex, config, { journal });
    assertEquals([again.cached, again.acceptsInitialPrompt], [true, true]);
    assertEquals(await runs(), [], "nothing more ran");
    // Another package's package.json (a project folder, a wrapper) is not the agent's version.
    await Deno.writeTextFile(
      `${pkgDir}/package.json`,
      JSON.stringify({ name: "some-wrapper", version: "9.9.9" }),
    );
    assertEquals(packageVersion(codex, bin), null);
    assertEquals(packageVersion(adapterByName("aider")!, bin), null, "not an npm package");
  } finally {
    journal.close();
    await Deno.remove(dir, { recursive: true });
  }
});
