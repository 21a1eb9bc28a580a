import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { j, testSecrets } from "../handoff/_redact_secrets_test_util.ts";
import { redactPieces, redactShaped, secretSpans } from "./redact_text.ts";

const bytes = (s: string) => new TextEncoder().encode(s).length;

Deno.test("every test secret is replaced by its marker, the text keeping its length in bytes", () => {
  for (const s of testSecrets()) {
    const text = `é ${s.line} ─ done`;
    const r = redactShaped(text);
    assert(!r.text.includes(s.secret), `${s.kind}: ${r.text}`);
    assertEquals(bytes(r.text), bytes(text), s.kind);
    assert(
      r.text.includes(`[REDACTED:${s.kind}]`) || /\*{4,}/.test(r.text),
      `${s.kind}: ${r.text}`,
    );
    assertEquals(r.count, 1, s.kind);
  }
});

Deno.test("a secret split across pieces is found; each piece keeps its length", () => {
  const all = testSecrets();
  const text = all.map((s) => `${s.line}\r\n`).join("") + "the end ─\r\n";
  for (const cut of [1, 7, 13, 64, 333]) {
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += cut) pieces.push(text.slice(i, i + cut));
    const r = redactPieces(pieces);
    assertEquals(r.pieces.map(bytes), pieces.map(bytes), `cut ${cut}`);
    const joined = r.pieces.join("");
    for (const s of all) {
      // Not whole, nor any part of it that could still be read as one.
      assert(!joined.includes(s.secret), `cut ${cut}: ${s.kind}`);
      assert(
        !joined.includes(s.secret.slice(0, 12)) || s.secret.length < 16,
        `cut ${cut}: ${s.kind}`,
      );
    }
    assertEquals(r.count, all.length, `cut ${cut}`);
    assert(joined.endsWith("the end ─\r\n"));
  }
});

Deno.test("a marker the text already shows stays; a short value becomes stars", () => {
  const shown = "User: deploy with [REDACTED:github-token] please";
  assertEquals(secretSpans(shown), []);
  assertEquals(redactShaped(shown).text, shown);
  const pw = j("hunter", "22");
  assertEquals(redactShaped(`password=${pw} ok`).text, "password=******** ok");
  const both = redactShaped(`${shown} password=${pw}`);
  assertEquals(both.text, `${shown} password=********`);
});

Deno.test("a private key block across many pieces is gone, its lines keep their place", () => {
  const kind = j("OPENSSH ", "PRIVATE ", "KEY");
  const body = Array.from({ length: 5 }, (_, i) => "QUJD".repeat(16) + i).join("\r\n");
  const text = `cat id\r\n-----BEGIN ${kind}-----\r\n${body}\r\n-----END ${kind}-----\r\n$ `;
  const pieces = text.match(/[\s\S]{1,50}/g)!;
  const r = redactPieces(pieces);
  assertEquals(r.pieces.map(bytes), pieces.map(bytes));
  const joined = r.pieces.join("");
  assert(!joined.includes("QUJD"), joined);
  assert(joined.startsWith("cat id\r\n[REDACTED:private-key]"), joined);
  assert(joined.endsWith("*\r\n$ "), joined);
  assertEquals(joined.split("\r\n").length, text.split("\r\n").length, "the rows stay");
});

Deno.test("a secret the agent's line wrap or colours cut in two is found as the screen shows it", () => {
  const bearer = testSecrets().find((s) => s.kind === "bearer-token")!.secret;
  const github = testSecrets().find((s) => s.kind === "github-token")!.secret;
  const text = `❯ call it with Authorization: Bearer\r\r\n  ${bearer}\x1b[7m \x1b[27m\r\n` +
    `token ${github.slice(0, 10)}\x1b[1m${github.slice(10)}\x1b[0m done`;
  const pieces = text.match(/[\s\S]{1,9}/g)!;
  const r = redactPieces(pieces);
  assertEquals(r.pieces.map(bytes), pieces.map(bytes));
  const joined = r.pieces.join("");
  assert(!joined.includes(bearer) && !joined.includes(github.slice(10)), joined);
  assert(joined.includes("Bearer\r\r\n  [REDACTED:bearer-token]"), joined);
  // The escape sequences stay where they were: the screen keeps its attributes.
  assert(
    joined.includes("\x1b[7m \x1b[27m") && joined.includes("\x1b[1m") &&
      joined.endsWith("\x1b[0m done"),
  );
});
