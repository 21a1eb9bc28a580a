import { deepStrictEqual as assertEquals, ok as assert, rejects } from "node:assert/strict";
import { join } from "node:path";
import { AGENT_API, fill, laneResponse, loadLanes } from "./error_lanes.ts";
import { Mock } from "./matrix_world.ts";

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: "POST", body: JSON.stringify(body) });
const chat = (base: string) =>
  post(base, "/v1/chat/completions", {
    model: "mock-1",
    messages: [{ role: "user", content: "hi" }],
  });

Deno.test("every lane names a known API and class, and every API an agent speaks has a hard lane", () => {
  const lanes = loadLanes();
  for (const [name, lane] of Object.entries(lanes)) {
    assert(["anthropic", "responses", "chat", "gemini"].includes(lane.api), name);
    assert(["hard", "transient", "warning"].includes(lane.class), name);
    assert(lane.source.length > 10, `${name} says where its shape comes from`);
    if (lane.class === "transient") assert(lane.clearAfter! > 0, `${name} clears`);
    if (lane.class === "warning") assertEquals(lane.warning, true);
    else assert(lane.status >= 400, name);
  }
  for (const api of new Set(Object.values(AGENT_API))) {
    assert(Object.values(lanes).some((l) => l.api === api && l.class === "hard"), api);
    assert(Object.values(lanes).some((l) => l.api === api && l.class === "transient"), api);
  }
});

Deno.test("a lane's reset placeholders become numbers in bodies and strings in headers", async () => {
  const now = Date.UTC(2026, 11, 4, 18, 0, 0);
  assertEquals(fill("{reset}", now), String(now / 1000 + 3 * 3600));
  const res = laneResponse(loadLanes()["codex-usage-plus"], now);
  assertEquals(res.status, 429);
  assertEquals(res.headers.get("x-codex-primary-reset-at"), String(now / 1000 + 3 * 3600));
  const body = await res.json();
  assertEquals(body.error.resets_at, now / 1000 + 3 * 3600);
  assertEquals(body.error.plan_type, "plus");
});

Deno.test("the mock answers a lane's error until it clears, only on its API, then normally", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-lanes-" });
  const mock = new Mock(join(dir, "mock.jsonl"));
  try {
    await mock.ready();
    await mock.lane("chat-rate-limit");
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await chat(mock.base);
      statuses.push(res.status);
      if (res.status === 429) {
        assertEquals(res.headers.get("retry-after"), "2");
        assertEquals((await res.json()).error.code, "rate_limit_exceeded");
      } else await res.body?.cancel();
    }
    assertEquals(statuses, [429, 429, 429, 200]);
    // Another API answers normally while the lane is on.
    const other = await post(mock.base, "/v1/messages", { model: "m", messages: [] });
    assertEquals(other.status, 200);
    await other.body?.cancel();
    assertEquals(
      mock.requests().map((r) => [r.limited, r.lane ?? null]),
      [
        [true, "chat-rate-limit"],
        [true, "chat-rate-limit"],
        [true, "chat-rate-limit"],
        [false, "chat-rate-limit"],
        [false, null],
      ],
    );
    await rejects(() => mock.lane("no-such-lane"));
  } finally {
    mock.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a warning lane adds the provider's headers to normal answers until /__mock/ok", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-lanes-" });
  const mock = new Mock(join(dir, "mock.jsonl"));
  try {
    await mock.ready();
    await mock.lane("anthropic-warning");
    const msg = () => post(mock.base, "/v1/messages", { model: "m", messages: [] });
    const warned = await msg();
    assertEquals(warned.status, 200);
    assertEquals(warned.headers.get("anthropic-ratelimit-unified-status"), "allowed_warning");
    assert((await warned.text()).includes("MOCKREPLY-1"));
    await mock.ok();
    const plain = await msg();
    assertEquals(plain.headers.get("anthropic-ratelimit-unified-status"), null);
    await plain.body?.cancel();
  } finally {
    mock.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an agent retrying a lane's error in a tight loop: after 50 errors the log keeps no bodies", async () => {
  const dir = await Deno.makeTempDir({ prefix: "uuldana-lanes-" });
  const mock = new Mock(join(dir, "mock.jsonl"));
  try {
    await mock.ready();
    await mock.lane("chat-insufficient-quota");
    for (let i = 0; i < 55; i++) await (await chat(mock.base)).body?.cancel();
    const logged = mock.requests();
    assertEquals(logged.length, 55);
    assert(logged.slice(0, 50).every((r) => r.body.includes('"hi"')));
    assert(logged.slice(50).every((r) => r.body === "" && r.limited));
  } finally {
    mock.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
