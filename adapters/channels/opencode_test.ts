import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChannelEvent } from "../channel.ts";
import { CHANNEL_EVENT_NAME, CHANNEL_PAYLOAD_NAME } from "../channel.ts";
import { kilo } from "../kilo.ts";
import { opencode } from "../opencode.ts";
import { openCodeChannelLaunch } from "./opencode.ts";
import {
  OPENCODE_CHANNEL_ENV,
  OPENCODE_PLUGIN_FILE,
  openCodePluginSource,
} from "./opencode_plugin.ts";
import { inChildWithEnv } from "../../tests/_in_child.ts";
import { OPENAI_QUOTA, parseRecorded, recorded, relayFor } from "./_recorded_test_util.ts";

const NOW = { now: new Date("2026-12-01T23:13:30Z"), timeZone: "UTC" };

const limits = (events: ChannelEvent[]) => events.filter((e) => e.type === "limit");

Deno.test("real OpenCode 1.18.33 through uuldana's plugin: prompts, replies, the quota at its first retry", () => {
  const events = parseRecorded(opencode.channel!, recorded("opencode-1.18.33/plugin-session"), NOW);
  const [first, ...rest] = limits(events);
  // The first retry, 0.4 s after the provider's first 429: a usage limit, with OpenCode's attempt.
  assertEquals(first, {
    type: "limit",
    kind: "usage",
    message: OPENAI_QUOTA,
    resetsAt: null,
    attempt: 1,
    waitSeconds: 26,
  });
  assertEquals(rest.map((l) => l.type === "limit" && (l.attempt ?? "final")), [
    2,
    3,
    4,
    5,
    "final",
  ]);
  const final = rest.at(-1)!;
  assertEquals(final.type === "limit" && [final.final, final.status, final.code], [
    true,
    429,
    "insufficient_quota",
  ]);
  assertEquals(events.filter((e) => e.type !== "limit"), [
    { type: "prompt", text: "Add a --dry-run flag to deploy.sh" },
    { type: "busy" },
    { type: "reply", text: "MOCKREPLY-2: noted." },
    { type: "idle" },
    { type: "prompt", text: "and a test for it" },
    { type: "busy" },
    { type: "idle" },
    // A 500 retried until Esc: no limit, no error.
    { type: "prompt", text: "a turn with a server error" },
    { type: "busy" },
    { type: "idle" },
    // Esc in a slow turn: MessageAbortedError, which is no failure.
    { type: "prompt", text: "slow then interrupted" },
    { type: "busy" },
    { type: "idle" },
  ]);
});

Deno.test("every event the real agents sent (before the plugin filtered them) reads the same", () => {
  for (
    const [adapter, dir, quota] of [
      [opencode, "opencode-1.18.33/quota", true],
      [kilo, "kilo-7.7.7/quota-interrupted", true],
      [opencode, "opencode-1.18.33/server-error-interrupted", false],
      [kilo, "kilo-7.7.7/server-error-interrupted", false],
    ] as const
  ) {
    const events = parseRecorded(adapter.channel!, recorded(dir), NOW);
    assertEquals(events[0].type, "prompt", dir);
    assertEquals(limits(events).length > 0, quota, dir);
    if (quota) assertEquals(limits(events)[0].type === "limit" && limits(events)[0].attempt, 1);
    assert(!events.some((e) => e.type === "error"), dir);
    assertEquals(events.at(-1), { type: "idle" }, dir);
  }
  for (
    const [adapter, dir] of [[opencode, "opencode-1.18.33/turn"], [
      kilo,
      "kilo-7.7.7/turn",
    ]] as const
  ) {
    const events = parseRecorded(adapter.channel!, recorded(dir), NOW);
    // Kilo's synthetic "Initializing snapshot…" parts are not the reply.
    assertEquals(
      events.filter((e) => e.type === "reply").map((e) => e.type === "reply" && e.text),
      [
        adapter === kilo ? "MOCKREPLY-1: noted." : "MOCKREPLY-2: noted.",
      ],
    );
  }
});

Deno.test("a subagent's session is not the user's turn; a final 5xx is an error, not a limit", () => {
  const p = opencode.channel!.parser();
  const rec = (name: string, data: unknown) => p.parse({ name, data }, NOW);
  assertEquals(rec("chat.message", { sessionID: "ses_a", parts: [{ type: "text", text: "go" }] }), [
    { type: "prompt", text: "go" },
    { type: "busy" },
  ]);
  rec("session.created", { properties: { sessionID: "ses_b", info: { parentID: "ses_a" } } });
  const status = (sessionID: string, status: unknown) =>
    rec("session.status", { properties: { sessionID, status } });
  assertEquals(status("ses_b", { type: "retry", attempt: 1, message: OPENAI_QUOTA, next: 0 }), []);
  assertEquals(status("ses_b", { type: "idle" }), []);
  assertEquals(
    rec("session.error", {
      properties: {
        sessionID: "ses_a",
        error: { name: "APIError", data: { message: "Internal server error", statusCode: 500 } },
      },
    }),
    [{ type: "error", message: "Internal server error", status: 500 }],
  );
  // OpenCode's own plan limit says so in the retry's action.
  const own = status("ses_a", {
    type: "retry",
    attempt: 1,
    message: "Usage limit reached. It will reset in 2 hours 3 minutes.",
    action: { reason: "account_rate_limit", title: "Go limit reached" },
    next: NOW.now.getTime() + 5000,
  });
  assertEquals(own, [{
    type: "limit",
    kind: "usage",
    message: "Usage limit reached. It will reset in 2 hours 3 minutes.",
    resetsAt: "2026-12-02T01:16:30.000Z",
    attempt: 1,
    waitSeconds: 5,
    code: "account_rate_limit",
  }]);
});

Deno.test("the launch adds the plugin to the user's own inline configuration and keeps every key", () => {
  const { relay, scratch } = relayFor();
  const user = JSON.stringify({
    model: "mock/mock-1",
    plugin: ["their-plugin"],
    provider: { a: 1 },
  });
  for (
    const [adapter, configVar] of [[opencode, "OPENCODE_CONFIG_CONTENT"], [
      kilo,
      "KILO_CONFIG_CONTENT",
    ]] as const
  ) {
    const launch = adapter.launch({
      bin: `/bin/${adapter.name}`,
      road: "prompt",
      handoff: "the handoff",
      extraArgs: [],
      workspace: "/ws",
      scratchDir: scratch,
      channel: relay,
      env: { [configVar]: user },
    });
    const plugin = join(scratch, OPENCODE_PLUGIN_FILE);
    assertEquals(JSON.parse(launch.env![configVar]), {
      model: "mock/mock-1",
      plugin: ["their-plugin", `file://${plugin}`],
      provider: { a: 1 },
    });
    assertEquals(launch.env![OPENCODE_CHANNEL_ENV], relay.dir);
    assertEquals(launch.files!.find((f) => f.path === plugin)?.content, openCodePluginSource());
    // The road still carries the handoff; the configuration never does.
    assert(launch.argv.some((a) => a.includes("the handoff")));
    assert(!launch.env![configVar].includes("the handoff"));
  }
  const off = opencode.channel!.offReason({
    extraArgs: [],
    env: { OPENCODE_CONFIG_CONTENT: "not json" },
    version: "1.18.33",
  });
  assert(off?.includes("OPENCODE_CONFIG_CONTENT"));
  const alone = openCodeChannelLaunch(relay, scratch, "OPENCODE_CONFIG_CONTENT", undefined);
  assertEquals(JSON.parse(alone.env.OPENCODE_CONFIG_CONTENT), {
    plugin: [`file://${join(scratch, OPENCODE_PLUGIN_FILE)}`],
  });
});

Deno.test("the plugin writes records in the channel format, keeps only what is read, never throws", async () => {
  const dir = Deno.makeTempDirSync();
  const file = join(dir, OPENCODE_PLUGIN_FILE);
  Deno.writeTextFileSync(file, openCodePluginSource());
  try {
    // In a child: the plugin reads its folder from the environment when it loads.
    await inChildWithEnv(
      `
      const mod = await import(${JSON.stringify(`file://${file}`)});
      const hooks = await mod.UuldanaChannel({});
      await hooks["chat.message"]({ sessionID: "s" }, { parts: [{ type: "text", text: "hi" }] });
      await hooks.event({ event: { type: "plugin.added", properties: {} } });
      await hooks.event({
        event: { type: "session.status", properties: { sessionID: "s", status: { type: "busy" } } },
      });
      const part = (end, synthetic = false) => ({
        type: "message.part.updated",
        properties: {
          sessionID: "s",
          part: { id: "p", type: "text", text: "answer", synthetic, time: end ? { start: 1, end: 2 } : { start: 1 } },
        },
      });
      await hooks.event({ event: part(false) });
      await hooks.event({ event: part(true, true) });
      await hooks.event({ event: part(true) });
      // Odd input is ignored, never thrown.
      await hooks.event({ event: null });
      await hooks.event({});
      await hooks["chat.message"](null, null);
      console.log("true");`,
      { [OPENCODE_CHANNEL_ENV]: dir },
    );
    const lines = readFileSync(join(dir, "events"), "utf8").trim().split("\n");
    assertEquals(lines.map((l) => l.split(" ")[0]), [
      "chat.message",
      "session.status",
      "message.part.updated",
      "chat.message",
    ]);
    for (const line of lines) {
      const [name, payload] = line.split(" ");
      assert(CHANNEL_EVENT_NAME.test(name) && CHANNEL_PAYLOAD_NAME.test(payload), line);
      assertEquals(Deno.statSync(join(dir, payload)).mode! & 0o777, 0o600);
    }
    const parsed = lines.map((l) => {
      const [name, payload] = l.split(" ");
      return { name, data: JSON.parse(readFileSync(join(dir, payload), "utf8")) };
    });
    const events = parsed.flatMap((r) => opencode.channel!.parser().parse(r, NOW));
    assertEquals(events.slice(0, 2), [{ type: "prompt", text: "hi" }, { type: "busy" }]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
