import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { composeHandoff } from "./compose.ts";
import { claude, CLAUDE_INPUT_BOX } from "../../adapters/claude.ts";
import { codex } from "../../adapters/codex.ts";
import { GEMINI_INPUT_BOX } from "../../adapters/gemini.ts";
import type { TranscriptEntry } from "./package.ts";
import { cutAtLimit, timeOrdered } from "./transcript.ts";

const user = (text: string): TranscriptEntry => ({
  role: "user",
  text,
  fidelity: "keystrokes",
  certainty: "exact",
});
const agent = (...rows: string[]): TranscriptEntry => ({
  role: "agent",
  text: rows.join("\n"),
  fidelity: "screen",
});
const rule = "─".repeat(40);
const limit = "You've hit your session limit · resets 3:01am (UTC)";

// What Claude Code 2.1.197 shows at its limit (claude-limit-session.tmux.txt, shortened).
const screen = [
  "╭─── Claude Code v2.1.197 ───╮",
  "╰───────────────────────────╯",
  "❯ fix the nasty bug in",
  "  src/discount.ts",
  "⏺ Fixed: the discount is now",
  "  applied once.",
  "",
  "❯ now add a test",
  `  ⎿  ${limit}`,
  "",
  "✻ Sautéed for 0s",
  "",
  "❯ /rate-limit-options",
  rule,
  "  What do you want to do?",
  "  ❯ 1. Stop and wait for limit to reset",
  "    2. Upgrade your plan",
];

Deno.test("turns are cut into the screen where it echoed them: User, Agent, User, Agent", () => {
  const turns = [user("fix the nasty bug in src/discount.ts"), user("now add a test")];
  assertEquals(timeOrdered(turns, screen, limit), [
    agent("╭─── Claude Code v2.1.197 ───╮", "╰───────────────────────────╯"),
    turns[0],
    agent("⏺ Fixed: the discount is now", "  applied once."),
    turns[1],
    agent(`  ⎿  ${limit}`),
  ]);
});

Deno.test("the limit menu after the limit message is not carried", () => {
  assertEquals(cutAtLimit(screen, limit).at(-1), `  ⎿  ${limit}`);
  assertEquals(cutAtLimit(screen, null), screen);
  assertEquals(cutAtLimit(screen, "a message never shown"), screen);
});

Deno.test("the live input box (a /agent switch typed there) and its footer are not carried", () => {
  const rows = ["❯ fix it", "⏺ fixed", "", rule, "❯\u00a0/agent codex", rule, "  ? for shortcuts"];
  assertEquals(timeOrdered([user("fix it")], rows, null, CLAUDE_INPUT_BOX), [
    user("fix it"),
    agent("⏺ fixed"),
  ]);
});

Deno.test("a multi-line turn matches its echo across rows; the echo is carried once", () => {
  const turns = [user("a\nb")];
  const out = timeOrdered(turns, ["❯ a", "  b", "⏺ ok"]);
  assertEquals(out, [turns[0], agent("⏺ ok")]);
});

Deno.test("turns without an echo keep their place in time", () => {
  const old = user("scrolled off long ago");
  const lost = user("queued while busy");
  const seen = user("now add a test");
  const late = user("typed after the last echo");
  const rows = ["⏺ tail of an old answer", "❯ now add a test", "⏺ done"];
  assertEquals(timeOrdered([old, seen, late], rows), [
    old,
    agent("⏺ tail of an old answer"),
    seen,
    agent("⏺ done"),
    late,
  ]);
  assertEquals(timeOrdered([old, lost], rows), [old, lost, agent(...rows)]);
  // Echoes pair with turns in order: the turn before the first echo stays before it.
  assertEquals(timeOrdered([seen, user("x")], ["❯ x", "❯ now add a test"]), [
    seen,
    user("x"),
    agent("❯ now add a test"),
  ]);
});

Deno.test("budget: a long time-ordered session drops its oldest whole entries, the last answer whole", () => {
  const turns: TranscriptEntry[] = [];
  const rows: string[] = [];
  for (let t = 1; t <= 30; t++) {
    turns.push(user(`question number ${t}`));
    rows.push(`❯ question number ${t}`);
    for (let l = 1; l <= 4; l++) rows.push(`  answer ${t} line ${l} ${"·".repeat(60)}`);
  }
  rows.push(`  ⎿  ${limit}`, "❯ /rate-limit-options", "  ❯ 1. Stop and wait for limit to reset");
  const entries = timeOrdered(turns, rows.slice(-120), limit);
  const pkg = {
    workspace: "/w",
    git: null,
    from: "claude",
    to: "codex",
    reason: { kind: "limit" as const, message: limit, resetsAt: null },
    time: "2026-12-01T00:00:00Z",
    entries,
  };
  const out = composeHandoff(pkg, { road: "hook", pointer: "/h.md", nonce: "0123456789ab" })!;
  assert(out.omitted > 0, "something had to be left out");
  assert(out.text.includes(`earlier entries were omitted`), out.text.slice(0, 800));
  // The newest answer and the message that hit the limit are there whole; the menu is not.
  assert(out.text.includes("User: question number 30\n\nAgent:   answer 30 line 1"), out.text);
  assert(out.text.includes(limit));
  assert(!out.text.includes("rate-limit-options"));
  // Each turn is carried once: as its User entry, never again as a screen echo.
  assertEquals(out.text.split("question number 29").length - 1, 1);
});

Deno.test("Gemini: the echo above the limit message is a turn, the live box below it is dropped", () => {
  const top = "▄".repeat(40);
  const bottom = "▀".repeat(40);
  const message = "Usage limit reached for all Pro models.";
  const rows = [
    top,
    " > hello",
    bottom,
    `✕ ${message}`,
    top,
    " > typed, not sent",
    bottom,
    " ~/ws",
  ];
  assertEquals(timeOrdered([user("hello")], rows, message, GEMINI_INPUT_BOX), [
    user("hello"),
    agent(`✕ ${message}`),
  ]);
});

const said = (text: string): TranscriptEntry => ({
  role: "user",
  text,
  fidelity: "event",
  certainty: "exact",
});
const reply = (text: string): TranscriptEntry => ({ role: "agent", text, fidelity: "event" });

// What Claude Code 2.1.332 showed for a turn with a tool call, then its limit (shortened).
const limit332 = "You've hit your 5-hour limit · resets 12:47am (UTC)";
const screen332 = [
  "❯ Read the notes",
  "● Let me look at the file first.",
  "● Read(notes.txt)",
  "  ⎿  Read 1 line",
  "● Answer 1, line 1: **mock** reply text.",
  "  1.",
  "  Answer 1, line 2: mock reply text.",
  "",
  "✻ Baked for 3s · done 9:37 PM",
  "❯ A3 add a --dry-run flag to deploy.sh",
  `  ⎿  ${limit332}`,
  "● Usage limit reached · set to continue automatically at 12:47am",
];

Deno.test("a reply from the channel is the answer; the screen keeps what only it shows", () => {
  const text = "Let me look at the file first.\n\nAnswer 1, line 1: **mock** reply text.\n1.\n" +
    "Answer 1, line 2: mock reply text.";
  const entries = [
    said("Read the notes"),
    reply(text),
    said("A3 add a --dry-run flag to deploy.sh"),
  ];
  // Without the adapter's chrome rows, Claude's `✻ Baked for 3s` row after the turn is kept.
  assertEquals(timeOrdered(entries, screen332, limit332, CLAUDE_INPUT_BOX)[1], {
    ...agent("● Read(notes.txt)", "  ⎿  Read 1 line", "", "✻ Baked for 3s · done 9:37 PM"),
  });
  assertEquals(timeOrdered(entries, screen332, limit332, CLAUDE_INPUT_BOX, claude.chromeRows), [
    entries[0],
    agent("● Read(notes.txt)", "  ⎿  Read 1 line"),
    entries[1],
    entries[2],
    agent(`  ⎿  ${limit332}`),
  ]);
});

// Rows of real Claude runs (tools/real-agents/check_claude_capture.sh, 2026-12-02) between two
// turns that are Claude's own, not the model's words: none is an Agent entry.
Deno.test("Claude's own rows (turn time, spinner, tips, Esc's notice) are not the agent's words", () => {
  const chrome = [
    "✻ Crunched for 0s · done 2:21 AM", // 2.1.332
    "✻ Cogitated for 15s", // 2.1.197
    "✻ Worked for 1m 3s",
    "✢ Deciphering… (3s · ↓ 120 tokens)",
    "* Booping… (running UserPromptSubmit hook · 0s)",
    "✶ Mulling…",
    "· Simmering… (running Stop hook · 1s · ↓ 10 tokens)",
    "  ⎿  Tip: Press Enter to queue messages while Claude works",
    "  ⎿  Interrupted · What should Claude do instead?",
    "  Waiting for permission…",
    "                                                                      ◐ medium · /effort",
  ];
  for (const row of chrome) {
    assert(claude.chromeRows!.some((c) => c.test(row)), row);
    const entries = [user("explain it"), reply("It works."), user("next")];
    assertEquals(
      timeOrdered(
        entries,
        ["❯ explain it", "● It works.", "", row, "❯ next"],
        null,
        CLAUDE_INPUT_BOX,
        claude.chromeRows,
      ),
      entries,
    );
  }
  // The model's words and a tool's rows stay, whatever they start with.
  for (
    const row of [
      "  ✻ Worked for 3s, said the log",
      "● Worked for 3s",
      "  ⎿  Read 1 line",
      "  * item",
    ]
  ) {
    assert(!claude.chromeRows!.some((c) => c.test(row)), row);
  }
});

Deno.test("the rest of a long turn whose echo scrolled off is the user's, not an Agent entry", () => {
  const long = Array.from({ length: 40 }, (_, i) => `word${String(i).padStart(4, "0")}`).join(" ");
  const words = long.split(" ");
  // Its echo's first rows are gone; its last two rows are left at the top.
  const rows = [`  ${words.slice(20, 30).join(" ")}`, `  ${words.slice(30).join(" ")}`];
  const entries = [user(long), reply("Answer 15")];
  assertEquals(timeOrdered(entries, [...rows, "● Answer 15", "  ⎿  Read 1 line"]), [
    entries[0],
    agent("  ⎿  Read 1 line"),
    entries[1],
  ]);
  // Rows that only look like the turn's middle (it does not end there) are the agent's.
  assertEquals(timeOrdered(entries, [rows[0], "● Answer 15"]), [
    entries[0],
    agent(rows[0]),
    entries[1],
  ]);
});

Deno.test("replies of turns the screen no longer shows are carried all the same, in their place", () => {
  const old = [said("first request"), reply("the first answer, long scrolled off")];
  const seen = [said("Read the notes"), reply("Let me look at the file first.")];
  const rows = ["  Answer 0, the tail of an older answer", ...screen332.slice(0, 4)];
  assertEquals(timeOrdered([...old, ...seen], rows), [
    old[0],
    agent("  Answer 0, the tail of an older answer"),
    old[1],
    seen[0],
    agent("● Read(notes.txt)", "  ⎿  Read 1 line"),
    seen[1],
  ]);
  // No echo at all: every turn with its reply, then the screen less what the last reply says.
  assertEquals(timeOrdered(seen, ["● Let me look at the file first.", "● Read(notes.txt)"]), [
    seen[0],
    agent("● Read(notes.txt)"),
    seen[1],
  ]);
});

Deno.test("a screen part that only shows the reply adds nothing", () => {
  const entries = [said("hi"), reply("Hello there, friend.")];
  assertEquals(timeOrdered(entries, ["❯ hi", "● Hello there,", "  friend.", ""]), entries);
});

// Real Codex 0.171.0 (tools/real-agents/check_codex_status.sh, 2026-12-02): between two turns,
// its own rows; the model's `• ` rows and its `■` error rows stay.
Deno.test("Codex's own rows (turn time, spinner, composer hints) are not the agent's words", () => {
  const entries = [user("say hello"), reply("MOCKREPLY-1: noted."), user("second request")];
  const rows = [
    "› say hello",
    "• MOCKREPLY-1: noted.",
    "  Worked for <1s • 4:26",
    "› second request",
    "◦ Reconnecting... 2/5 (3s • esc to interrupt)",
    "• Working (12s • esc to interrupt)",
    "■ We’re currently experiencing high demand, which may cause temporary errors.",
    "  tab to queue message",
    "  ← for agents · ? for shortcuts                                   ⚠ 2 warnings · f2 to view",
    "  ⚠ 1 warning · f2 to view",
  ];
  assertEquals(timeOrdered(entries, rows, null, undefined, codex.chromeRows), [
    ...entries,
    agent("■ We’re currently experiencing high demand, which may cause temporary errors."),
  ]);
  for (const row of ["• Working on the parser now.", "  Worked for the client in 2024"]) {
    assert(!codex.chromeRows!.some((c) => c.test(row)), row);
  }
});
