/**
 * findAgent / proveAgent against real programs: a hanging or slow `--help`, a flood of output, a
 * missing configured bin, and the simulated Gemini CLI that relaunches itself.
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import {
  findAgent,
  PROBE_OUTPUT_CAP,
  proveAgent,
  runProbe,
  whichBinary,
} from "../adapters/find.ts";
import { adapterByName } from "../adapters/registry.ts";
import { parseConfig } from "../src/config/config.ts";
import { Journal } from "../src/journal/journal.ts";
import { installSimAgents } from "../src/sim/install.ts";
import { UULDANA } from "./_paths.ts";

Deno.test("a --help that hangs (a grandchild holding the pipe too) is cut off and refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-" });
  const path = `${dir}/gemini`;
  await Deno.writeTextFile(path, "#!/bin/sh\nsleep 3 &\nsleep 3\n");
  await Deno.chmod(path, 0o755);
  const out = await runProbe(path, ["--help"], { timeoutMs: 300 });
  assertEquals(out.timedOut, true);
  assertEquals(out.code, null);
  const proof = await proveAgent(adapterByName("gemini")!, { path, version: null }, undefined, {
    timeoutMs: 300,
    retryTimeoutMs: 300,
  });
  assertEquals([proof.accepted, proof.inconclusive], [false, true]);
  assertMatch(
    proof.reason!,
    /did not finish in 0\.3 s, nor in 0\.3 s on a second try; not a refusal/,
  );
});

Deno.test("a --help slower than the first limit is tried again, longer, and says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-slow-" });
  try {
    const path = `${dir}/gemini`;
    await Deno.writeTextFile(
      path,
      "#!/bin/sh\nsleep 1\necho '  -i, --prompt-interactive  Execute the prompt and continue'\n",
    );
    await Deno.chmod(path, 0o755);
    const proof = await proveAgent(adapterByName("gemini")!, { path, version: null }, undefined, {
      timeoutMs: 300,
      retryTimeoutMs: 10_000,
    });
    assertEquals([proof.accepted, proof.inconclusive], [true, undefined]);
    assertMatch(proof.note!, /did not finish in 0\.3 s; the second try took \d/);
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
    assertEquals(journal.cachedProof(path, "0.61.0"), null);
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
