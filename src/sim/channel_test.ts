import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simChannel } from "./channel.ts";
import { qwenChannelLaunch } from "../../adapters/channels/qwen.ts";
import { copilotChannelLaunch } from "../../adapters/channels/copilot.ts";
import { codexChannelArgs } from "../../adapters/channels/codex.ts";
import { openCodeChannelLaunch } from "../../adapters/channels/opencode.ts";
import { relayAt, relayScript } from "../../adapters/channels/relay.ts";
import { opencode } from "../../adapters/opencode.ts";
import { qwen } from "../../adapters/qwen.ts";
import { copilot } from "../../adapters/copilot.ts";
import { codex } from "../../adapters/codex.ts";
import type { ChannelEvent } from "../../adapters/channel.ts";
import { inChildWithEnv } from "../../tests/_in_child.ts";

const QUOTA = {
  status: 429,
  message: "You exceeded your current quota, please check your plan and billing details.",
  type: "insufficient_quota",
  code: "insufficient_quota",
};
const NOW = { now: new Date("2026-12-01T23:00:00Z"), timeZone: "UTC" };

// A world with uuldana's real relay: its channel folder, and the launch files written.
function world() {
  const root = Deno.makeTempDirSync();
  const dir = join(root, "channel");
  mkdirSync(dir, { mode: 0o700 });
  const script = join(root, "relay-v1.sh");
  writeFileSync(script, relayScript(), { mode: 0o700 });
  const relay = relayAt(script, dir);
  const write = (files: { path: string; content: string }[]) => {
    for (const f of files) {
      mkdirSync(join(f.path, ".."), { recursive: true });
      writeFileSync(f.path, f.content);
    }
  };
  // The records the relay published, in order, once `n` are there.
  const records = async (n: number) => {
    const index = join(dir, "events");
    for (let i = 0; i < 100; i++) {
      const lines = existsSync(index) ? readFileSync(index, "utf8").trim().split("\n") : [];
      if (lines.length >= n && lines[0]) {
        return lines.map((l) => {
          const [name, file] = l.split(" ");
          return { name, data: JSON.parse(readFileSync(join(dir, file), "utf8")) };
        });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`fewer than ${n} records`);
  };
  return { root, relay, write, records, close: () => Deno.removeSync(root, { recursive: true }) };
}

// Hooks run as separate processes: their records may land in any order; each is checked as a set.
const names = (r: { name: string }[]) => r.map((x) => x.name).sort();

Deno.test("simulated Qwen runs the hooks of its system-defaults file, with Qwen's payloads", async () => {
  const w = world();
  try {
    const { env, files } = qwenChannelLaunch(w.relay, w.root);
    w.write(files);
    const ch = (await simChannel("qwen", [], (k) => env[k]))!;
    ch.submitted("add a flag", 1);
    const first = await w.records(1);
    ch.failed(QUOTA, `Quota exhausted: ${QUOTA.message}`, "billing_error");
    const all = await w.records(3);
    assertEquals(names(all), ["Notification", "StopFailure", "UserPromptSubmit"]);
    const parser = qwen.channel!.parser();
    const events: ChannelEvent[] = [first[0], all.find((r) => r.name === "StopFailure")!]
      .flatMap((r) => parser.parse(r, NOW));
    assertEquals(events.map((e) => e.type), ["prompt", "busy", "limit", "idle"]);
    const limit = events[2];
    assertEquals(limit.type === "limit" && [limit.kind, limit.status, limit.code], [
      "usage",
      429,
      "insufficient_quota",
    ]);
  } finally {
    w.close();
  }
});

Deno.test("simulated OpenCode loads uuldana's plugin from its inline configuration and calls it", async () => {
  const w = world();
  try {
    const { env, files } = openCodeChannelLaunch(
      w.relay,
      w.root,
      "OPENCODE_CONFIG_CONTENT",
      JSON.stringify({ model: "x/y" }),
    );
    w.write(files);
    // In a child, as the simulated agent runs: the plugin reads its folder from the agent's
    // environment when it loads.
    const channel = new URL("./channel.ts", import.meta.url).href;
    const loaded = await inChildWithEnv<boolean>(
      `
      const { simChannel } = await import(${JSON.stringify(channel)});
      const env = ${JSON.stringify(env)};
      const ch = await simChannel("opencode", [], (k) => env[k]);
      ch?.submitted("add a flag", 1);
      ch?.retrying(1, ${JSON.stringify(QUOTA)}, 2000);
      console.log(JSON.stringify(!!ch));`,
      env,
    );
    assert(loaded, "the plugin loaded");
    const recs = await w.records(3);
    const events = recs.flatMap((r) => opencode.channel!.parser().parse(r, NOW));
    assert(events.some((e) => e.type === "prompt" && e.text === "add a flag"));
    const limit = events.find((e) => e.type === "limit");
    assertEquals(limit?.type === "limit" && [limit.kind, limit.attempt], ["usage", 1]);
  } finally {
    w.close();
  }
});

Deno.test("simulated Copilot runs its --plugin-dir hooks; errorOccurred carries the provider body", async () => {
  const w = world();
  try {
    const { args, files } = copilotChannelLaunch(w.relay, w.root);
    w.write(files);
    const ch = (await simChannel("copilot", args, () => undefined))!;
    ch.submitted("add a flag", 1);
    ch.retrying(1, QUOTA, 2000);
    const recs = await w.records(3);
    assertEquals(names(recs), ["errorOccurred", "sessionStart", "userPromptSubmitted"]);
    const parser = copilot.channel!.parser();
    const limit = parser.parse(recs.find((r) => r.name === "errorOccurred")!, NOW)[0];
    assertEquals(limit.type === "limit" && [limit.kind, limit.code], [
      "usage",
      "insufficient_quota",
    ]);
  } finally {
    w.close();
  }
});

Deno.test("simulated Codex runs -c hooks only when -c hooks.state trusts their hash", async () => {
  const w = world();
  try {
    const args = codexChannelArgs(w.relay);
    const ch = (await simChannel("codex", args, () => undefined))!;
    ch.submitted("add a flag", 1);
    ch.replied("done", 1);
    const recs = await w.records(2);
    assertEquals(names(recs), ["Stop", "UserPromptSubmit"]);
    const events = recs.flatMap((r) => codex.channel!.parser().parse(r, NOW));
    assert(events.some((e) => e.type === "reply" && e.text === "done"));
    // Without the trust state the same hooks do not run.
    const untrusted = (await simChannel("codex", args.slice(0, -2), () => undefined))!;
    untrusted.submitted("again", 2);
    await new Promise((r) => setTimeout(r, 500));
    assertEquals((await w.records(2)).length, 2);
  } finally {
    w.close();
  }
});

Deno.test("no channel when the launch turns none on", async () => {
  for (const persona of ["qwen", "opencode", "copilot", "codex", "claude", "gemini"] as const) {
    assertEquals(await simChannel(persona, [], () => undefined), null, persona);
  }
});
