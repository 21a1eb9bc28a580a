import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentSpec, Mock, run, World } from "./matrix_world.ts";

const chat = (base: string) =>
  fetch(`${base}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "mock-1", messages: [{ role: "user", content: "hi" }] }),
  });

Deno.test("the mock says its port, logs each model request and answers the limit when told", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-matrix-world-" });
  const mock = new Mock(join(dir, "mock.jsonl"));
  try {
    await mock.ready();
    assert(mock.port > 0);
    assertEquals(mock.receiverUrl, `${mock.base}/receiver/v1/chat/completions`);
    const first = await chat(mock.base);
    assertEquals(first.status, 200);
    await first.body?.cancel();
    await mock.limit();
    const second = await chat(mock.base);
    assertEquals(second.status, 429);
    await second.body?.cancel();
    const seen = mock.requests();
    assertEquals(seen.map((r) => [r.path, r.limited, r.account]), [
      ["/v1/chat/completions", false, "agent"],
      ["/v1/chat/completions", true, "agent"],
    ]);
  } finally {
    mock.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a world's config: the real agent with its env and files filled in, the others simulated", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-matrix-world-" });
  const w = new World(dir, "pi-sender");
  try {
    await w.mock.ready();
    const spec: AgentSpec = {
      package: "@example/agent",
      bin: "agent",
      env: { AGENT_API: "{base}/v1", AGENT_HOME: "{home}" },
      files: { "{home}/.agent/settings.json": '{"workspace":"{ws}"}' },
      ready: null,
    };
    w.configure(["pi", "codex"], "pi", "/opt/pi/bin/pi", spec, { SIM_LIMIT_AFTER: "1" }, "paste");
    const config = JSON.parse(readFileSync(join(w.root, "config.json"), "utf8"));
    assertEquals(config.chain, ["pi", "codex"]);
    assertEquals(config.agents.pi, {
      bin: "/opt/pi/bin/pi",
      road: "paste",
      env: { HOME: w.home, AGENT_API: `${w.mock.base}/v1`, AGENT_HOME: w.home },
    });
    assertEquals(config.agents.codex.bin, w.sims.codex);
    assertEquals(config.agents.codex.env.SIM_LIMIT_AFTER, "1");
    assertEquals(
      readFileSync(join(w.home, ".agent", "settings.json"), "utf8"),
      `{"workspace":"${w.ws}"}`,
    );
    assertEquals((await run("sh", ["-c", "echo out; echo err >&2"])).trim(), "out");
  } finally {
    await w.close();
    await Deno.remove(dir, { recursive: true });
  }
});
