/**
 * Key-shaped text for the benchmarks: what a user pastes when they show an agent their TLS setup
 * (certificate chains in PEM armour, with the words PRIVATE KEY nearby), and the shapes that made
 * the old key rules quadratic or made them rescan 64 KB per begin line.
 *
 * @module
 */

const _B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** `n` base64 characters, varied by `seed` (deterministic). */
export function base64Run(n: number, seed: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += _B64[(i * 31 + seed * 7 + (i >> 3)) % 64];
  return s;
}

/** One PEM block of `lines` 64-character lines under `label`. */
export function pemBlock(label: string, lines: number, seed: number): string {
  const body = Array.from({ length: lines }, (_, i) => base64Run(64, seed * 1000 + i));
  return `-----BEGIN ${label}-----\n${body.join("\n")}\n-----END ${label}-----`;
}

/**
 * About `size` characters of pasted certificate chains: blocks of `linesPerBlock` lines, each
 * chain introduced by a line that mentions the PRIVATE KEY (so the key rules run).
 */
export function certificateChains(size: number, linesPerBlock = 25): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < size; i++) {
    const part = i % 3 === 0
      ? `Here is chain ${i}; the PRIVATE KEY stays in /etc/ssl/private.\n` +
        pemBlock("CERTIFICATE", linesPerBlock, i)
      : pemBlock("CERTIFICATE", linesPerBlock, i);
    parts.push(part);
    n += part.length + 1;
  }
  return parts.join("\n");
}

/** `size` characters made of begin lines that are never closed (each once rescanned 64 KB). */
export function unclosedKeyBegins(size: number): string {
  const line = "-----BEGIN RSA PRIVATE KEY-----\nnot base64 at all\n";
  return line.repeat(Math.ceil(size / line.length));
}
