import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ANSWER_HELD_MAX, AnswerScreen } from "./answer_screen.ts";

const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join("");

Deno.test("the answer shows on the other screen; the agent's output waits and follows it", () => {
  const out: Uint8Array[] = [];
  const answer = new AnswerScreen((b) => out.push(b));
  assertEquals(answer.hold(new TextEncoder().encode("before")), false, "passes while closed");
  answer.show("unknown agent\n\x1b[31mred\x07", "(any key)", "normal");
  assertEquals(answer.open, true);
  const chunk = new TextEncoder().encode("frame 1");
  assertEquals(answer.hold(chunk), true);
  chunk.fill(0x21); // the caller reuses its buffer: a copy was kept
  answer.hold(new TextEncoder().encode("frame 2"));
  answer.close();
  answer.close(); // idempotent
  assertEquals(answer.open, false);
  assertEquals(
    text(out),
    // Control characters of the answer are dropped: it cannot move the cursor or change modes.
    "\x1b[?1049h\x1b[H\x1b[2J\x1b(B\x1b[0munknown agent\r\n[31mred\r\n\r\n(any key)" +
      "\x1b[?1049lframe 1frame 2",
  );
});

Deno.test("more held output than the bound gives the agent's screen back at once", () => {
  const out: Uint8Array[] = [];
  const answer = new AnswerScreen((b) => out.push(b));
  answer.show("list", "(any key)", "normal");
  const big = new Uint8Array(ANSWER_HELD_MAX / 2 + 1);
  answer.hold(big);
  assertEquals(answer.open, true);
  answer.hold(big);
  assertEquals(answer.open, false);
  assertEquals(out.length, 4); // the answer, ?1049l, both chunks
  answer.close();
});

Deno.test("the answer closes itself after its time: the output is never held for long", async () => {
  const out: Uint8Array[] = [];
  const answer = new AnswerScreen((b) => out.push(b), { shownMs: 20 });
  answer.show("list", "(any key)", "normal");
  answer.hold(new TextEncoder().encode("late frame"));
  while (answer.open) await new Promise((r) => setTimeout(r, 10));
  assertEquals(text(out).endsWith("\x1b[?1049llate frame"), true);
});

Deno.test("over an agent on the alternate screen: drawn over it, cleared, and it repaints", () => {
  const out: Uint8Array[] = [];
  let repaints = 0;
  const answer = new AnswerScreen((b) => out.push(b), { repaint: () => repaints++ });
  answer.show("list", "(any key)", "alternate");
  answer.show("list again", "(any key)", "alternate"); // replaced: the cursor is saved once
  answer.hold(new TextEncoder().encode("frame"));
  assertEquals(repaints, 0);
  answer.close();
  answer.close();
  assertEquals(repaints, 1);
  assertEquals(
    text(out),
    "\x1b7\x1b[H\x1b[2J\x1b(B\x1b[0mlist\r\n\r\n(any key)" +
      "\x1b[H\x1b[2J\x1b(B\x1b[0mlist again\r\n\r\n(any key)" +
      "\x1b[H\x1b[2J\x1b8frame",
  );
});
