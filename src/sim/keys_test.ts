import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { KeyDecoder } from "./keys.ts";

Deno.test("KeyDecoder: text, Enter, backspace, Ctrl-C", () => {
  const d = new KeyDecoder();
  assertEquals(d.feed("ab\x7fc\r\x03"), [
    { type: "text", text: "ab" },
    { type: "backspace" },
    { type: "text", text: "c" },
    { type: "enter" },
    { type: "ctrl-c" },
  ]);
});

Deno.test("KeyDecoder: a bracketed paste is one event, newlines and Enter bytes inside it kept", () => {
  const d = new KeyDecoder();
  assertEquals(d.feed("x\x1b[200~line 1\r\nline 2\x1b[201~"), [
    { type: "text", text: "x" },
    { type: "paste", text: "line 1\r\nline 2" },
  ]);
});

Deno.test("KeyDecoder: paste markers split across reads at every position", () => {
  const input = "\x1b[200~héllo\x1b[B\x1b[201~\r";
  for (let cut = 0; cut <= input.length; cut++) {
    const d = new KeyDecoder();
    const events = [...d.feed(input.slice(0, cut)), ...d.feed(input.slice(cut))];
    assertEquals(events, [{ type: "paste", text: "héllo\x1b[B" }, { type: "enter" }], `cut ${cut}`);
  }
});

Deno.test("KeyDecoder: escape sequences, focus reports, a lone ESC after flush", () => {
  const d = new KeyDecoder();
  assertEquals(d.feed("\x1b[I\x1b[A\x1bOB\x1b[O\x1b[12;1R"), [
    { type: "focus", focused: true },
    { type: "arrow", direction: "up" },
    { type: "arrow", direction: "down" },
    { type: "focus", focused: false },
    { type: "other", sequence: "\x1b[12;1R" },
  ]);
  assertEquals(d.feed("\x1b"), []);
  assertEquals(d.pending, true);
  assertEquals(d.flush(), [{ type: "escape" }]);
  assertEquals(d.pending, false);
});
