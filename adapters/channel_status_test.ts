import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CLAUDE_CHANNEL } from "./channels/claude.ts";
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
