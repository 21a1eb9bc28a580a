/** findAgent / proveAgent against real programs: a hanging `--help`, a missing configured bin. */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { findAgent, proveAgent, runProbe, whichBinary } from "../adapters/find.ts";
import { adapterByName } from "../adapters/registry.ts";
import { parseConfig } from "../src/config/config.ts";
import { Journal } from "../src/journal/journal.ts";

Deno.test("a --help that hangs (a grandchild holding the pipe too) is cut off and refused", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-find-" });
  const path = `${dir}/gemini`;
  await Deno.writeTextFile(path, "#!/bin/sh\nsleep 3 &\nsleep 3\n");
  await Deno.chmod(path, 0o755);
  const out = await runProbe(path, ["--help"], { timeoutMs: 300 });
  assertEquals(out.timedOut, true);
  assertEquals(out.code, null);
  const proof = await proveAgent(adapterByName("gemini")!, { path, version: null });
  assertEquals(proof.accepted, false);
});

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
    const slow = await proveAgent(gemini, found, journal, { timeoutMs: 200 });
    assertEquals([slow.accepted, /did not finish in time/.test(slow.reason!)], [false, true]);
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
