import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { redact } from "./redact.ts";
// Fake secrets are assembled at run time so nothing secret-shaped is committed verbatim.
import { alnum, j, testSecrets, upper } from "./_redact_secrets_test_util.ts";

function assertRedacted(secret: string, kind: string, context = (s: string) => `use ${s} here`) {
  const r = redact(context(secret));
  assert(!r.text.includes(secret), `still holds the secret: ${r.text}`);
  assert(r.text.includes(`[REDACTED:${kind}]`), `no ${kind} marker: ${r.text}`);
  assertEquals(r.count, 1);
}

Deno.test("Anthropic keys (api, admin, oauth)", () => {
  assertRedacted(j("sk-", "ant-", "api03-", alnum(90)), "anthropic-key");
  assertRedacted(j("sk-", "ant-", "oat01-", alnum(60)), "anthropic-key");
});

Deno.test("OpenAI keys (legacy and project)", () => {
  assertRedacted(j("sk-", alnum(48)), "openai-key");
  assertRedacted(j("sk-", "proj-", alnum(40), "_", alnum(40)), "openai-key");
});

Deno.test("GitHub tokens (classic and fine-grained)", () => {
  assertRedacted(j("gh", "p_", alnum(36)), "github-token");
  assertRedacted(j("gh", "s_", alnum(36)), "github-token");
  assertRedacted(j("github_", "pat_", alnum(22), "_", alnum(59)), "github-token");
});

Deno.test("AWS access key ids and secret keys in pairs", () => {
  assertRedacted(j("AK", "IA", upper(16)), "aws-access-key");
  const secret = j(alnum(20), "/", alnum(19));
  const r = redact(`aws_secret_access_key = ${secret}`);
  assertEquals(r.text, "aws_secret_access_key = [REDACTED:secret-value]");
  assertEquals(r.count, 1);
});

Deno.test("Google API keys and OAuth tokens", () => {
  assertRedacted(j("AI", "za", alnum(35)), "google-key");
  assertRedacted(j("ya", "29.", alnum(60)), "google-key");
});

Deno.test("Slack tokens and webhooks", () => {
  assertRedacted(j("xo", "xb-", "1234567890-", alnum(24)), "slack-token");
  assertRedacted(
    j("https://hooks.", "slack.com/services/", "T0", upper(8), "/B0", upper(8), "/", alnum(24)),
    "slack-token",
  );
});

Deno.test("JSON web tokens", () => {
  assertRedacted(j("ey", "J", alnum(20), ".ey", "J", alnum(30), ".", alnum(43)), "jwt");
});

Deno.test("bearer tokens keep the scheme", () => {
  const token = j(alnum(20), "9", alnum(12));
  const r = redact(`Authorization: Bearer ${token}`);
  assertEquals(r.text, "Authorization: Bearer [REDACTED:bearer-token]");
  const basic = redact(`Authorization: Basic ${btoa("user:" + alnum(12))}`);
  assertEquals(basic.text, "Authorization: Basic [REDACTED:basic-credential]");
});

Deno.test("password=-style pairs keep the key and quotes", () => {
  const pw = j("hun", "ter", "2!x");
  assertEquals(redact(`password=${pw}`).text, "password=[REDACTED:secret-value]");
  assertEquals(redact(`DB_PASSWORD: ${pw}`).text, "DB_PASSWORD: [REDACTED:secret-value]");
  assertEquals(
    redact(`{"api_key": "${pw}", "n": 1}`).text,
    `{"api_key": "[REDACTED:secret-value]", "n": 1}`,
  );
  assertEquals(
    redact(`export GITHUB_TOKEN='${pw}'`).text,
    "export GITHUB_TOKEN='[REDACTED:secret-value]'",
  );
});

Deno.test("pairs that name no secret stay", () => {
  for (
    const text of [
      "max_tokens: 4096",
      "password=$DB_PASS",
      "token = process.env.TOKEN",
      "keyboard: fine",
      "the password: <yours>",
      "password=abc",
    ]
  ) {
    assertEquals(redact(text), { text, count: 0 });
  }
});

Deno.test("private key blocks: whole, begin only, end only", () => {
  const body = Array.from({ length: 6 }, (_, i) => alnum(64, i)).join("\n");
  const kind = j("OPENSSH ", "PRIVATE ", "KEY");
  const begin = `-----BEGIN ${kind}-----`;
  const end = `-----END ${kind}-----`;
  const whole = redact(`key:\n${begin}\n${body}\n${end}\ndone`);
  assertEquals(whole, { text: "key:\n[REDACTED:private-key]\ndone", count: 1 });
  const beginOnly = redact(`${begin}\n${body}\n(screen ended)`);
  assertEquals(beginOnly, { text: "[REDACTED:private-key]\n(screen ended)", count: 1 });
  const endOnly = redact(`top\n${body}\n${end}\nafter`);
  assertEquals(endOnly, { text: "top\n[REDACTED:private-key]\nafter", count: 1 });
});

Deno.test("every shared test secret is redacted in its line", () => {
  for (const s of testSecrets()) {
    const r = redact(s.line);
    assert(!r.text.includes(s.secret), `${s.kind}: ${r.text}`);
    assert(r.text.includes(`[REDACTED:${s.kind}]`), `${s.kind}: ${r.text}`);
  }
});

Deno.test("several secrets are all counted; plain prose is untouched", () => {
  const text = j(
    "a ",
    "gh",
    "p_",
    alnum(36),
    " and ",
    "sk-",
    alnum(48),
    " and password=",
    alnum(10),
  );
  assertEquals(redact(text).count, 3);
  const prose = "The bearer of good news ran 12 tests; sk-learn is a library. Tokens: many.";
  assertEquals(redact(prose), { text: prose, count: 0 });
});
