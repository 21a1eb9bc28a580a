import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { copilot } from "../copilot.ts";
import {
  COPILOT_CHANNEL,
  COPILOT_CHANNEL_EVENTS,
  COPILOT_PLUGIN_DIR,
  copilotModelError,
} from "./copilot.ts";
import { OPENAI_QUOTA, parseRecorded, recorded, relayFor } from "./_recorded_test_util.ts";

const NOW = { now: new Date("2026-12-01T22:27:00Z"), timeZone: "UTC" };

Deno.test("real Copilot 1.0.102's plugin hooks: prompts, the quota at its first failed call, no 5xx limit", () => {
  const events = parseRecorded(COPILOT_CHANNEL, recorded("copilot-1.0.102/session"), NOW);
  const quota = {
    type: "limit",
    kind: "usage",
    message: OPENAI_QUOTA,
    resetsAt: null,
    code: "insufficient_quota",
  };
  assertEquals(events, [
    { type: "session", phase: "start", detail: "new" },
    { type: "prompt", text: "Add a --dry-run flag to deploy.sh" },
    { type: "busy" },
    { type: "idle" },
    { type: "prompt", text: "and a test for it" },
    { type: "busy" },
    // One per failed call: the first came 1.2 s after the provider's first 429.
    ...Array(6).fill(quota),
    // The 500s it retried: nothing.
    { type: "prompt", text: "a turn with a server error" },
    { type: "busy" },
    // Esc fired no hook.
    { type: "prompt", text: "slow turn to interrupt" },
    { type: "busy" },
    { type: "session", phase: "end", detail: "user_exit" },
  ]);
});

Deno.test("a failed model call: quota words are a usage limit, a 429 a rate limit, the rest no limit", () => {
  const body = (o: unknown) => ({ message: JSON.stringify(o) });
  const rate = copilotModelError(
    body({ message: "Rate limit reached", code: "rate_limit_exceeded" }),
    true,
    NOW,
  );
  assertEquals([
    rate?.type,
    rate?.type === "limit" && rate.kind,
    rate?.type === "limit" && rate.final,
  ], [
    "limit",
    "rate",
    undefined,
  ]);
  // OpenAI's rate-limit text names billing; its code says what it is.
  const openai = copilotModelError(
    body({
      message:
        "Rate limit reached for gpt-4o on requests per min (RPM): Limit 3. Please try again " +
        "in 20s. You can increase your rate limit by adding a payment method at …/account/billing.",
      type: "requests",
      code: "rate_limit_exceeded",
    }),
    true,
    NOW,
  );
  assertEquals(openai?.type === "limit" && openai.kind, "rate");
  const gaveUp = copilotModelError({ message: "429 Too Many Requests" }, false, NOW);
  assertEquals(gaveUp?.type === "limit" && gaveUp.final, true);
  assertEquals(
    copilotModelError(
      body({ message: "The server had an error", type: "server_error" }),
      true,
      NOW,
    ),
    null,
  );
  assertEquals(copilotModelError({ message: "socket hang up" }, false, NOW), {
    type: "error",
    message: "socket hang up",
  });
});

Deno.test("Copilot's launch loads uuldana's plugin with --plugin-dir; the hooks carry no text", () => {
  const { relay, scratch } = relayFor();
  const launch = copilot.launch({
    bin: "/bin/copilot",
    road: "prompt",
    handoff: "the handoff",
    extraArgs: ["--model", "x"],
    workspace: "/ws",
    scratchDir: scratch,
    channel: relay,
  });
  const dir = join(scratch, COPILOT_PLUGIN_DIR);
  assertEquals(launch.argv.slice(0, 3), ["/bin/copilot", "--plugin-dir", dir]);
  assert(launch.argv.includes("--model"), "the user's arguments stay");
  const files = Object.fromEntries(launch.files!.map((f) => [f.path, JSON.parse(f.content)]));
  assertEquals(files[join(dir, "plugin.json")].hooks, "hooks.json");
  const hooks = files[join(dir, "hooks.json")].hooks;
  assertEquals(Object.keys(hooks), [...COPILOT_CHANNEL_EVENTS]);
  for (const [event, list] of Object.entries(hooks)) {
    assertEquals(list, [{ type: "command", bash: relay.command(event), timeoutSec: 5 }]);
  }
  assert(!JSON.stringify(files).includes("the handoff"));
});

Deno.test("real Copilot 1.0.102's postToolUse: a tool event each, its exit code read from the result", () => {
  const parser = COPILOT_CHANNEL.parser();
  const events = recorded("copilot-1.0.102-tools").flatMap((r) => parser.parse(r, NOW));
  assertEquals(events, [
    {
      type: "tool",
      tool: "bash",
      kind: "ran",
      target: "sh check.sh 1 2",
      outcome: "ok",
      exitCode: 0,
    },
    {
      type: "tool",
      tool: "bash",
      kind: "ran",
      target: "sh check.sh 1 10",
      outcome: "failed",
      exitCode: 1,
    },
  ]);
  // toolArgs as a JSON string reads the same; a denied call is a failure.
  assertEquals(
    parser.parse({
      name: "postToolUse",
      data: {
        toolName: "edit",
        toolArgs: '{"path":"/ws/a.ts"}',
        toolResult: { resultType: "denied", textResultForLlm: "" },
      },
    }, NOW),
    [{ type: "tool", tool: "edit", kind: "edited", target: "/ws/a.ts", outcome: "failed" }],
  );
});
