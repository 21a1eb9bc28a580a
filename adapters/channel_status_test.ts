import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { CLAUDE_CHANNEL } from "./channels/claude.ts";
import { QWEN_CHANNEL } from "./channels/qwen.ts";
import { GEMINI_DEBUG_LOG } from "./channels/gemini_log.ts";
import { channelLine, channelState } from "./channel_status.ts";

const launch = { extraArgs: [] as string[], env: {}, version: "2.1.332" };

Deno.test("an agent's channel as `uuldana agents` says it", () => {
  const claude = { channel: CLAUDE_CHANNEL };
  assertEquals(channelLine(channelState(claude, launch)), "channel: hooks");
  assertEquals(
    channelLine(channelState({}, launch)),
    "channel: screen only (no channel uuldana can turn on in this agent)",
  );
  assertEquals(
    channelLine(channelState(claude, { ...launch, extraArgs: ["--bare"] })),
    "channel: screen only (--bare turns Claude's hooks off)",
  );
  const silent = {
    runId: 7,
    endedAt: "2026-12-01T21:00:00Z",
    state: "silent" as const,
    why: "no event came 4 s after a submit",
  };
  assertEquals(
    channelLine(channelState(claude, launch, silent)),
    "channel: screen only (its hooks were silent in run 7: no event came 4 s after a submit)",
  );
  // A later run that heard it again says hooks.
  assertEquals(channelState(claude, launch, { ...silent, state: "on" }), { channel: "hooks" });
});

Deno.test("Qwen's channel: hooks + telemetry, or its telemetry off and why where the user sets theirs", () => {
  const qwen = { channel: QWEN_CHANNEL };
  const launch = { extraArgs: [] as string[], env: {}, version: "0.24.4" };
  assertEquals(channelLine(channelState(qwen, launch)), "channel: hooks + telemetry");
  assertEquals(
    channelLine(channelState(qwen, { ...launch, env: { QWEN_TELEMETRY_ENABLED: "false" } })),
    "channel: hooks; telemetry off (your environment sets QWEN_TELEMETRY_ENABLED; uuldana leaves " +
      "Qwen's telemetry to you)",
  );
});

Deno.test("Gemini: screen only for its channel, its debug log on, or off where you name your own", () => {
  const gemini = { debugLog: GEMINI_DEBUG_LOG };
  const launch = { extraArgs: [] as string[], env: {}, version: "0.61.0" };
  assertEquals(
    channelLine(channelState(gemini, launch)),
    "channel: screen only (no channel uuldana can turn on in this agent); debug log: on",
  );
  const own = channelLine(
    channelState(gemini, { ...launch, env: { GEMINI_DEBUG_LOG_FILE: "/home/me/g.log" } }),
  );
  assert(
    own.endsWith(
      "; debug log: off (GEMINI_DEBUG_LOG_FILE names your own file " +
        "(/home/me/g.log); uuldana leaves it to you)",
    ),
    own,
  );
});
