/**
 * Redacting secrets from recorded text before it is handed to another agent: private key blocks
 * (whole, or the part a screen showed), common API-key and token shapes (Anthropic, OpenAI,
 * GitHub, AWS, Google, Slack, JWTs), bearer tokens, and `password=`-style pairs. Each secret is
 * replaced by a marker such as `[REDACTED:github-token]` and counted.
 *
 * Redaction runs on whole entries before any trimming, so a cut can never leave half a secret
 * that no longer matches its shape.
 *
 * Every rule costs time linear in the text: the key rules find boundary lines by their literal
 * start and walk from there (a 1 MB pasted certificate chain takes milliseconds, see
 * bench/compose_bench.ts); `redact_keys_test.ts` holds them to the plain regular expressions they
 * replace.
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
// A key block's boundary lines, tried only where their literal start occurs (sticky).
const _KEY_BEGIN_AT = new RegExp(String.raw`-----BEGIN ${_KEY_NAME}-----`, "y");
const _KEY_END_AT = new RegExp(String.raw`-----END ${_KEY_NAME}-----`, "y");
// A block's body is at most this long (a 16384-bit RSA key is ~13 KB; armour adds headers).
const _KEY_BODY_MAX = 65_536;
const _KEY_BODY_LINE = String
  .raw`[ \t]*(?:[A-Za-z0-9+/=]{16,}|[A-Za-z-]+:[^\n]*|=[A-Za-z0-9+/]{4})`;
// A block whose end the recording did not show: the begin line and the body lines after it.
// Linear: the repetition is the pattern's end, so it never backtracks.
const _KEY_BEGIN_ONLY = new RegExp(
  String.raw`-----BEGIN ${_KEY_NAME}-----(?:\n${_KEY_BODY_LINE})*`,
  "g",
);

/** Where a boundary line (`-----BEGIN …PRIVATE KEY-----` or `-----END …`) starts and ends. */
interface _Boundary {
  start: number;
  end: number;
}

// Every boundary line of one kind, in order. Each candidate is tried once, and the name run it
// scans stops at the next `-`, so the whole search is linear.
function _boundaries(text: string, literal: string, at: RegExp): _Boundary[] {
  const found: _Boundary[] = [];
  for (let i = text.indexOf(literal); i !== -1; i = text.indexOf(literal, i + 1)) {
    at.lastIndex = i;
    if (at.test(text)) found.push({ start: i, end: at.lastIndex });
  }
  return found;
}

// Whole blocks: a begin line, then the first end line at most _KEY_BODY_MAX later. The same as
// /BEGIN[\s\S]{0,65536}?END/g, without scanning 64 KB again at every begin that has no end.
function _replaceBlocks(text: string, marker: () => string): string {
  const begins = _boundaries(text, "-----BEGIN ", _KEY_BEGIN_AT);
  if (begins.length === 0) return text;
  const ends = _boundaries(text, "-----END ", _KEY_END_AT);
  let out = "";
  let from = 0;
  let e = 0;
  for (const b of begins) {
    if (b.start < from) continue;
    while (e < ends.length && ends[e].start < b.end) e++;
    if (e === ends.length) break;
    if (ends[e].start - b.end > _KEY_BODY_MAX) continue;
    out += text.slice(from, b.start) + marker();
    from = ends[e].end;
  }
  return from === 0 ? text : out + text.slice(from);
}

const _isBase64 = (c: number) =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) ||
  c === 0x2b || c === 0x2f || c === 0x3d;
const _isBlank = (c: number) => c === 0x20 || c === 0x09;

// Where the body-line run ending at `lineEnd` (a newline's index) begins, or -1: the trailing
// `[ \t]*[A-Za-z0-9+/=]{16,}` of the line. `whole` says whether it covers the line.
function _bodyTail(text: string, lineStart: number, lineEnd: number): [number, boolean] {
  let i = lineEnd;
  while (i > lineStart && _isBase64(text.charCodeAt(i - 1))) i--;
  if (lineEnd - i < 16) return [-1, false];
  while (i > lineStart && _isBlank(text.charCodeAt(i - 1))) i--;
  return [i, i === lineStart];
}

// Ends whose beginning the recording did not show (a screen's last lines, or a cut): the end line
// and the base64 lines right above it. The same as the leftmost matches of
// /(?:[ \t]*[A-Za-z0-9+/=]{16,}\n)*[ \t]*-----END …-----/g, found by walking up from each end
// line instead of trying the lines below at every position (which was quadratic in a block's
// size). Each walk stops at the previous end line, so every character is looked at a few times.
function _replaceEnds(text: string, marker: () => string): string {
  const ends = _boundaries(text, "-----END ", _KEY_END_AT);
  if (ends.length === 0) return text;
  let out = "";
  let from = 0;
  for (const end of ends) {
    if (end.start < from) continue;
    let start = end.start;
    while (start > from && _isBlank(text.charCodeAt(start - 1))) start--;
    // Only an end line with nothing but blanks before it continues a block above.
    let lineStart = start === 0 || text[start - 1] === "\n" ? start : -1;
    while (lineStart > from) {
      const prevStart = text.lastIndexOf("\n", lineStart - 2) + 1;
      const [tail, whole] = _bodyTail(text, Math.max(prevStart, from), lineStart - 1);
      if (tail === -1) break;
      start = tail;
      if (!whole || prevStart < from) break;
      lineStart = prevStart;
    }
    out += text.slice(from, start) + marker();
    from = end.end;
  }
  return out + text.slice(from);
}

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
    out = _replaceBlocks(out, key);
    if (out.includes("-----BEGIN ")) out = out.replace(_KEY_BEGIN_ONLY, key);
    out = _replaceEnds(out, key);
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
