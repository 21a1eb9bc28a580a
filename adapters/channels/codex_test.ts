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
  assertEquals(listed.map((h) => h.trustStatus), Array(CODEX_CHANNEL_HOOKS.length).fill("trusted"));
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

Deno.test("real Codex 0.171.0's PostToolUse: apply_patch creates a file, Bash runs a command", () => {
  // Recorded from `codex exec` against tool_mock.ts (testdata/README.md): the shell command that
  // exited 1 reports only its output, so no exit code is claimed for it.
  assertEquals(
    parseRecorded(CODEX_CHANNEL, recorded("codex-0.171.0-tools"), { now: new Date() }),
    [
      {
        type: "tool",
        tool: "apply_patch",
        kind: "created",
        target: "work/t1-1.txt",
        outcome: "ok",
        exitCode: 0,
      },
      { type: "tool", tool: "Bash", kind: "ran", target: "sh check.sh 1 2", outcome: "ok" },
      { type: "tool", tool: "Bash", kind: "ran", target: "sh check.sh 1 10", outcome: "ok" },
    ],
  );
  // A command that prints Codex's header is not taken at its word; a patch that failed is.
  const parse = (data: unknown) =>
    CODEX_CHANNEL.parser().parse({ name: "PostToolUse", data }, { now: new Date() });
  assertEquals(
    parse({ tool_name: "Bash", tool_input: { command: "x" }, tool_response: "Exit code: 0\n" }),
    [
      { type: "tool", tool: "Bash", kind: "ran", target: "x", outcome: "ok" },
    ],
  );
  assertEquals(
    parse({
      tool_name: "apply_patch",
      tool_input: {
        command: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+b\n*** End Patch\n",
      },
      tool_response:
        "Exit code: 1\nWall time: 0 seconds\nOutput:\napply_patch verification failed\n",
    }).map((e) => e.type === "tool" && e.outcome),
    ["failed"],
  );
  assertEquals(parse({ tool_input: {} }), []);
  assertEquals(parse("not an object"), []);
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
