/**
 * Private-key redaction checked against a simple reference: the three regular expressions the
 * rules were first written as (clear, but quadratic in a block's size). On small random inputs
 * built from the pieces key blocks are made of, `redact` must give exactly what they give.
 * Speed is the benchmark's business (bench/compose_bench.ts), not this file's.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { redact, redactionMarker } from "./redact.ts";
import { rng } from "./_rng_test_util.ts";

const NAME = String.raw`[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?`;
const BODY_LINE = String.raw`[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+:[^\n]*|=[A-Za-z0-9+/]{4})`;
const REFERENCE = [
  new RegExp(String.raw`-----BEGIN ${NAME}-----[\s\S]{0,65536}?-----END ${NAME}-----`, "g"),
  new RegExp(String.raw`-----BEGIN ${NAME}-----(?:\n${BODY_LINE})*`, "g"),
  new RegExp(String.raw`(?:[ \t]*[A-Za-z0-9+/=]{16,}\n)*[ \t]*-----END ${NAME}-----`, "g"),
];

// The reference: the key rules as regular expressions, then everything else as `redact` does it
// (after the key rules no boundary line is left, so `redact`'s own key rules find nothing more).
function reference(text: string): { text: string; count: number } {
  let count = 0;
  let out = text;
  if (out.includes("PRIVATE KEY")) {
    for (const re of REFERENCE) {
      out = out.replace(re, () => {
        count++;
        return redactionMarker("private-key");
      });
    }
  }
  const rest = redact(out);
  return { text: rest.text, count: count + rest.count };
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
const PIECES = [
  "-----BEGIN ",
  "-----END ",
  "RSA ",
  "OPENSSH ",
  "PRIVATE KEY",
  " BLOCK",
  "-----",
  "CERTIFICATE",
  "\n",
  "\n",
  "\n",
  " ",
  "\t",
  "Proc-Type: 4,ENCRYPTED",
  "=ab+/",
  "x",
  ":",
  "-",
  "key: ",
];

function generate(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 40);
  for (let i = 0; i < n; i++) {
    const roll = r();
    if (roll < 0.3) {
      const len = 1 + Math.floor(r() * 40);
      parts.push(Array.from({ length: len }, () => pick([...B64])).join(""));
    } else if (roll < 0.45) {
      const kind = pick(["", "RSA ", "EC ", "OPENSSH ", "ENCRYPTED "]);
      const block = pick(["", " BLOCK"]);
      parts.push(`-----${pick(["BEGIN", "END"])} ${kind}PRIVATE KEY${block}-----`);
    } else {
      parts.push(pick(PIECES));
    }
  }
  return parts.join("");
}

Deno.test("key redaction equals the regular-expression reference on random small inputs", () => {
  let redacted = 0;
  for (let seed = 1; seed <= 5000; seed++) {
    const text = generate(seed);
    const got = redact(text);
    assertEquals(got, reference(text), `seed ${seed}: ${JSON.stringify(text)}`);
    if (got.count > 0) redacted++;
  }
  // The generator must exercise the rules, not only the inputs where nothing matches.
  assert(redacted > 1500, `${redacted}`);
});

Deno.test("a block's end more than 64 KB after its begin leaves two parts, as the reference did", () => {
  // (The reference is too slow for this size: the expectations are written out.)
  const begin = "-----BEGIN RSA PRIVATE KEY-----";
  const end = "-----END RSA PRIVATE KEY-----";
  const marker = redactionMarker("private-key");
  const body = (gap: number) => ("A".repeat(63) + "\n").repeat(gap / 64).slice(0, gap - 2);
  // The gap between begin and end counts both newlines around the body.
  const within = `before\n${begin}\n${body(65_536)}\n${end}\nafter`;
  assertEquals(redact(within), { text: `before\n${marker}\nafter`, count: 1 });
  const beyond = `before\n${begin}\n${body(65_600)}\n${end}\nafter`;
  assertEquals(redact(beyond), { text: `before\n${marker}\n${marker}\nafter`, count: 2 });
});

Deno.test("a certificate chain that mentions PRIVATE KEY keeps its certificates", () => {
  const cert = `-----BEGIN CERTIFICATE-----\n${
    Array.from({ length: 20 }, (_, i) => B64.slice(i, i + 48).padEnd(64, "Q")).join("\n")
  }\n-----END CERTIFICATE-----`;
  const text = `the PRIVATE KEY stays on the server; here is the chain:\n${cert}\n${cert}`;
  assertEquals(redact(text), { text, count: 0 });
  assertEquals(reference(text), { text, count: 0 });
});
