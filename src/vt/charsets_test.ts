import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { charsetFor, Charsets } from "./charsets.ts";

const graphics = charsetFor(0x30)!; // ESC ( 0
const uk = charsetFor(0x41)!; // ESC ( A

Deno.test("charsetFor: tables for known finals, null for ASCII, undefined for unknown", () => {
  assertEquals(String.fromCharCode(graphics[0x71], graphics[0x78]), "─│");
  assertEquals(String.fromCharCode(uk[0x23]), "£");
  assertEquals(String.fromCharCode(charsetFor(0x34)![0x5b]), "i", "Dutch [ is ij: its first unit");
  assertEquals([charsetFor(0x42), charsetFor(0x39)], [null, undefined]);
});

Deno.test("Charsets: designation, locking shifts, reset", () => {
  const c = new Charsets();
  c.designate(1, graphics);
  assertEquals(c.gl, null, "G1 designated, G0 still in use");
  c.shift(1);
  assertEquals(c.gl, graphics);
  c.designate(1, uk);
  assertEquals(c.gl, uk, "redesignating the set in use takes effect at once");
  c.shift(0);
  assertEquals(c.gl, null);
  c.shift(1);
  c.reset();
  assertEquals(c.gl, null);
  c.shift(1);
  assertEquals(c.gl, null, "reset designated ASCII everywhere");
});
