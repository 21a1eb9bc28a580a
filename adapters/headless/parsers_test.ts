/**
 * Parser tests, against the real recordings in `testdata/corpus/headless/` (testdata/README.md):
 * Claude 2.1.197 and Codex 0.171.0, and Gemini CLI 0.61.0, OpenCode 1.18.33, Qwen Code 0.24.4 and
 * Copilot CLI 1.0.102 each answering, at its provider's usage limit and (where the mock has one)
 * retrying a passing rate limit. Shapes those runs cannot reach (tool calls of Gemini, Qwen and
 * Copilot, the providers' own texts that name a reset) are tested in the shapes their
 * documentation gives, said so in each test's name.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type HeadlessEvent, type HeadlessParser, launchFits, MAX_ARG_BYTES } from "./event.ts";
import { headlessAdapter } from "./registry.ts";
import { obj, parseJsonLine } from "./json_line.ts";
import { geminiStreamParser } from "./gemini.ts";
import { retryAfter } from "./opencode.ts";
import { codexCommand } from "./codex.ts";
import { PENDING_CALLS_MAX } from "./claude_stream.ts";
import { describeAction } from "../channels/tool_action.ts";
import { HEADLESS_CORPUS_DIR } from "../../tests/_paths.ts";

const CORPUS = HEADLESS_CORPUS_DIR;
const haveCorpus = existsSync(CORPUS);

function parseAll(parser: HeadlessParser, text: string): HeadlessEvent[] {
  const out: HeadlessEvent[] = [];
  for (const line of text.split("\n")) out.push(...parser.parse(line));
  out.push(...parser.finish());
  return out;
}

function corpus(name: string): string {
  return readFileSync(join(CORPUS, name), "utf8");
}

Deno.test({
  name: "claude: recorded success gives the reply as a message and the result text",
  ignore: !haveCorpus,
  fn() {
    const events = parseAll(headlessAdapter("claude")!.newParser(), corpus("claude-ok.jsonl"));
    assertEquals(events, [
      { kind: "message", role: "agent", text: "MOCK REPLY" },
      { kind: "result", text: "MOCK REPLY", isError: false },
    ]);
  },
});

Deno.test({
  name: "claude: recorded usage limit gives limit events with the epoch reset, no message",
  ignore: !haveCorpus,
  fn() {
    const events = parseAll(headlessAdapter("claude")!.newParser(), corpus("claude-limit.jsonl"));
    assert(!events.some((e) => e.kind === "message"), "the synthetic notice is not conversation");
    const limits = events.filter((e) => e.kind === "limit");
    assertEquals(limits[0], {
      kind: "limit",
      message: "claude usage limit reached (five_hour)",
      resetsAt: new Date(1796009366 * 1000).toISOString(),
      synthetic: true,
    });
    assert(
      limits.some((l) =>
        l.kind === "limit" && l.message.startsWith("You've hit your session limit")
      ),
    );
    const result = events.at(-1);
    assertEquals(result?.kind, "result");
    assert(result?.kind === "result" && result.isError);
  },
});

Deno.test({
  name: "codex: recorded limit; the model-metadata error item is an error, not a limit",
  ignore: !haveCorpus,
  fn() {
    const events = parseAll(headlessAdapter("codex")!.newParser(), corpus("codex-limit.jsonl"));
    assertEquals(events.map((e) => e.kind), ["error", "limit", "limit"]);
    const first = events[0];
    assert(first.kind === "error" && first.message.startsWith("Model metadata"));
    const limit = events[1];
    assert(limit.kind === "limit" && limit.message.startsWith("You’ve hit your usage limit."));
    assert(limit.kind === "limit" && limit.resetsAt !== null, "try again at 3:29 AM resolves");
  },
});

Deno.test("codex: agent messages and tool items (documented shapes)", () => {
  const p = headlessAdapter("codex")!.newParser();
  const lines = [
    '{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","status":"in_progress"}}',
    '{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a\\n","exit_code":0,"status":"completed"}}',
    '{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"Done."}}',
    '{"type":"turn.completed","usage":{"input_tokens":1}}',
    '{"type":"some.future.event"}',
  ];
  assertEquals(parseAll(p, lines.join("\n")), [
    { kind: "tool", summary: "shell ls (exit 0)" },
    {
      kind: "action",
      action: { tool: "shell", kind: "ran", target: "ls", outcome: "ok", exitCode: 0 },
    },
    { kind: "message", role: "agent", text: "Done." },
  ]);
});

Deno.test("codex: real 0.171.0 exec --json tool items become what was done, in order", () => {
  // codex-tools.jsonl: `codex exec --json` against tools/real-agents/tool_mock.ts (10 calls).
  const events = parseAll(
    headlessAdapter("codex")!.newParser(),
    readFileSync(join(HEADLESS_CORPUS_DIR, "codex-tools.jsonl"), "utf8"),
  );
  const done = events.flatMap((e) => e.kind === "action" ? [describeAction(e.action)] : []);
  assertEquals(done.length, 10);
  assertEquals(done.slice(0, 2), [
    "created /tmp/rec/ws/work/t1-1.txt",
    "ran `sh check.sh 1 2` → exit 0",
  ]);
  assertEquals(done.at(-1), "ran `sh check.sh 1 10` → exit 1");
  assertEquals(events.filter((e) => e.kind === "tool").length, 10);
});

Deno.test("codexCommand: the shell Codex wraps a command in is taken off, quotes restored", () => {
  assertEquals(codexCommand("/bin/bash -lc 'sh check.sh 1 2'"), "sh check.sh 1 2");
  assertEquals(codexCommand("/bin/bash -lc 'echo '\\''hi'\\'''"), "echo 'hi'");
  assertEquals(codexCommand("/bin/bash -lc 'a' 'b'"), "/bin/bash -lc 'a' 'b'");
  assertEquals(codexCommand("ls -la"), "ls -la");
});

Deno.test("claude stream: a tool result completes the call it names; unknown ids are ignored", () => {
  const p = headlessAdapter("claude")!.newParser();
  const lines = [
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{"file_path":"a.txt","content":"x"}}]}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"sh check.sh"}}]}}',
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}',
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","is_error":true,"content":[{"type":"text","text":"Exit code 3\\nboom"}]}]}}',
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"again"}]}}',
    '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"forged","content":"x"}]}}',
  ];
  const done = parseAll(p, lines.join("\n")).flatMap((e) =>
    e.kind === "action" ? [describeAction(e.action)] : []
  );
  assertEquals(done, ["created a.txt", "ran `sh check.sh` → exit 3"]);
});

Deno.test("claude stream: calls never answered are remembered up to a bound", () => {
  const p = headlessAdapter("claude")!.newParser();
  for (let i = 0; i <= PENDING_CALLS_MAX; i++) {
    p.parse(JSON.stringify({
      type: "assistant",
      message: {
        content: [{ type: "tool_use", id: `t${i}`, name: "Read", input: { file_path: `f${i}` } }],
      },
    }));
  }
  const result = (id: string) =>
    p.parse(JSON.stringify({
      type: "user",
      message: { content: [{ type: "tool_result", tool_use_id: id, content: "x" }] },
    })).filter((e) => e.kind === "action").length;
  assertEquals(result("t0"), 0, "the oldest was forgotten");
  assertEquals(result(`t${PENDING_CALLS_MAX}`), 1);
});

Deno.test("every parser: a malformed line is reported and parsing goes on", () => {
  for (const name of ["claude", "codex", "gemini", "opencode", "qwen", "copilot"]) {
    const p = headlessAdapter(name)!.newParser();
    const events = [...p.parse("{not json"), ...p.parse("[1,2]"), ...p.parse(""), ...p.finish()];
    assertEquals(events.map((e) => e.kind), ["malformed", "malformed"], name);
  }
});

/** The events of a recording, each agent parsed by the parser exec gives it. */
function recorded(file: string, agent = file.split("-")[0]): HeadlessEvent[] {
  return parseAll(headlessAdapter(agent)!.newParser(), corpus(file));
}

/** The agent's messages in `events`. */
function said(events: HeadlessEvent[]): string[] {
  return events.flatMap((e) => e.kind === "message" && e.role === "agent" ? [e.text] : []);
}

/** The kinds of `events` other than messages, in order. */
function kinds(events: HeadlessEvent[]): string[] {
  return events.filter((e) => e.kind !== "message").map((e) => e.kind);
}

// The mock's answer (tools/real-agents/mock_api.ts numbers each reply it gives).
const REPLY = /^MOCKREPLY-\d+: noted\.$/;

/**
 * Each agent's recorded answers (plain, and after retrying a passing rate limit): what its parser
 * gives for the reply `reply` the mock sent.
 */
const RECORDED_ANSWERS: {
  agent: string;
  version: string;
  shows: string;
  events: (reply: string) => HeadlessEvent[];
}[] = [
  {
    agent: "gemini",
    version: "0.61.0",
    shows: "one delta is the reply, the result a success",
    events: (reply) => [
      { kind: "message", role: "user", text: "say hello" },
      { kind: "message", role: "agent", text: reply },
      { kind: "result", text: reply, isError: false },
    ],
  },
  {
    agent: "qwen",
    version: "0.24.4",
    shows: "the assistant message is the reply, the result a success",
    events: (reply) => [
      { kind: "message", role: "agent", text: reply },
      { kind: "result", text: reply, isError: false },
    ],
  },
  {
    agent: "copilot",
    version: "1.0.102",
    shows: "the assistant message is the reply, no limit",
    // Its closing `result` carries the exit code, no text: the reply was the message.
    events: (reply) => [
      { kind: "message", role: "agent", text: reply },
      { kind: "result", text: "", isError: false },
    ],
  },
];

for (const { agent, version, shows, events: expected } of RECORDED_ANSWERS) {
  for (const file of [`${agent}-ok.jsonl`, `${agent}-rate.jsonl`]) {
    Deno.test({
      name: `${agent}: real ${version} ${file}: ${shows}`,
      ignore: !haveCorpus,
      fn() {
        const events = recorded(file);
        const [reply] = said(events);
        assert(REPLY.test(reply), reply);
        assertEquals(events, expected(reply));
      },
    });
  }
}

Deno.test({
  name: "gemini: real 0.61.0 daily quota: its error result (exit 173) is a limit, no reply",
  ignore: !haveCorpus,
  fn() {
    const events = recorded("gemini-limit.jsonl");
    assertEquals(said(events), []);
    assertEquals(kinds(events), ["limit", "result"]);
    const [limit] = events.filter((e) => e.kind === "limit");
    assert(limit.kind === "limit");
    assert(limit.message.startsWith("[API Error: You have exhausted your daily quota"));
    assertEquals(limit.resetsAt, null, "the text names no reset");
    assertEquals(events.at(-1), { kind: "result", text: "", isError: true });
  },
});

for (const file of ["opencode-ok.jsonl", "opencode-rate.jsonl"]) {
  Deno.test({
    name: `opencode: real 1.18.33 ${file}: the text part is the reply, nothing else`,
    ignore: !haveCorpus,
    fn() {
      const events = recorded(file);
      assertEquals(events.length, 1);
      assert(REPLY.test(said(events)[0] ?? ""), JSON.stringify(events));
    },
  });
}

Deno.test({
  name: "opencode: real 1.18.33 quota: its one error event (after its retries) is a limit",
  ignore: !haveCorpus,
  fn() {
    const events = recorded("opencode-limit.jsonl");
    assertEquals(events, [{
      kind: "limit",
      message:
        "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
      // No reset in the text, no retry-after header among its response headers.
      resetsAt: null,
    }]);
  },
});

Deno.test({
  name: "qwen: real 0.24.4 quota naming its reset: `Quota exhausted: …` is a limit, not a reply",
  ignore: !haveCorpus,
  fn() {
    const events = recorded("qwen-limit-reset.jsonl");
    assertEquals(said(events), [], "its closing message is its report of the provider's error");
    assertEquals(kinds(events), ["limit", "limit", "result"]);
    for (const limit of events.filter((e) => e.kind === "limit")) {
      assert(limit.kind === "limit" && limit.message.startsWith("Quota exhausted: "));
      assertEquals(limit.resetsAt, "2026-12-05T19:52:49.000Z");
    }
    const result = events.at(-1);
    assert(result?.kind === "result" && result.isError);
  },
});

Deno.test({
  name:
    "qwen: real 0.24.4 quota it retries: its stderr retry line is the limit, its stdout only waits",
  ignore: !haveCorpus,
  fn() {
    // Stdout alone: retry events that name no error, so no limit, and no message.
    const alone = recorded("qwen-limit.jsonl");
    assertEquals(alone, []);
    // As exec reads it: each stderr `Retrying in …` line before the stdout event of its attempt.
    const p = headlessAdapter("qwen")!.newParser();
    const stderr = corpus("qwen-limit.stderr").split("\n");
    const events: HeadlessEvent[] = [];
    for (const line of corpus("qwen-limit.jsonl").split("\n")) {
      const parsed = parseJsonLine(line);
      const attempt = parsed.kind === "object" ? obj(parsed.value.data).attempt : undefined;
      const retryLine = stderr.find((l) => l.includes(`(attempt ${attempt}/`));
      if (typeof attempt === "number" && retryLine) events.push(...p.parseStderr!(retryLine));
      events.push(...p.parse(line));
    }
    assertEquals(said(events), []);
    const quota = {
      kind: "limit",
      message: "[API Error: 429 Free allocated quota exceeded.]",
      resetsAt: null,
      retrying: true,
    };
    assertEquals(events[0], quota, "the first retry line");
    assert(events.every((e) => JSON.stringify(e) === JSON.stringify(quota)));
  },
});

Deno.test({
  name: "copilot: real 1.0.102 quota: a limit at its first failed call, then its session error",
  ignore: !haveCorpus,
  fn() {
    const events = recorded("copilot-limit.jsonl");
    assertEquals(said(events), []);
    const limits = events.filter((e) => e.kind === "limit");
    // One failed call and its five retries, then the session's error: all the same quota.
    assertEquals(limits.length, 7);
    assertEquals(events[0], {
      kind: "limit",
      message:
        "429 You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
      resetsAt: null,
      retrying: true,
    });
    const last = limits.at(-1);
    assert(last?.kind === "limit" && last.message.startsWith("Failed to get response"));
    assert(!last.retrying, "Copilot gave up");
    assertEquals(events.at(-1), { kind: "result", text: "", isError: true });
  },
});

Deno.test("gemini: deltas are joined into one message; a quota error result is a limit (documented shapes)", () => {
  const p = headlessAdapter("gemini")!.newParser();
  const lines = [
    '{"type":"init","timestamp":"t","session_id":"s","model":"gemini-2.5-pro"}',
    '{"type":"message","timestamp":"t","role":"user","content":"say hi"}',
    '{"type":"message","timestamp":"t","role":"assistant","content":"Hel","delta":true}',
    '{"type":"message","timestamp":"t","role":"assistant","content":"lo","delta":true}',
    '{"type":"tool_use","timestamp":"t","tool_name":"read_file","tool_id":"x","parameters":{"path":"a"}}',
    '{"type":"result","timestamp":"t","status":"error","error":{"type":"FatalError","message":"Usage limit reached for all Pro models. Access resets at 3:06 AM UTC."}}',
  ];
  const events = parseAll(p, lines.join("\n"));
  assertEquals(events.slice(0, 3), [
    { kind: "message", role: "user", text: "say hi" },
    { kind: "message", role: "agent", text: "Hello" },
    { kind: "tool", summary: 'read_file {"path":"a"}' },
  ]);
  assertEquals(events[3].kind, "limit");
  assertEquals(events[4], { kind: "result", text: "Hello", isError: true });
});

Deno.test("opencode: text parts, tool summaries, and a 429 error as a limit (documented shapes)", () => {
  const p = headlessAdapter("opencode")!.newParser();
  const lines = [
    '{"type":"step_start","timestamp":1,"sessionID":"ses_1","part":{"type":"step-start"}}',
    '{"type":"tool_use","timestamp":2,"sessionID":"ses_1","part":{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"ls"},"title":"ls"}}}',
    '{"type":"text","timestamp":3,"sessionID":"ses_1","part":{"type":"text","text":"All done"}}',
    '{"type":"error","timestamp":4,"sessionID":"ses_1","error":{"name":"APIError","data":{"message":"Too Many","statusCode":429}}}',
  ];
  assertEquals(parseAll(p, lines.join("\n")), [
    { kind: "tool", summary: "bash ls" },
    { kind: "action", action: { tool: "bash", kind: "ran", target: "ls", outcome: "ok" } },
    { kind: "message", role: "agent", text: "All done" },
    { kind: "limit", message: "Too Many", resetsAt: null },
  ]);
});

Deno.test("opencode: real 1.18.33 run --format json tool parts become what was done, in order", () => {
  // opencode-tools.jsonl: `opencode run --format json` against tools/real-agents/tool_mock.ts.
  const events = parseAll(
    headlessAdapter("opencode")!.newParser(),
    readFileSync(join(HEADLESS_CORPUS_DIR, "opencode-tools.jsonl"), "utf8"),
  );
  const done = events.flatMap((e) => e.kind === "action" ? [describeAction(e.action)] : []);
  assertEquals(done.length, 10);
  assertEquals(done.slice(0, 2), [
    "created /tmp/rec/ws/work/t1-1.txt",
    "ran `sh check.sh 1 2` → exit 0",
  ]);
  assertEquals(done.at(-1), "ran `sh check.sh 1 10` → exit 1");
  // A part still running is a summary only; one that failed says so.
  const p = headlessAdapter("opencode")!.newParser();
  const part = (status: string) =>
    JSON.stringify({
      type: "tool_use",
      part: { type: "tool", tool: "edit", state: { status, input: { filePath: "a.ts" } } },
    });
  assertEquals(p.parse(part("running")).map((e) => e.kind), ["tool"]);
  const failed = p.parse(part("error")).find((e) => e.kind === "action");
  assertEquals(failed?.kind === "action" && describeAction(failed.action), "edited a.ts → failed");
});

Deno.test("qwen: Claude-format stream with a tool call and an error result (documented shapes)", () => {
  const p = headlessAdapter("qwen")!.newParser();
  const lines = [
    '{"type":"system","subtype":"init","session_id":"s"}',
    '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Looking"},{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"x"}}]}}',
    '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"..."}]}}',
    '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"","error":{"message":"[API Error: 429 You exceeded your current quota, please check your plan and billing details.]"}}',
  ];
  const events = parseAll(p, lines.join("\n"));
  assertEquals(events.slice(0, 3), [
    { kind: "message", role: "agent", text: "Looking" },
    { kind: "tool", summary: 'read_file {"path":"x"}' },
    { kind: "action", action: { tool: "read_file", kind: "read", target: "x", outcome: "ok" } },
  ]);
  assertEquals(events[3].kind, "limit");
  assertEquals(events[4].kind, "result");
});

Deno.test("copilot: assistant messages, tool starts, and a rate-limit session error (documented shapes)", () => {
  const p = headlessAdapter("copilot")!.newParser();
  const lines = [
    '{"type":"session.start","data":{"sessionId":"s"},"id":"1","timestamp":"t","parentId":null}',
    '{"type":"user.message","data":{"content":"task"},"id":"2","timestamp":"t","parentId":"1"}',
    '{"type":"assistant.message","data":{"messageId":"m","content":"On it","toolRequests":[]},"id":"3","timestamp":"t","parentId":"2"}',
    '{"type":"tool.execution_start","data":{"toolName":"bash","arguments":{"command":"ls"}},"id":"4","timestamp":"t","parentId":"3"}',
    '{"type":"session.error","data":{"errorType":"rate_limit","message":"Sorry, you\'ve hit a rate limit. Please try again in 2 hours."},"id":"5","timestamp":"t","parentId":"4"}',
  ];
  const events = parseAll(p, lines.join("\n"));
  assertEquals(events.slice(0, 2), [
    { kind: "message", role: "agent", text: "On it" },
    { kind: "tool", summary: 'bash {"command":"ls"}' },
  ]);
  assertEquals(events[2].kind, "limit");
});

Deno.test("launch: the prompt is one argument, or stdin when over MAX_ARG_STRLEN", () => {
  const small = "fix the test";
  const big = "é".repeat(70_000); // 140,000 bytes in UTF-8, 70,000 code units
  assertEquals(headlessAdapter("claude")!.launch("/bin/claude", small, ["--model", "x"]), {
    argv: [
      "/bin/claude",
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--model",
      "x",
      "--",
      small,
    ],
    stdin: null,
  });
  const codexBig = headlessAdapter("codex")!.launch("codex", big, []);
  assertEquals(codexBig.argv.at(-1), "-");
  assertEquals(codexBig.stdin, big);
  const claudeBig = headlessAdapter("claude")!.launch("claude", big, []);
  assert(!claudeBig.argv.includes(big));
  assertEquals(claudeBig.stdin, big);
  assertEquals(headlessAdapter("copilot")!.promptViaStdin, true);
  assertEquals(headlessAdapter("nope"), null);
});

Deno.test("launch: a `--prompt=TEXT` argument counts its prefix against MAX_ARG_STRLEN", () => {
  // Fits alone, but not behind `--prompt=`.
  const edge = "x".repeat(MAX_ARG_BYTES - 3);
  const gemini = headlessAdapter("gemini")!.launch("gemini", edge, []);
  assert(launchFits(gemini));
  assertEquals(gemini.stdin, edge);
  const copilot = headlessAdapter("copilot")!.launch("copilot", edge, []);
  assert(launchFits(copilot));
  assertEquals(copilot.stdin, edge);
  assert(launchFits(headlessAdapter("copilot")!.launch("copilot", "fix it", [])));
});

Deno.test("gemini: a reported Cloud Code quota result (exit 173) is a limit, its reset read from the text", () => {
  const p = geminiStreamParser(() => new Date("2026-12-04T10:00:00Z"));
  const line = JSON.stringify({
    type: "result",
    timestamp: "t",
    status: "error",
    error: {
      type: "unknown",
      message:
        "[API Error: Quota exceeded for quota metric 'Gemini 2.5 Pro Requests' and limit 'Gemini 2.5 Pro Requests per day per user per tier' of service 'cloudcode-pa.googleapis.com'. Your quota will reset after 2h17m0s.]",
    },
  });
  const events = parseAll(p, line);
  assertEquals(events[0].kind, "limit");
  assertEquals((events[0] as { resetsAt: string }).resetsAt, "2026-12-04T12:17:00.000Z");
  assertEquals(events[1], { kind: "result", text: "", isError: true });
});

Deno.test("qwen: a retry of a quota is a limit at the first retry (stderr, then stdout); a rate limit is not", () => {
  const p = headlessAdapter("qwen")!.newParser();
  const retry =
    '{"type":"system","subtype":"retry","uuid":"u","session_id":"s","parent_tool_use_id":null,"data":{"reason":"retry","attempt":1,"maxRetries":10,"delayMs":60000,"discardedToolCalls":0,"preserveText":false}}';
  // A per-minute rate limit: Qwen's retries are left alone.
  assertEquals(
    p.parseStderr!(
      "Retrying in 20s (attempt 1/10): [API Error: 429 Rate limit reached for mock-1 in organization org-mock on requests per min (RPM). Please try again in 20s.]",
    ),
    [],
  );
  assertEquals(p.parse(retry), []);
  const quota = p.parseStderr!(
    "Retrying in 60s (attempt 2/10): [API Error: 429 You exceeded your current quota, please check your plan and billing details.]",
  );
  assertEquals(quota, [{
    kind: "limit",
    message:
      "[API Error: 429 You exceeded your current quota, please check your plan and billing details.]",
    resetsAt: null,
    retrying: true,
  }]);
  assertEquals(p.parse(retry), quota);
  assertEquals(p.parseStderr!("Ripgrep not available: falling back"), []);
});

Deno.test("qwen: its closing `[API Error: …]` message is the provider's error, never an agent turn", () => {
  const p = headlessAdapter("qwen")!.newParser();
  const events = parseAll(
    p,
    [
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Working on it"}]}}',
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"[API Error: 429 Free allocated quota exceeded.]"}]}}',
      '{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"[API Error: Connection error.]"}]}}',
    ].join("\n"),
  );
  assertEquals(events, [
    { kind: "message", role: "agent", text: "Working on it" },
    { kind: "limit", message: "[API Error: 429 Free allocated quota exceeded.]", resetsAt: null },
    { kind: "error", message: "[API Error: Connection error.]" },
  ]);
});

Deno.test("copilot: a failed call's quota carries the reset its text names", () => {
  const [limit] = headlessAdapter("copilot")!.newParser().parse(JSON.stringify({
    type: "model.call_failure",
    data: {
      statusCode: 429,
      errorCode: "insufficient_quota",
      errorMessage: JSON.stringify({
        message: "Your quota has been exhausted and will reset at 2026-12-04T21:52:56.000Z.",
        type: "insufficient_quota",
      }),
    },
  }));
  assertEquals((limit as { resetsAt: string }).resetsAt, "2026-12-04T21:52:56.000Z");
});

Deno.test("copilot: a handoff, and a prompt too long for one argument, go on its stdin", () => {
  const h = headlessAdapter("copilot")!;
  assertEquals(h.launch("copilot", "fix it", ["--allow-all-tools"]), {
    argv: ["copilot", "--output-format", "json", "--allow-all-tools", "--prompt=fix it"],
    stdin: null,
  });
  assertEquals(h.launch("copilot", "the handoff", [], true), {
    argv: ["copilot", "--output-format", "json"],
    stdin: "the handoff",
  });
});

Deno.test("opencode: a quota's reset from its text, else from the provider's retry-after header", () => {
  const now = new Date("2026-12-04T10:00:00Z");
  assertEquals(retryAfter({ "Retry-After": "3600" }, now), "2026-12-04T11:00:00.000Z");
  assertEquals(
    retryAfter({ "retry-after": "Fri, 04 Dec 2026 12:00:00 GMT" }, now),
    "2026-12-04T12:00:00.000Z",
  );
  assertEquals(retryAfter({ "content-type": "application/json" }, now), null);
  const [limit] = headlessAdapter("opencode")!.newParser().parse(JSON.stringify({
    type: "error",
    error: {
      name: "APIError",
      data: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        statusCode: 429,
        isRetryable: true,
        responseHeaders: { "content-type": "application/json", "retry-after": "60" },
      },
    },
  }));
  assertEquals(limit.kind, "limit");
  assert((limit as { resetsAt: string }).resetsAt !== null);
});
