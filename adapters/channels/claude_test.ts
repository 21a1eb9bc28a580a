import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHANNELS_DIR } from "../../tests/_paths.ts";
import type { ChannelEvent, ChannelRecord } from "../channel.ts";
import { CLAUDE_CHANNEL, CLAUDE_CHANNEL_EVENTS, claudeFailure } from "./claude.ts";

// The hook records real Claude sent, in the order it fired them (testdata/channels/README.md).
function recorded(version: string): ChannelRecord[] {
  const dir = join(CHANNELS_DIR, `claude-${version}`);
  return readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => ({
    name: f.replace(/^\d+-|\.json$/g, ""),
    data: JSON.parse(readFileSync(join(dir, f), "utf8")),
  }));
}

const NOW = { now: new Date("2026-12-01T21:47:00Z"), timeZone: "UTC" };
const answer = (n: number) =>
  Array.from({ length: 30 }, (_, i) => `Answer ${n}, line ${i + 1}: mock reply text.`).join("\n");

// The events, with each one's turn id checked against the record's `prompt_id`, then left out.
function parseAll(records: ChannelRecord[]): ChannelEvent[] {
  const parser = CLAUDE_CHANNEL.parser();
  return records.flatMap((r) =>
    parser.parse(r, NOW).map((e) => {
      if (!("turn" in e)) return e;
      assertEquals(e.turn, (r.data as { prompt_id: string }).prompt_id);
      const { turn: _, ...rest } = e;
      return rest as ChannelEvent;
    })
  );
}

// 2.1.332 quit at the second Ctrl-C while waiting for its reset; 2.1.197 from its limit menu.
for (
  const [version, limit, reset, end] of [
    [
      "2.1.332",
      "You've hit your 5-hour limit · resets 12:47am (UTC)",
      "2026-12-02T00:47:00.000Z",
      "prompt_input_exit",
    ],
    [
      "2.1.197",
      "You've hit your session limit · resets 12:51am (UTC)",
      "2026-12-02T00:51:00.000Z",
      "other",
    ],
  ]
) {
  Deno.test(`real Claude ${version}'s hooks become uuldana's events: exact prompts, whole replies, its limit`, () => {
    const records = recorded(version);
    // Real Claude fired every hook uuldana adds, in that order (the tool hooks, added later, are
    // recorded on their own: claude-2.1.332-tools).
    assertEquals(
      records.map((r) => r.name).filter((n, i, a) => a.indexOf(n) === i),
      CLAUDE_CHANNEL_EVENTS.filter((e) => !e.startsWith("PostToolUse")),
    );
    assertEquals(parseAll(records), [
      { type: "session", phase: "start", detail: "startup" },
      { type: "prompt", text: "Read the notes" },
      { type: "busy" },
      // The turn's first message (before its tool call) is in MessageDisplay only: Stop has the last.
      { type: "reply", text: `Let me look at the file first.\n\n${answer(1)}` },
      { type: "idle" },
      { type: "prompt", text: "first line\nsecond  line with  spaces" },
      { type: "busy" },
      // Its first part came after Stop (Claude does not wait for MessageDisplay hooks): dropped,
      // and the reply is whole all the same.
      { type: "reply", text: answer(2) },
      { type: "idle" },
      { type: "prompt", text: "A3 add a --dry-run flag to deploy.sh" },
      { type: "busy" },
      { type: "limit", kind: "usage", message: limit, resetsAt: reset, code: "rate_limit" },
      { type: "idle" },
      { type: "session", phase: "end", detail: end },
    ]);
  });
}

Deno.test("a late part of a turn never leaks into the next one", () => {
  const parser = CLAUDE_CHANNEL.parser();
  const md = (turn: string, id: string, index: number, delta: string) => ({
    name: "MessageDisplay",
    data: { prompt_id: turn, message_id: id, index, delta, final: false },
  });
  const parse = (r: ChannelRecord) => parser.parse(r, NOW);
  parse(md("t1", "m1", 1, "world"));
  parse(md("t1", "m1", 0, "hello "));
  assertEquals(parse({ name: "Stop", data: { prompt_id: "t1", last_assistant_message: null } }), [
    { type: "reply", text: "hello world", turn: "t1" },
    { type: "idle", turn: "t1" },
  ]);
  parse(md("t1", "m1", 2, " (late)"));
  parse(md("t2", "m2", 0, "second turn"));
  assertEquals(
    parse({ name: "Stop", data: { prompt_id: "t2", last_assistant_message: "second turn" } }),
    [{ type: "reply", text: "second turn", turn: "t2" }, { type: "idle", turn: "t2" }],
  );
  // A turn that displayed nothing and has no text: no reply, only the turn's end.
  assertEquals(parse({ name: "Stop", data: { prompt_id: "t3" } }), [{ type: "idle", turn: "t3" }]);
});

Deno.test("a pasted prompt (Claude 2.1.332's wrapper) is the text as the user gave it", () => {
  const parser = CLAUDE_CHANNEL.parser();
  const log = Array.from({ length: 40 }, (_, i) => `log line ${i + 1}`).join("\n");
  const prompt = (p: string) =>
    parser.parse({ name: "UserPromptSubmit", data: { prompt_id: "t", prompt: p } }, NOW)[0];
  assertEquals(
    prompt(`see this log: \n\n<pasted_content id="f5a8">\n${log}\n</pasted_content id="f5a8">\n`),
    { type: "prompt", text: `see this log: ${log}`, turn: "t" },
  );
  // A long text typed fast is taken for a paste too; two pastes in one prompt.
  assertEquals(
    prompt(
      '\n\n<pasted_content id="0b1">\nword0000 word0001\n</pasted_content id="0b1">\n and ' +
        '\n\n<pasted_content id="c2">\nx\ny\n</pasted_content id="c2">\n',
    ),
    { type: "prompt", text: "word0000 word0001 and x\ny", turn: "t" },
  );
  // Not Claude's wrapper (ids that differ, not hex): the text as it came.
  for (
    const p of [
      '\n\n<pasted_content id="a1">\nx\n</pasted_content id="b2">\n',
      '\n\n<pasted_content id="zz">\nx\n</pasted_content id="zz">\n',
      'say <pasted_content id="a1">x</pasted_content id="a1">',
    ]
  ) assertEquals(prompt(p), { type: "prompt", text: p, turn: "t" });
});

Deno.test("a turn interrupted by Esc (no Stop) gets what it displayed, once a later turn ends", () => {
  const parser = CLAUDE_CHANNEL.parser();
  const parse = (name: string, data: Record<string, unknown>) => parser.parse({ name, data }, NOW);
  parse("UserPromptSubmit", { prompt_id: "t1", prompt: "start a long refactor" });
  parse("MessageDisplay", { prompt_id: "t1", message_id: "m1", index: 0, delta: "Answer 13, " });
  parse("MessageDisplay", { prompt_id: "t1", message_id: "m1", index: 1, delta: "line 1\n" });
  // Esc: nothing more of t1. The next turn runs and ends.
  parse("UserPromptSubmit", { prompt_id: "t2", prompt: "go on" });
  assertEquals(parse("Stop", { prompt_id: "t2", last_assistant_message: "Answer 14" }), [
    { type: "reply", text: "Answer 13, line 1", turn: "t1" },
    { type: "reply", text: "Answer 14", turn: "t2" },
    { type: "idle", turn: "t2" },
  ]);
  // A message queued behind a running turn: the running one's Stop comes first, as its own.
  parse("UserPromptSubmit", { prompt_id: "t3", prompt: "long one" });
  parse("UserPromptSubmit", { prompt_id: "t4", prompt: "queued" });
  parse("MessageDisplay", { prompt_id: "t3", message_id: "m3", index: 0, delta: "Answer 15" });
  assertEquals(parse("Stop", { prompt_id: "t3", last_assistant_message: "Answer 15" }), [
    { type: "reply", text: "Answer 15", turn: "t3" },
    { type: "idle", turn: "t3" },
  ]);
  assertEquals(parse("Stop", { prompt_id: "t4", last_assistant_message: "Answer 16" }), [
    { type: "reply", text: "Answer 16", turn: "t4" },
    { type: "idle", turn: "t4" },
  ]);
});

Deno.test("a turn's kept text is bounded", () => {
  const parser = CLAUDE_CHANNEL.parser();
  for (let i = 0; i < 400; i++) {
    parser.parse({
      name: "MessageDisplay",
      data: { prompt_id: "t", message_id: `m${i}`, index: 0, delta: "x".repeat(4096) },
    }, NOW);
  }
  const [reply] = parser.parse({ name: "Stop", data: { prompt_id: "t" } }, NOW);
  assert(reply.type === "reply" && reply.text.length <= 300 * 1024, "bounded");
});

Deno.test("StopFailure: a limit only where Claude says so and its text is not a server throttle", () => {
  assertEquals(claudeFailure("overloaded", "API Error: Overloaded", NOW), {
    type: "error",
    message: "API Error: Overloaded",
    code: "overloaded",
  });
  assertEquals(
    claudeFailure(
      "rate_limit",
      "API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited",
      NOW,
    ).type,
    "error",
  );
  // A text this uuldana does not know: a reset time makes it a usage limit…
  assertEquals(
    claudeFailure("rate_limit", "Your plan's allowance is used up · resets 3am (UTC)", NOW),
    {
      type: "limit",
      kind: "usage",
      message: "Your plan's allowance is used up · resets 3am (UTC)",
      resetsAt: "2026-12-02T03:00:00.000Z",
      code: "rate_limit",
    },
  );
  // …without one, Claude gave up retrying a rate limit.
  assertEquals(claudeFailure("rate_limit", "Too many requests", NOW), {
    type: "limit",
    kind: "rate",
    message: "Too many requests",
    resetsAt: null,
    final: true,
    code: "rate_limit",
  });
  assertEquals(claudeFailure("billing_error", "Credit balance is too low", NOW).type, "limit");
  // Real Claude 2.1.332 given the API's 400 "This organization has been disabled." (the error
  // matrix): its StopFailure says `unknown`, the text is a hard limit of its row.
  assertEquals(
    claudeFailure("unknown", "API Error: 400 This organization has been disabled.", NOW),
    {
      type: "limit",
      kind: "usage",
      message: "API Error: 400 This organization has been disabled.",
      resetsAt: null,
      code: "unknown",
    },
  );
  assertEquals(claudeFailure("server_error", "", NOW), {
    type: "error",
    message: "server_error",
    code: "server_error",
  });
});

Deno.test("the channel is off where Claude runs no hooks", () => {
  const check = (extraArgs: string[]) =>
    CLAUDE_CHANNEL.offReason({ extraArgs, env: {}, version: null });
  assertEquals(check(["--model", "opus"]), null);
  assertEquals(check(["--bare"]), "--bare turns Claude's hooks off");
  assertEquals(check(["--safe-mode"]), "--safe-mode turns Claude's hooks off");
  assertEquals(CLAUDE_CHANNEL.events, CLAUDE_CHANNEL_EVENTS);
});

// The launch: the channel's hooks ride in the one inline --settings uuldana passes.
const relay = {
  dir: "/data/scratch/p1/channel",
  command: (e: string) => `/bin/sh '/data/relay-v1.sh' '/data/scratch/p1/channel' ${e}`,
};
const base = {
  bin: "/usr/bin/claude",
  handoff: null,
  extraArgs: ["--model", "opus"],
  workspace: "/w",
  scratchDir: "/data/scratch/p1",
};

function settingsOf(
  argv: string[],
): { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> } {
  const at = argv.indexOf("--settings");
  assert(at > 0 && argv.indexOf("--settings", at + 1) < 0, "one --settings");
  return JSON.parse(argv[at + 1]);
}

Deno.test("every road carries the channel's hooks, and only uuldana's relay runs them", async () => {
  const { claude } = await import("../claude.ts");
  for (const road of ["hook", "prompt", "paste"] as const) {
    for (const handoff of [null, "the framed handoff"]) {
      const launch = claude.launch({ ...base, road, handoff, channel: relay });
      const { hooks } = settingsOf(launch.argv);
      assertEquals(Object.keys(hooks).sort(), [...CLAUDE_CHANNEL_EVENTS].sort());
      for (const event of CLAUDE_CHANNEL_EVENTS) {
        const commands = hooks[event].flatMap((g) => g.hooks.map((h) => h.command));
        assert(commands.includes(relay.command(event)), `${road}: ${event}`);
      }
      // The handoff never rides in a hook's command line.
      assert(
        !launch.argv.slice(0, -1).some((a) => a.includes("the framed handoff")) ||
          road === "prompt",
      );
      if (road === "hook" && handoff) {
        // The road's own SessionStart (cat the handoff's hook file) stays, beside the relay's.
        assertEquals(hooks.SessionStart.map((g) => g.matcher ?? null), ["startup", null]);
        assert(hooks.SessionStart[0].hooks[0].command.startsWith("cat '/data/scratch/p1/"));
      }
    }
  }
});

Deno.test("no relay, --bare, or the user's own --settings: uuldana adds no channel", async () => {
  const { claude } = await import("../claude.ts");
  assertEquals(claude.launch({ ...base, road: "hook" }).argv, [
    "/usr/bin/claude",
    "--model",
    "opus",
  ]);
  for (const extraArgs of [["--bare"], ["--settings", "/home/me/s.json"], ["--settings={}"]]) {
    const launch = claude.launch({ ...base, road: "paste", extraArgs, channel: relay });
    assertEquals(launch.argv, ["/usr/bin/claude", ...extraArgs]);
  }
  // The hook road still needs its own SessionStart, channel or not.
  const hook = claude.launch({
    ...base,
    road: "hook",
    handoff: "h",
    extraArgs: ["--bare"],
    channel: relay,
  });
  assertEquals(Object.keys(settingsOf(hook.argv).hooks), ["SessionStart"]);
});

Deno.test("2.1.332's PostToolUse and PostToolUseFailure, as recorded: a tool event each, with how it ended", () => {
  const parser = CLAUDE_CHANNEL.parser();
  const events = recorded("2.1.332-tools").flatMap((r) => parser.parse(r, NOW));
  assertEquals(events, [
    {
      type: "tool",
      tool: "Bash",
      kind: "ran",
      target: "sh show-notes.sh",
      outcome: "ok",
      turn: "5728913d-2299-413d-ae7f-506ec0f6ea64",
    },
    {
      type: "tool",
      tool: "Bash",
      kind: "ran",
      target: "sh show-notes.sh",
      outcome: "failed",
      exitCode: 3,
      turn: "99a783fb-7361-43d0-b5dc-8bd439015de7",
    },
  ]);
  // A record without a tool name is no event.
  assertEquals(parser.parse({ name: "PostToolUse", data: { tool_input: {} } }, NOW), []);
});
