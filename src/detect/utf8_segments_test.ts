import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { rng } from "../handoff/_rng_test_util.ts";
import { Utf8Segmenter } from "./utf8_segments.ts";

const enc = new TextEncoder();
const bytes = (...xs: number[]) => new Uint8Array(xs);

Deno.test("a character split across reads waits for its end; nothing else waits", () => {
  const s = new Utf8Segmenter();
  const euro = enc.encode("€"); // e2 82 ac
  assertEquals(s.next(bytes(0x41, euro[0])), bytes(0x41));
  assertEquals(s.next(bytes(euro[1])), bytes());
  assertEquals(s.next(bytes(euro[2], 0x42)), bytes(...euro, 0x42));
  assertEquals(s.next(enc.encode("─x")), enc.encode("─x"));
  assertEquals(s.rest(), bytes());
});

Deno.test("bytes that are not UTF-8 pass through; an unfinished start at the end is the rest", () => {
  const s = new Utf8Segmenter();
  // A lone continuation byte, a lead byte followed by ASCII, 0xff: passed on as they are.
  assertEquals(s.next(bytes(0x80, 0xe2, 0x41, 0xff)), bytes(0x80, 0xe2, 0x41, 0xff));
  // A start cut short by another start: the first is passed on, the second waits.
  assertEquals(s.next(bytes(0xe2, 0xe2, 0x82)), bytes(0xe2));
  assertEquals(s.next(bytes(0x41)), bytes(0xe2, 0x82, 0x41));
  assertEquals(s.next(bytes(0xf0, 0x9f, 0x98)), bytes());
  assertEquals(s.rest(), bytes(0xf0, 0x9f, 0x98));
  assertEquals(s.rest(), bytes());
});

Deno.test("the pieces put together are the stream, each ends on a boundary, whatever the reads", () => {
  const text = "plain ─│╭╮ €uro 😀 emoji 👩‍💻 and ascii ".repeat(40);
  const stream = enc.encode(text);
  const random = rng(7);
  for (let trial = 0; trial < 50; trial++) {
    const s = new Utf8Segmenter();
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < stream.length;) {
      const n = 1 + Math.floor(random() * 9);
      // The reader reuses its buffer: the segmenter must not keep a view of it.
      const chunk = new Uint8Array(stream.subarray(at, at + n));
      pieces.push(s.next(chunk).slice());
      chunk.fill(0);
      at += n;
    }
    pieces.push(s.rest());
    const joined = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    pieces.reduce((at, p) => (joined.set(p, at), at + p.length), 0);
    assertEquals(joined, stream, `trial ${trial}`);
    const fatal = new TextDecoder("utf-8", { fatal: true });
    for (const p of pieces) fatal.decode(p); // throws if a piece splits a character
  }
});
