import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import { ChannelReader } from "../../src/session/channel_reader.ts";
import type { ChannelEvent, ChannelRecord } from "../channel.ts";
import { PI_CHANNEL, PI_CHANNEL_EVENTS, piFailure, piProviderError } from "./pi.ts";
import { PI_CHANNEL_ENV, PI_EXTENSION_FILE, PI_EXTENSION_SOURCE } from "./pi_extension.ts";
import { pi } from "../pi.ts";
import { inChildWithEnv } from "../../tests/_in_child.ts";

const DIR = join(CHANNELS_DIR, "pi-0.73.1");
const NOW = { now: new Date("2026-12-01T22:00:00Z"), timeZone: "UTC" };
const QUOTA =
  "429 You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.";

// The records uuldana's extension wrote from real pi 0.73.1, in the order pi fired the events.
function recorded(): ChannelRecord[] {
  return readdirSync(DIR).filter((f) => /^\d+-.*\.json$/.test(f)).sort().map((f) => ({
    name: f.replace(/^\d+-|\.json$/g, ""),
    data: JSON.parse(readFileSync(join(DIR, f), "utf8")),
  }));
}

function parseAll(records: ChannelRecord[]): ChannelEvent[] {
  const parser = PI_CHANNEL.parser();
  return records.flatMap((r) => parser.parse(r, NOW));
}

const quotaLimit: ChannelEvent = {
  type: "limit",
  kind: "usage",
  message: QUOTA,
  resetsAt: null,
  // The OpenAI SDK's error text carries the status, not the body's `insufficient_quota` code.
  status: 429,
};
// The same 429 read off pi's fetch by the extension: the provider's body, with its code.
const providerQuota: ChannelEvent = { ...quotaLimit, code: "insufficient_quota" };

Deno.test("real pi 0.73.1's extension records become uuldana's events: exact prompts, replies, its quota 429 at the provider's first answer", () => {
  const records = recorded();
  // Every record the extension writes but `tool_result` (that session made no tool call; the
  // tool records are checked live by tools/real-agents/check_tool_actions.sh).
  assertEquals(
    [...new Set(records.map((r) => r.name))],
    PI_CHANNEL_EVENTS.filter((e) => e !== "tool_result"),
  );
  // Each attempt of pi's: its SDK's three requests (two quiet retries, ~1.5 s), then pi's error.
  const retry = [
    { type: "busy" },
    providerQuota,
    providerQuota,
    providerQuota,
    quotaLimit,
    { type: "idle" },
  ];
  assertEquals(parseAll(records), [
    { type: "session", phase: "start", detail: "startup" },
    // The opening prompt from `@FILE`, as pi received it.
    {
      type: "prompt",
      text:
        '<file name="/WORK/opening.md">\nOpening prompt from a file.\nSecond line of it.\n\n</file>\n',
    },
    { type: "busy" },
    { type: "reply", text: "MOCKREPLY-1: noted." },
    { type: "idle" },
    { type: "prompt", text: "Add a --dry-run flag to deploy.sh" },
    { type: "busy" },
    { type: "reply", text: "MOCKREPLY-2: noted." },
    { type: "idle" },
    // A bracketed paste of two lines arrives whole; `/session` fired nothing.
    { type: "prompt", text: "first pasted line\nsecond pasted line" },
    { type: "busy" },
    { type: "reply", text: "MOCKREPLY-3: noted." },
    { type: "idle" },
    { type: "prompt", text: "and a test for it" },
    // The limit at the first answer, then each of pi's three retries.
    ...retry,
    ...retry,
    ...retry,
    ...retry,
    { type: "session", phase: "end", detail: "quit" },
  ]);
});

Deno.test("pi's error text: a quota or a spend cap is a usage limit, a bodiless 429 a rate limit, the rest errors", () => {
  assertEquals(piFailure(QUOTA, NOW), quotaLimit);
  const codex = piFailure(
    'Codex error: {"type":"error","error":{"type":"usage_limit_reached","message":"The usage limit has been reached","plan_type":"plus","resets_at":1796174400,"resets_in_seconds":13872},"status_code":429}',
    NOW,
  );
  assertEquals(
    [codex.type, (codex as { kind?: string }).kind, (codex as { resetsAt?: string }).resetsAt],
    ["limit", "usage", "2026-12-02T01:20:00.000Z"],
  );
  assertEquals((codex as { code?: string }).code, "usage_limit_reached");
  assertEquals(piFailure("429 status code (no body)", NOW), {
    type: "limit",
    kind: "rate",
    message: "429 status code (no body)",
    resetsAt: null,
    status: 429,
  });
  assertEquals(piFailure("No API key found for mock.", NOW), {
    type: "error",
    message: "No API key found for mock.",
  });
  assertEquals(piFailure('529 {"type":"error","error":{"type":"overloaded_error"}}', NOW), {
    type: "error",
    message: '529 {"type":"error","error":{"type":"overloaded_error"}}',
    status: 529,
    code: "overloaded_error",
  });
});

Deno.test("the extension itself, fed what real pi hands it, writes records the reader follows", async () => {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-pi-ext-" });
  const channel = join(root, "channel");
  Deno.mkdirSync(channel, { mode: 0o700 });
  const file = join(root, PI_EXTENSION_FILE);
  Deno.writeTextFileSync(file, PI_EXTENSION_SOURCE);
  // The events pi 0.73.1 passed a logging extension (testdata/channels/pi-0.73.1/pi-events.jsonl).
  const events = readFileSync(join(DIR, "pi-events.jsonl"), "utf8").split("\n").filter(Boolean)
    .map((l) => JSON.parse(l));
  const { names, results } = await feedExtension(file, channel, events);
  // Every record but provider_error (read off fetch, not a pi event) is one of pi's events.
  assertEquals(names.sort(), PI_CHANNEL_EVENTS.filter((e) => e !== "provider_error").sort());
  // `input` lets pi go on with the text unchanged.
  assertEquals(results[events.findIndex((e) => e.type === "input")], { action: "continue" });
  const look = new ChannelReader(channel).look();
  assertEquals(look.drops, []);
  // User messages' message_end are not recorded: only the assistant's.
  assertEquals(
    look.records.map((r) => r.name),
    events.filter((e) => e.type !== "message_end" || e.message.role === "assistant").map((e) =>
      e.type
    ),
  );
  assertEquals(parseAll(look.records).filter((e) => e.type !== "busy" && e.type !== "idle"), [
    { type: "session", phase: "start", detail: "startup" },
    { type: "prompt", text: "Add a --dry-run flag to deploy.sh" },
    { type: "reply", text: "MOCKREPLY-3: noted." },
    { type: "prompt", text: "and a test for it" },
    quotaLimit,
    quotaLimit,
    quotaLimit,
    quotaLimit,
  ]);
  Deno.removeSync(root, { recursive: true });
});

/**
 * Loads the extension `file` as pi does (its default export called with `on`), with its channel
 * folder `channel` in the environment, feeds it `events` by their type, and returns the events it
 * registered for and what each handler returned (`null` for none). In a child process: the
 * extension reads its folder from the environment and wraps the process's `fetch`, both shared by
 * every test running at the same time.
 */
function feedExtension(
  file: string,
  channel: string,
  events: { type: string; [k: string]: unknown }[],
) {
  const script = `
    const handlers = new Map();
    const mod = await import(${JSON.stringify(`file://${file}`)});
    mod.default({ on: (name, fn) => handlers.set(name, fn) });
    const events = ${JSON.stringify(events)};
    const results = events.map((e) => handlers.get(e.type)?.(e) ?? null);
    console.log(JSON.stringify({ names: [...handlers.keys()], results }));`;
  return inChildWithEnv<{ names: string[]; results: unknown[] }>(script, {
    [PI_CHANNEL_ENV]: channel,
  });
}

Deno.test("the extension reports each failed answer to the model's endpoint as it comes, and hands pi the answer untouched", async () => {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-pi-ext-" });
  const channel = join(root, "channel");
  Deno.mkdirSync(channel, { mode: 0o700 });
  const file = join(root, "fetch.mjs");
  Deno.writeTextFileSync(file, PI_EXTENSION_SOURCE);
  const quota = Deno.readTextFileSync(join(DIR, "16-provider_error.json"));
  // In a child: the extension wraps the process's fetch, here a stub answering as the mock did.
  const seen = await inChildWithEnv<{ status: number; n: string | null; body: string }>(
    `
    const quota = ${JSON.stringify(quota)};
    const answers = {
      "http://mock/v1/chat/completions": () =>
        new Response(JSON.parse(quota).body, { status: 429, headers: { "x-n": "1" } }),
      "http://mock/v1/models": () => new Response("ok", { status: 200 }),
      "http://mock/v10/chat": () => new Response("other", { status: 500 }),
      "https://registry.npmjs.org/x": () => new Response("throttled", { status: 429 }),
    };
    globalThis.fetch = (input) =>
      Promise.resolve(answers[String(input instanceof Request ? input.url : input)]());
    const url = ${JSON.stringify(`file://${file}`)};
    // pi's /reload loads it again: the process's fetch is wrapped once, the last load hears it.
    (await import(url)).default({ on: () => {} });
    const handlers = new Map();
    (await import(url + "?again")).default({ on: (name, fn) => handlers.set(name, fn) });
    // The model's endpoint, as pi's context names it (its trailing slash aside).
    handlers.get("session_start")({ reason: "startup" }, { model: { baseUrl: "http://mock/v1/" } });
    const answer = await fetch("http://mock/v1/chat/completions", { method: "POST" });
    const seen = { status: answer.status, n: answer.headers.get("x-n"), body: await answer.text() };
    // Not the model's endpoint, or not a failure: nothing.
    for (const other of ["http://mock/v1/models", "http://mock/v10/chat", "https://registry.npmjs.org/x"]) {
      await (await fetch(new Request(other))).text();
    }
    await new Promise((r) => setTimeout(r, 50));
    console.log(JSON.stringify(seen));`,
    { [PI_CHANNEL_ENV]: channel },
  );
  // pi (its SDK) gets the answer as it came, body and all.
  assertEquals(seen, { status: 429, n: "1", body: JSON.parse(quota).body });
  const look = new ChannelReader(channel).look();
  assertEquals(look.records.map((r) => r.name), ["session_start", "provider_error"]);
  assertEquals(look.records[1].data, JSON.parse(quota));
  assertEquals(parseAll(look.records).at(-1), providerQuota);
  Deno.removeSync(root, { recursive: true });
});

Deno.test("a failed answer of the provider: a quota is a usage limit with its code, a rate limit a rate limit, anything else nothing (pi's own error tells)", () => {
  const body = (error: Record<string, unknown>) => JSON.stringify({ error });
  assertEquals(
    piProviderError(
      429,
      body({
        message:
          "Rate limit reached for mock-1 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
        type: "requests",
        code: "rate_limit_exceeded",
      }),
      NOW,
    ),
    {
      type: "limit",
      kind: "rate",
      message:
        "429 Rate limit reached for mock-1 on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.",
      resetsAt: "2026-12-01T22:00:20.000Z",
      status: 429,
      code: "rate_limit_exceeded",
    },
  );
  // Anthropic's body names its type, Google's its status.
  const anthropic = piProviderError(
    429,
    JSON.stringify({
      type: "error",
      error: {
        type: "rate_limit_error",
        message: "This request would exceed your account's rate limit. Please try again later.",
      },
    }),
    NOW,
  );
  assertEquals([anthropic?.type, (anthropic as { code?: string })?.code], [
    "limit",
    "rate_limit_error",
  ]);
  // A server error, an overload, a bad request, a body that is not JSON: not a limit.
  assertEquals(
    piProviderError(
      500,
      body({
        message: "The server had an error while processing your request.",
        type: "server_error",
      }),
      NOW,
    ),
    null,
  );
  assertEquals(
    piProviderError(
      529,
      JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
      NOW,
    ),
    null,
  );
  assertEquals(
    piProviderError(400, body({ message: "Invalid model", type: "invalid_request_error" }), NOW),
    null,
  );
  assertEquals(piProviderError(502, "<html>Bad Gateway</html>", NOW), null);
  // A record without a status or with a bad body is dropped, not guessed at.
  const parser = PI_CHANNEL.parser();
  assertEquals(parser.parse({ name: "provider_error", data: { body: "{}" } }, NOW), []);
  assertEquals(parser.parse({ name: "provider_error", data: { status: 429 } }, NOW).length, 1);
});

Deno.test("the extension without its folder writes nothing and never throws into pi", async () => {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-pi-ext-" });
  const file = join(root, "no-channel.mjs");
  Deno.writeTextFileSync(file, PI_EXTENSION_SOURCE);
  const { results } = await feedExtension(file, join(root, "gone"), [
    { type: "input", text: "x", source: "interactive" },
    { type: "message_end", message: { role: "assistant" } },
  ]);
  assertEquals(results[0], { action: "continue" });
  assertEquals(readdirSync(root), ["no-channel.mjs"]);
  Deno.removeSync(root, { recursive: true });
});

Deno.test("pi's launch turns its channel on with -e and the folder, on every road, never in argv", () => {
  const base = {
    bin: "/bin/pi",
    extraArgs: ["--model", "mock/mock-1"],
    workspace: "/w",
    scratchDir: "/s",
    handoffFile: "/h.md",
  };
  const channel = { dir: "/s/channel", command: (e: string) => `relay ${e}` };
  for (const road of ["prompt", "paste"] as const) {
    const launch = pi.launch({ ...base, road, handoff: "HANDOFF TEXT", channel });
    assertEquals(launch.argv.slice(0, 5), [
      "/bin/pi",
      "-e",
      `/s/${PI_EXTENSION_FILE}`,
      "--model",
      "mock/mock-1",
    ]);
    assertEquals(launch.env, { [PI_CHANNEL_ENV]: "/s/channel" });
    const ext = launch.files!.find((f) => f.path === `/s/${PI_EXTENSION_FILE}`)!;
    assertEquals([ext.content, ext.mode], [PI_EXTENSION_SOURCE, 0o600]);
    assert(!launch.argv.some((a) => a.includes("HANDOFF TEXT")), road);
  }
  const prompt = pi.launch({ ...base, road: "prompt", handoff: "HANDOFF TEXT", channel });
  assertEquals(prompt.argv.at(-1), "@/s/handoff.md");
  const plain = pi.launch({ ...base, road: "prompt", handoff: "HANDOFF TEXT" });
  assertEquals(plain.argv, ["/bin/pi", "--model", "mock/mock-1", "@/s/handoff.md"]);
  assertEquals(plain.env, undefined);
  assertEquals(plain.files!.map((f) => f.path), ["/s/handoff.md"]);
  assert(statSync(DIR).isDirectory());
});
