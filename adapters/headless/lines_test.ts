import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { LineSplitter } from "./lines.ts";

const enc = new TextEncoder();

Deno.test("lines: a line cut across chunks, CRLF and a multi-byte character split mid-sequence", () => {
  const s = new LineSplitter();
  const bytes = enc.encode('{"a":"é"}\r\n{"b":2}\n');
  const out: string[] = [];
  // Feed one byte at a time: every boundary, including inside "é" and between \r and \n.
  for (const b of bytes) out.push(...s.push(new Uint8Array([b])));
  out.push(...s.end());
  assertEquals(out, ['{"a":"é"}', '{"b":2}']);
});

Deno.test("lines: last line without a terminator comes out at end; empty lines are kept", () => {
  const s = new LineSplitter();
  assertEquals(s.push("a\n\nb"), ["a", ""]);
  assertEquals(s.end(), ["b"]);
  assertEquals(s.end(), []);
});

Deno.test("lines: a line over the bound is cut and its tail dropped up to the next newline", () => {
  const s = new LineSplitter(5);
  const out = [...s.push("abcdefgh"), ...s.push("ij\nok\n")];
  assertEquals(out, ["abcde", "ok"]);
  assertEquals(s.cutLines, 1);
});
