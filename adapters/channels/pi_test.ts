import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import { ChannelReader } from "../../src/session/channel_reader.ts";
import type { ChannelEvent, ChannelRecord } from "../channel.ts";
import { PI_CHANNEL, PI_CHANNEL_EVENTS, piFailure } from "./pi.ts";
import { PI_CHANNEL_ENV, PI_EXTENSION_FILE, PI_EXTENSION_SOURCE } from "./pi_extension.ts";
import { pi } from "../pi.ts";

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

Deno.test("real pi 0.73.1's extension records become uuldana's events: exact prompts, replies, its quota 429 at the first answer", () => {
  const records = recorded();
  assertEquals(
    [...new Set(records.map((r) => r.name))],
    [...PI_CHANNEL_EVENTS],
  );
  const retry = [{ type: "busy" }, quotaLimit, { type: "idle" }];
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
  const handlers = new Map<string, (e: unknown) => unknown>();
  const prev = Deno.env.get(PI_CHANNEL_ENV);
  Deno.env.set(PI_CHANNEL_ENV, channel);
  try {
    const mod = await import(`file://${file}`);
    mod.default({ on: (name: string, fn: (e: unknown) => unknown) => handlers.set(name, fn) });
    assertEquals([...handlers.keys()].sort(), [...PI_CHANNEL_EVENTS].sort());
    const results = events.map((e) => handlers.get(e.type)?.(e));
    // `input` lets pi go on with the text unchanged.
    assertEquals(results[events.findIndex((e) => e.type === "input")], { action: "continue" });
  } finally {
    if (prev === undefined) Deno.env.delete(PI_CHANNEL_ENV);
    else Deno.env.set(PI_CHANNEL_ENV, prev);
  }
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

Deno.test("the extension without its folder writes nothing and never throws into pi", async () => {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-pi-ext-" });
  const file = join(root, "no-channel.mjs");
  Deno.writeTextFileSync(file, PI_EXTENSION_SOURCE);
  const handlers = new Map<string, (e: unknown) => unknown>();
  Deno.env.set(PI_CHANNEL_ENV, join(root, "gone"));
  try {
    const mod = await import(`file://${file}`);
    mod.default({ on: (name: string, fn: (e: unknown) => unknown) => handlers.set(name, fn) });
    assertEquals(handlers.get("input")!({ type: "input", text: "x", source: "interactive" }), {
      action: "continue",
    });
    handlers.get("message_end")!({ type: "message_end", message: { role: "assistant" } });
  } finally {
    Deno.env.delete(PI_CHANNEL_ENV);
  }
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
