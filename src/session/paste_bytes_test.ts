import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { PASTE_KEEP_BYTES, PasteBytes, pasteText } from "./paste_bytes.ts";

const enc = new TextEncoder();

function paste(...runs: (string | Uint8Array)[]) {
  const p = new PasteBytes();
  p.start();
  for (const r of runs) p.add(typeof r === "string" ? enc.encode(r) : r);
  return p.end();
}

Deno.test("a paste that fits is kept whole, CR LF and CR as newlines, controls dropped", () => {
  assertEquals(paste("one\r\ntwo\rthree\n", "\tfour\x1b\x07"), {
    head: "one\ntwo\nthree\n\tfour",
    omitted: 0,
    tail: "",
  });
  assertEquals(paste(), { head: "", omitted: 0, tail: "" });
});

Deno.test("a paste longer than two ends keeps its head and tail and counts the middle", () => {
  const head = "h".repeat(PASTE_KEEP_BYTES);
  const middle = "m".repeat(1234);
  const tail = "t".repeat(PASTE_KEEP_BYTES - 1) + "!";
  // In runs of every size: one byte, a ring-wrapping run, a run longer than the ring.
  const kept = paste(
    head.slice(0, 1),
    head.slice(1),
    middle,
    "x".repeat(PASTE_KEEP_BYTES + 7),
    tail,
  );
  assertEquals(kept.head, head);
  assertEquals(kept.tail, tail);
  assertEquals(kept.omitted, 1234 + PASTE_KEEP_BYTES + 7);
});

Deno.test("between one and two ends long, it is one text again (nothing omitted)", () => {
  const text = "a".repeat(PASTE_KEEP_BYTES - 1) + "\r\n" + "b".repeat(10);
  // The CR ends the head and the LF starts the tail: still one newline.
  assertEquals(paste(text), { head: text.replace("\r\n", "\n"), omitted: 0, tail: "" });
});

Deno.test("a cut keeps whole code points at both ends, the split bytes counted as omitted", () => {
  // "é" (2 bytes) straddles the head's end; "€" (3 bytes) straddles the tail's start.
  const head = "a".repeat(PASTE_KEEP_BYTES - 1) + "é";
  const tail = "€" + "z".repeat(PASTE_KEEP_BYTES - 2);
  const kept = paste(head, "m".repeat(10), tail);
  assertEquals(kept.head, "a".repeat(PASTE_KEEP_BYTES - 1));
  assertEquals(kept.tail, "z".repeat(PASTE_KEEP_BYTES - 2));
  assertEquals(kept.omitted, 2 + 10 + 3);
});

Deno.test("the keeper is reused paste after paste", () => {
  const p = new PasteBytes();
  for (const text of ["x".repeat(PASTE_KEEP_BYTES + 3), "short"]) {
    p.start();
    p.add(enc.encode(text));
    assertEquals(p.end().head, text);
  }
  assertEquals(pasteText(new Uint8Array([0xff])), "\ufffd");
});
