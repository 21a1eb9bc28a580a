import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import { codex } from "../codex.ts";
import { relayAt } from "./relay.ts";
import { CODEX_CHANNEL, CODEX_CHANNEL_HOOKS, codexChannelArgs, codexHookHash } from "./codex.ts";
import { parseRecorded, recorded } from "./_recorded_test_util.ts";

const hooksList = (file: string) =>
  JSON.parse(readFileSync(join(CHANNELS_DIR, "codex-0.171.0", file), "utf8")).hooks as {
    key: string;
    command: string;
    timeoutSec: number;
    currentHash: string;
    trustStatus: string;
  }[];

Deno.test("the trust hash is Codex 0.171.0's own, for every hook its hooks/list reported", () => {
  const listed = hooksList("hooks-list.json");
  assertEquals(listed.length, 5);
  for (const h of listed) {
    const event = h.key.split(":").at(-3)!;
    assertEquals(codexHookHash(event, h.command, h.timeoutSec), h.currentHash, h.key);
  }
});

Deno.test("uuldana's -c arguments: Codex 0.171.0 listed each of our hooks as trusted", () => {
  // hooks-list-uuldana.json is Codex's answer to exactly these arguments.
  const relay = relayAt("/data/relay-v1.sh", "/data/scratch/p1-1-codex/channel");
  const args = codexChannelArgs(relay);
  const listed = hooksList("hooks-list-uuldana.json");
  assertEquals(listed.map((h) => h.trustStatus), Array(5).fill("trusted"));
  for (const [event, key] of CODEX_CHANNEL_HOOKS) {
    const h = listed.find((l) => l.key === `/<session-flags>/config.toml:${key}:0:0`)!;
    assertEquals(h.command, relay.command(event));
    assert(args.at(-1)!.includes(h.currentHash), key);
  }
  assert(!args.some((a) => a.includes("bypass")), "never the bypass flag");
});

Deno.test("real Codex 0.171.0's hooks: prompts, replies, an interrupt; nothing at a limit or a 5xx", () => {
  assertEquals(
    parseRecorded(CODEX_CHANNEL, recorded("codex-0.171.0/session"), { now: new Date() }),
    [
      { type: "session", phase: "start", detail: "startup" },
      { type: "prompt", text: "Add a --dry-run flag to deploy.sh" },
      { type: "busy" },
      { type: "reply", text: "MOCKREPLY-1: noted." },
      { type: "idle" },
      // The usage limit and the 500s: the turn ends with no hook (the screen and OSC 7501 say it).
      { type: "prompt", text: "and a test for it" },
      { type: "busy" },
      { type: "prompt", text: "a turn with a server error" },
      { type: "busy" },
      { type: "prompt", text: "a slow turn I will interrupt" },
      { type: "busy" },
      { type: "idle" },
      { type: "session", phase: "end", detail: "other" },
    ],
  );
});

Deno.test("Codex's launch carries the hooks before --no-daemon and the prompt; off where unsafe", () => {
  const relay = relayAt("/data/relay-v1.sh", "/data/scratch/p1-1-codex/channel");
  const launch = codex.launch({
    bin: "/bin/codex",
    road: "prompt",
    handoff: "the handoff",
    extraArgs: [],
    workspace: "/ws",
    scratchDir: "/data/scratch/p1-1-codex",
    channel: relay,
  });
  assertEquals(launch.argv.slice(0, 3), ["/bin/codex", "-c", codexChannelArgs(relay)[1]]);
  assertEquals(launch.argv.slice(-3), ["--no-daemon", "--", "the handoff"]);
  assert(!launch.argv.slice(1, -1).some((a) => a.includes("the handoff")));
  const off = (version: string | null, extraArgs: string[] = []) =>
    CODEX_CHANNEL.offReason({ extraArgs, env: {}, version });
  assertEquals(off("0.171.0"), null);
  assertEquals(off("codex-cli 0.170.2"), null);
  assert(off("0.172.0")?.includes("newer"));
  assert(off(null)?.includes("unknown"));
  assert(off("0.171.0", ["-c", "hooks.Stop=[]"])?.includes("hooks.Stop"));
  assertEquals(off("0.171.0", ["-c", "model=o3"]), null);
});
