/**
 * The redactor's test secrets: fake secrets of every shape `redact` knows, assembled at run time
 * so nothing secret-shaped is committed verbatim. `redact_test.ts` tests each shape; other tests
 * (a bug-report bundle) put them where a user's secrets could be and check none comes out.
 *
 * @module
 */

/** Joins parts (so no secret-shaped literal is in the source). */
export const j = (...parts: string[]): string => parts.join("");

/** `n` letters and digits, deterministic per `seed`. */
export const alnum = (n: number, seed = 7): string => {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let s = "";
  for (let i = 0; i < n; i++) s += abc[(i * 31 + seed) % abc.length];
  return s;
};

/** `n` upper-case letters and digits. */
export const upper = (n: number): string => alnum(n).toUpperCase().replace(/[^A-Z0-9]/g, "Q");

/**
 * One secret of each kind, in a line of text as a user could have it (`line`); `secret` is the
 * part that must never come out.
 */
export function testSecrets(): { kind: string; secret: string; line: string }[] {
  const pw = j("hun", "ter", "2!x", alnum(6, 3));
  const bearer = j(alnum(20), "9", alnum(12));
  const awsSecret = j(alnum(20), "/", alnum(19));
  return [
    { kind: "anthropic-key", secret: j("sk-", "ant-", "api03-", alnum(90)), line: "" },
    { kind: "openai-key", secret: j("sk-", "proj-", alnum(40), "_", alnum(40)), line: "" },
    { kind: "github-token", secret: j("gh", "p_", alnum(36)), line: "" },
    { kind: "aws-access-key", secret: j("AK", "IA", upper(16)), line: "" },
    { kind: "google-key", secret: j("AI", "za", alnum(35)), line: "" },
    { kind: "slack-token", secret: j("xo", "xb-", "1234567890-", alnum(24)), line: "" },
    {
      kind: "jwt",
      secret: j("ey", "J", alnum(20), ".ey", "J", alnum(30), ".", alnum(43)),
      line: "",
    },
    { kind: "bearer-token", secret: bearer, line: `Authorization: Bearer ${bearer}` },
    { kind: "secret-value", secret: awsSecret, line: `aws_secret_access_key = ${awsSecret}` },
    { kind: "secret-value", secret: pw, line: `password=${pw}` },
  ].map((s) => ({ ...s, line: s.line || `use ${s.secret} here` }));
}
