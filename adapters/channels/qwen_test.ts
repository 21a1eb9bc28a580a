import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { qwen } from "../qwen.ts";
import {
  QWEN_CHANNEL,
  QWEN_CHANNEL_EVENTS,
  QWEN_DEFAULTS_FILE,
  QWEN_MAX_RETRIES,
  qwenFailure,
} from "./qwen.ts";
import { parseRecorded, recorded, relayFor } from "./_recorded_test_util.ts";
import type { ChannelRelay } from "../channel.ts";

const NOW = { now: new Date("2026-12-01T21:52:00Z"), timeZone: "UTC" };

// Qwen's prompt-road launch of "the handoff", with the channel `channel` (none: the road alone).
function qwenLaunch(channel?: ChannelRelay) {
  return qwen.launch({
    bin: "/bin/qwen",
    road: "prompt",
    handoff: "the handoff",
    extraArgs: [],
    workspace: "/ws",
    scratchDir: relayFor().scratch,
    ...(channel ? { channel } : {}),
  });
}

Deno.test("real Qwen 0.24.4's hooks: exact prompts, replies, a quota that names its reset, an interrupt", () => {
  const records = recorded("qwen-0.24.4/session");
  const limit = "Quota exhausted: Your quota has been exhausted and will reset at " +
    "2026-12-02T00:52:26.000Z. Please retry after the reset time, or switch to another API key / " +
    "auth method. (cause: insufficient_quota: 429 Your quota has been exhausted and will reset at " +
    "2026-12-02T00:52:26.000Z.)";
  assertEquals(parseRecorded(QWEN_CHANNEL, records, NOW), [
    { type: "session", phase: "start", detail: "startup" },
    { type: "prompt", text: "first turn please" },
    { type: "busy" },
    { type: "reply", text: "MOCKREPLY-1: noted." },
    { type: "idle" },
    { type: "prompt", text: "second turn hits the quota" },
    { type: "busy" },
    {
      type: "limit",
      kind: "usage",
      message: limit,
      resetsAt: "2026-12-02T00:52:26.000Z",
      status: 429,
      code: "insufficient_quota",
    },
    { type: "idle" },
    { type: "prompt", text: "a slow turn I will interrupt" },
    { type: "busy" },
    // Interrupted: no Stop, only the prompt-is-back notification.
    { type: "idle" },
    { type: "session", phase: "end", detail: "prompt_input_exit" },
  ]);
});

Deno.test("real Qwen 0.24.4 retrying a plain 429 or a 500 says nothing until it gives up", () => {
  for (const dir of ["qwen-0.24.4/retried-quota", "qwen-0.24.4/server-error"]) {
    const events = parseRecorded(QWEN_CHANNEL, recorded(dir), NOW);
    assert(!events.some((e) => e.type === "limit" || e.type === "error"), dir);
    assertEquals(events.filter((e) => e.type === "idle").length, 1, `${dir}: Esc ended the turn`);
  }
});

Deno.test("StopFailure: what Qwen calls a rate limit or billing is a limit, anything else an error", () => {
  const rate = qwenFailure("rate_limit", "[API Error: 429 Too Many Requests]", "", NOW);
  assertEquals([rate.type, rate.type === "limit" && rate.kind], ["limit", "rate"]);
  const billing = qwenFailure("billing_error", "[API Error: 402 Payment required]", "", NOW);
  assertEquals([billing.type, billing.type === "limit" && billing.kind], ["limit", "usage"]);
  const server = qwenFailure("server_error", "[API Error: 500 Internal]", "", NOW);
  assertEquals(server, {
    type: "error",
    message: "[API Error: 500 Internal]",
    code: "server_error",
  });
  const auth = qwenFailure("authentication_failed", "", "401 invalid api key", NOW);
  assertEquals(auth.type, "error");
});

Deno.test("Qwen's launch names its own defaults file; the hooks print nothing and carry no text", () => {
  const { relay, scratch } = relayFor();
  const launchWith = qwenLaunch;
  const launch = launchWith(relay);
  const file = `${scratch}/${QWEN_DEFAULTS_FILE}`;
  assertEquals(launch.env?.QWEN_CODE_SYSTEM_DEFAULTS_PATH, file);
  assertEquals(launch.env?.QWEN_CODE_SYSTEM_SETTINGS_PATH, undefined, "never the admin's layer");
  const [written] = launch.files!.filter((f) => f.path === file);
  assertEquals(written.mode, 0o600);
  const hooks = JSON.parse(written.content).hooks;
  assertEquals(Object.keys(hooks), [...QWEN_CHANNEL_EVENTS]);
  for (const [event, groups] of Object.entries(hooks)) {
    assertEquals(groups, [{
      hooks: [{ type: "command", command: relay.command(event), timeout: 5 }],
    }]);
  }
  assert(!written.content.includes("the handoff"));
  // Without a relay the launch is the road's alone.
  const plain = launchWith();
  assertEquals(plain.env?.QWEN_CODE_SYSTEM_DEFAULTS_PATH, undefined);
});

Deno.test("Qwen's channel is off with --bare or --safe-mode, or when a defaults file is named already", () => {
  const check = (extraArgs: string[], env: Record<string, string> = {}) =>
    QWEN_CHANNEL.offReason({ extraArgs, env, version: "0.24.4" });
  assertEquals(check([]), null);
  assert(check(["--bare"])?.includes("--bare"));
  assert(check(["--safe-mode"])?.includes("--safe-mode"));
  assert(
    check([], { QWEN_CODE_SYSTEM_DEFAULTS_PATH: "/etc/admin.json" })?.includes("/etc/admin.json"),
  );
  // An administrator's system settings path moves the defaults beside it: one that exists is kept.
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/system-defaults.json`, "{}");
    assert(check([], { QWEN_CODE_SYSTEM_SETTINGS_PATH: `${dir}/settings.json` })?.includes(dir));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("with a receiver, the same defaults file turns Qwen's telemetry on at its lowest layer", () => {
  const { relay } = relayFor();
  const endpoint = "http://127.0.0.1:40404/0123456789abcdef0123456789abcdef";
  const launch = qwenLaunch({ ...relay, otlpEndpoint: endpoint });
  const [written] = launch.files!.filter((f) => f.path.endsWith(QWEN_DEFAULTS_FILE));
  const defaults = JSON.parse(written.content);
  assertEquals(defaults.telemetry, {
    enabled: true,
    otlpEndpoint: endpoint,
    otlpProtocol: "http",
    logPrompts: false,
  });
  // Never an outfile: it would beat the user's own endpoint.
  assert(!("outfile" in defaults.telemetry));
  assertEquals(
    defaults.model?.generationConfig?.maxRetries ?? null,
    QWEN_MAX_RETRIES,
  );
  assert(!written.content.includes("the handoff"));
});

Deno.test("Qwen's telemetry road is off where the user's environment or arguments set its telemetry", () => {
  const check = (extraArgs: string[], env: Record<string, string> = {}) =>
    QWEN_CHANNEL.telemetry!.offReason({ extraArgs, env, version: "0.24.4" });
  assertEquals(check([]), null);
  assert(check([], { QWEN_TELEMETRY_ENABLED: "false" })?.includes("QWEN_TELEMETRY_ENABLED"));
  assert(
    check([], { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })?.includes(
      "OTEL_EXPORTER_OTLP_ENDPOINT",
    ),
  );
  assert(check(["--telemetry-target=gcp"])?.includes("--telemetry-target"));
  // The hooks stay on either way.
  assertEquals(QWEN_CHANNEL.offReason({ extraArgs: [], env: {}, version: "0.24.4" }), null);
});

Deno.test("Qwen's telemetry records: a quota at its first failed call, a 429's retry with its attempt, nothing else", () => {
  const parse = (name: string, data: Record<string, unknown>) =>
    QWEN_CHANNEL.parser().parse({ name, data }, NOW);
  assertEquals(
    parse("qwen-code.api_error", {
      status_code: 429,
      error_message: "429 Free allocated quota exceeded.",
      error_type: "RateLimitError",
    }),
    [{
      type: "limit",
      kind: "usage",
      message: "429 Free allocated quota exceeded.",
      resetsAt: null,
      status: 429,
      code: "RateLimitError",
    }],
  );
  const [retry] = parse("qwen-code.api_retry", {
    status_code: 429,
    error_message: "429 Rate limit reached for requests per min (RPM)",
    attempt_number: 2,
    retry_delay_ms: 60_000,
  });
  assertEquals(
    retry.type === "limit" && [retry.kind, retry.attempt, retry.waitSeconds, retry.final],
    ["rate", 2, 60, undefined],
  );
  assertEquals(parse("qwen-code.api_error", { status_code: 500, error_message: "500 boom" }), []);
  assertEquals(parse("qwen-code.api_error", { error_message: 7 }), []);
});
