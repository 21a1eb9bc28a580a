import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { MAX_PARAMS, MAX_STRING, type Params, Parser, type Performer } from "./parser.ts";
import { identOf } from "./dispatch_table.ts";

/** A performer that writes down every call, as text. */
class Recorder implements Performer {
  calls: string[] = [];
  printAscii(bytes: Uint8Array, start: number, end: number, afterControl: boolean): void {
    const text = new TextDecoder().decode(bytes.subarray(start, end));
    this.#print(text, afterControl);
  }
  print(cp: number, afterControl: boolean): void {
    this.#print(String.fromCodePoint(cp), afterControl);
  }
  // consecutive prints of one run (however the parser split them) are one entry
  #print(text: string, afterControl: boolean): void {
    const last = this.calls.length - 1;
    if (!afterControl && last >= 0 && this.calls[last].startsWith("print ")) {
      this.calls[last] += text;
    } else this.calls.push(`print ${text}`);
  }
  execute(code: number): void {
    this.calls.push(`execute ${code.toString(16)}`);
  }
  csiDispatch(ident: number, p: Params): void {
    const values = Array.from(p.values.subarray(0, p.count)).join(";");
    this.calls.push(`csi ${_chars(ident)} ${values}${p.overflowed ? " overflowed" : ""}`);
  }
  escDispatch(ident: number): void {
    this.calls.push(`esc ${_chars(ident)}`);
  }
  oscDispatch(id: number, data: string | null, terminator: number): void {
    this.calls.push(`osc ${id} ${JSON.stringify(data)} ${terminator.toString(16)}`);
  }
  dcsDispatch(ident: number, data: string | null, terminator: number): void {
    this.calls.push(`dcs ${_chars(ident)} ${JSON.stringify(data)} ${terminator.toString(16)}`);
  }
}

function _chars(ident: number): string {
  let s = "";
  for (; ident !== 0; ident >>>= 8) s = String.fromCharCode(ident & 0xff) + s;
  return s;
}

const enc = new TextEncoder();

function parse(input: string | Uint8Array, split: "whole" | "bytes" = "whole", replace = false) {
  const rec = new Recorder();
  const parser = new Parser(rec, { replaceMalformed: replace });
  const bytes = typeof input === "string" ? enc.encode(input) : input;
  if (split === "whole") parser.advance(bytes);
  else for (let i = 0; i < bytes.length; i++) parser.advance(bytes.subarray(i, i + 1));
  return rec.calls;
}

/** The calls for `input`, checked to be the same when it arrives one byte at a time. */
function calls(input: string | Uint8Array, replace = false): string[] {
  const whole = parse(input, "whole", replace);
  assertEquals(parse(input, "bytes", replace), whole, "fed one byte at a time");
  return whole;
}

Deno.test("text, controls and a print run broken by any other action", () => {
  assertEquals(calls("ab\r\nc漢\x07d"), [
    "print ab",
    "execute d",
    "execute a",
    "print c漢",
    "execute 7",
    "print d",
  ]);
  // an ignored sequence (a private marker after a parameter) ends the print run too
  assertEquals(calls("x\x1b[1?hy"), ["print x", "print y"]);
});

Deno.test("CSI: parameters, defaults, prefixes and intermediates in the identifier", () => {
  assertEquals(calls("\x1b[H\x1b[;5H\x1b[12;34r\x1b[?25;1049l\x1b[>4;2m\x1b[3 q\x1b[?1$p"), [
    "csi H 0",
    "csi H 0;5",
    "csi r 12;34",
    "csi ?l 25;1049",
    "csi >m 4;2",
    "csi  q 3",
    "csi ?$p 1",
  ]);
  assertEquals(identOf("?$p"), 0x3f2470);
  // sub-parameters are parsed over; a value saturates at 2^31-1
  assertEquals(calls("\x1b[38:2:1:2:3;4m\x1b[99999999999999C"), [
    "csi m 38;4",
    "csi C 2147483647",
  ]);
  // C0 inside a CSI is executed, the sequence goes on
  assertEquals(calls("\x1b[2\n;3H"), ["execute a", "csi H 2;3"]);
});

Deno.test("CSI: at most MAX_PARAMS parameters are kept", () => {
  const many = "\x1b[" + Array.from({ length: 40 }, (_, i) => i + 1).join(";") + "m";
  const kept = Array.from({ length: MAX_PARAMS }, (_, i) => i + 1).join(";");
  assertEquals(calls(many), [`csi m ${kept} overflowed`]);
  // the next sequence starts clean
  assertEquals(calls(many + "\x1b[5A").at(-1), "csi A 5");
});

Deno.test("ESC: the final and intermediates; CSI, OSC, DCS and strings are not ESC", () => {
  assertEquals(calls("\x1b7\x1b(0\x1b#8\x1bc"), ["esc 7", "esc (0", "esc #8", "esc c"]);
});

Deno.test("OSC: id, text after the first ';', every terminator, malformed ids", () => {
  assertEquals(calls("\x1b]0;a;b\x07\x1b]2;t\x1b\\\x1b]10;?\x9c"), [
    'osc 0 "a;b" 7',
    'osc 2 "t" 1b',
    "esc \\",
    'osc 10 "?" 9c',
  ]);
  // no ';': empty text; no id or a malformed one: -1; CAN aborts (the terminator says so)
  assertEquals(calls("\x1b]2\x07\x1b];x\x07\x1b]1x;y\x07\x1b]0;z\x18"), [
    'osc 2 "" 7',
    'osc -1 "x" 7',
    'osc -1 "" 7',
    'osc 0 "z" 18',
  ]);
  // UTF-8 in the text, split anywhere, and astral characters
  assertEquals(calls("\x1b]0;é漢🚀\x07"), ['osc 0 "é漢🚀" 7']);
});

Deno.test("OSC and DCS strings longer than MAX_STRING overflow; the next one is whole", () => {
  const long = "x".repeat(MAX_STRING);
  assertEquals(parse(`\x1b]0;${long}\x07\x1b]0;ok\x07`), [
    `osc 0 ${JSON.stringify(long)} 7`,
    'osc 0 "ok" 7',
  ]);
  assertEquals(parse(`\x1b]0;${long}y\x07\x1bP$q${long}z\x1b\\\x1bP$qm\x1b\\`), [
    "osc 0 null 7",
    "dcs $q null 1b",
    "esc \\",
    'dcs $q "m" 1b',
    "esc \\",
  ]);
});

Deno.test("DCS: identifier, text (controls included), CAN; SOS/PM/APC are swallowed", () => {
  assertEquals(calls("\x1bP$qm\x1b\\\x1bP1;2|a\nb\x9c\x1bPq#0\x18x"), [
    'dcs $q "m" 1b',
    "esc \\",
    'dcs | "a\\nb" 9c',
    'dcs q "#0" 18',
    "print x",
  ]);
  assertEquals(calls("a\x1b_apc\x07text\x1b\\b\x1b^pm\x9cc\x1bXsos\x1b\\d"), [
    "print a",
    "esc \\",
    "print b",
    "print c",
    "esc \\",
    "print d",
  ]);
});

Deno.test("UTF-8: split anywhere, malformed dropped or replaced, BOM dropped, C1 decoded", () => {
  assertEquals(calls("é漢🚀\ufeffx"), ["print é漢🚀x"]);
  const bad = new Uint8Array([0x41, 0xff, 0xc3, 0x28, 0xe2, 0x82, 0x42, 0xc0, 0xaf, 0xed, 0xa0]);
  assertEquals(calls(bad), ["print A(B"]);
  // one U+FFFD per malformed sequence; the cut-short ED A0 at the end still waits for more
  assertEquals(calls(bad, true), ["print A\ufffd\ufffd(\ufffdB\ufffd"]);
  // a raw 0x9b byte is malformed; U+009B (C2 9B) is CSI
  assertEquals(calls(new Uint8Array([0x9b, 0x41, 0xc2, 0x9b, 0x32, 0x4a])), [
    "print A",
    "csi J 2",
  ]);
});
