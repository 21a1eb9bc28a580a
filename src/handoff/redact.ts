/**
 * Redacting secrets from recorded text before it is handed to another agent: private key blocks
 * (whole, or the part a screen showed), common API-key and token shapes (Anthropic, OpenAI,
 * GitHub, AWS, Google, Slack, JWTs), bearer tokens, and `password=`-style pairs. Each secret is
 * replaced by a marker such as `[REDACTED:github-token]` and counted.
 *
 * Redaction runs on whole entries before any trimming, so a cut can never leave half a secret
 * that no longer matches its shape.
 *
 * @module
 */

/** The result of {@linkcode redact}. */
export interface Redacted {
  /** The text with every secret replaced by a marker. */
  text: string;
  /** How many secrets were replaced. */
  count: number;
}

/** Matches one marker that {@linkcode redact} writes. */
export const REDACTION_MARKER: RegExp = /\[REDACTED:[a-z0-9-]+\]/g;

/** The marker written in place of a secret of `kind`. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

const _KEY_NAME = String.raw`[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?`;
// A complete block, a block whose end the recording did not show, and an end whose beginning it
// did not show (a screen's last lines, or a cut).
const _KEY_BLOCK = new RegExp(
  String.raw`-----BEGIN ${_KEY_NAME}-----[\s\S]{0,65536}?-----END ${_KEY_NAME}-----`,
  "g",
);
const _KEY_BODY_LINE = String
  .raw`[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+:[^\n]*|=[A-Za-z0-9+/]{4})`;
const _KEY_BEGIN_ONLY = new RegExp(
  String.raw`-----BEGIN ${_KEY_NAME}-----(?:\n${_KEY_BODY_LINE})*`,
  "g",
);
const _KEY_END_ONLY = new RegExp(
  String.raw`(?:[ \t]*[A-Za-z0-9+/=]{16,}\n)*[ \t]*-----END ${_KEY_NAME}-----`,
  "g",
);

// Token shapes, tried left to right at each position (Anthropic before the generic `sk-`).
// The look-behind keeps them from matching inside a longer word.
const _TOKEN_SHAPES: [kind: string, source: string][] = [
  ["anthropic-key", String.raw`sk-ant-[A-Za-z0-9]+-[A-Za-z0-9_\-]{20,}`],
  ["openai-key", String.raw`sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}`],
  [
    "github-token",
    String.raw`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}`,
  ],
  ["aws-access-key", String.raw`(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`],
  [
    "google-key",
    String.raw`AIza[0-9A-Za-z_\-]{35}|ya29\.[0-9A-Za-z_\-]{20,}|GOCSPX-[0-9A-Za-z_\-]{20,}`,
  ],
  [
    "slack-token",
    String
      .raw`xox[abposr]-[0-9A-Za-z\-]{10,}|xapp-[0-9]-[0-9A-Za-z\-]{10,}|https://hooks\.slack\.com/services/[A-Za-z0-9/_\-]{16,}`,
  ],
  ["jwt", String.raw`eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`],
];
const _TOKENS = new RegExp(
  String.raw`(?<![A-Za-z0-9_\-])(?:` +
    _TOKEN_SHAPES.map(([, s], i) => `(?<t${i}>${s})`).join("|") + ")",
  "g",
);
// `Authorization: Bearer …` / `Authorization: Basic …`: the scheme stays readable, the credential
// goes. A bearer credential must hold a digit, so prose ("bearer of_good_news_indeed") stays.
const _AUTH_SCHEME =
  /\b(Bearer|bearer|BEARER)([ \t]+)(?=[A-Za-z0-9\-._~+/]*[0-9])([A-Za-z0-9\-._~+/]{16,}=*)|(Authorization:[ \t]*Basic)([ \t]+)([A-Za-z0-9+/]{8,}={0,2})/g;
// `password=…`, `DB_PASSWORD: …`, `"api_key": "…"`, `export GITHUB_TOKEN=…`: the key stays, the
// value goes. The key must end in one of the words (so `max_tokens: 4096` stays); matching starts
// at the word, not at the key's prefix, so the scan stays linear.
const _PAIR = new RegExp(
  String.raw`(?<![A-Za-z0-9])(password|passwd|passphrase|pwd|secret|token|api[_\-]?key|apikey|` +
    String
      .raw`access[_\-]?key|secret[_\-]?key|private[_\-]?key|client[_\-]?secret|auth[_\-]?token|` +
    String.raw`credentials?)(["']?[ \t]*[:=][ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"',;]+)`,
  "gi",
);
const _PAIR_HINT = /pass|pwd|secret|token|key|credential/i;
// Values that name a secret instead of holding one.
const _PLACEHOLDER =
  /^(?:\$|<|\{\{|%|\[|\*|process\.|os\.|env\b|null$|none$|true$|false$|undefined$)/i;

/** Replaces every secret in `text` with a marker and counts them. */
export function redact(text: string): Redacted {
  let count = 0;
  let out = text;
  if (out.includes("PRIVATE KEY")) {
    const key = () => {
      count++;
      return redactionMarker("private-key");
    };
    out = out.replace(_KEY_BLOCK, key);
    if (out.includes("-----BEGIN ")) out = out.replace(_KEY_BEGIN_ONLY, key);
    if (out.includes("-----END ")) out = out.replace(_KEY_END_ONLY, key);
  }
  out = out.replace(_TOKENS, (...args) => {
    const groups = args[args.length - 1] as Record<string, string | undefined>;
    const i = _TOKEN_SHAPES.findIndex((_, j) => groups[`t${j}`] !== undefined);
    count++;
    return redactionMarker(_TOKEN_SHAPES[i][0]);
  });
  out = out.replace(
    _AUTH_SCHEME,
    (_m, bearer?: string, gap1?: string, _v1?: string, basic?: string, gap2?: string) => {
      count++;
      return bearer !== undefined
        ? `${bearer}${gap1}${redactionMarker("bearer-token")}`
        : `${basic}${gap2}${redactionMarker("basic-credential")}`;
    },
  );
  if (_PAIR_HINT.test(out)) {
    out = out.replace(_PAIR, (whole, key: string, sep: string, value: string) => {
      const bare = value.replace(/^["']|["']$/g, "");
      if (bare.length < 4 || _PLACEHOLDER.test(bare) || bare.startsWith("[REDACTED:")) {
        return whole;
      }
      count++;
      const quote = value[0] === '"' || value[0] === "'" ? value[0] : "";
      return `${key}${sep}${quote}${redactionMarker("secret-value")}${quote}`;
    });
  }
  return { text: out, count };
}
