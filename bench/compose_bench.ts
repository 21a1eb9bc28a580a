/**
 * Composing is on the switch path: the delivered text must take < 5 ms for a 1 MB transcript.
 * The "keys" group is the worst case for redaction: 1 MB of pasted certificate chains that
 * mention PRIVATE KEY (the old end-line rule was quadratic in a block's size: 100 KB took 22 s),
 * one huge PEM block, and begin lines that never close.
 * Run: `tools/deno.sh bench -A bench/compose_bench.ts`.
 */
import { composeFull, composeHandoff } from "../src/handoff/compose.ts";
import type { HandoffPackage, TranscriptEntry } from "../src/handoff/package.ts";
import { redact } from "../src/handoff/redact.ts";
import { certificateChains, pemBlock, unclosedKeyBegins } from "./_key_text.ts";

// ~1 MB of realistic screen text: words, multibyte and astral characters, some escapes and
// secret-like shapes, many lines.
function transcriptText(size: number, seed: number): string {
  const words = [
    "fix",
    "the",
    "failing",
    "test",
    "naïve",
    "日本語",
    "😀",
    "\x1b[31m",
    "password=x1",
    "src/cart.ts",
    "● Write",
    "⎿",
    "handoff",
  ];
  const parts: string[] = [];
  let n = 0;
  for (let i = seed; n < size; i++) {
    const w = words[(i * 7) % words.length] + ((i % 13) ? " " : "\n");
    parts.push(w);
    n += w.length;
  }
  return parts.join("");
}

function pkg(entries: TranscriptEntry[]): HandoffPackage {
  return {
    workspace: "/home/dev/shop",
    git: { branch: "main", status: " M src/cart.ts" },
    from: "claude",
    to: "codex",
    reason: {
      kind: "limit",
      message: "You've hit your session limit · resets 3:01am (UTC)",
      resetsAt: null,
    },
    time: "2026-11-30T01:33:00Z",
    entries,
  };
}

const MB = 1_000_000;
const oneHuge = pkg([
  { role: "user", text: "Add a cart total with tax.", fidelity: "keystrokes" },
  { role: "agent", text: transcriptText(MB, 1), fidelity: "screen" },
]);
const many = pkg(Array.from({ length: 1000 }, (_, i) => ({
  role: i % 2 ? "agent" : "user",
  text: transcriptText(MB / 1000, i),
  fidelity: i % 2 ? "screen" : "keystrokes",
})));
const opts = { pointer: "/data/handoffs/20261130T013300Z-abcdef.md", nonce: "0123456789ab" };

Deno.bench("composeHandoff hook, 1 MB in one entry", { group: "delivered", baseline: true }, () => {
  composeHandoff(oneHuge, { road: "hook", ...opts });
});
Deno.bench("composeHandoff prompt, 1 MB in 1000 entries", { group: "delivered" }, () => {
  composeHandoff(many, { road: "prompt", ...opts });
});
Deno.bench("composeFull, 1 MB in one entry (the file)", { group: "full" }, () => {
  composeFull(oneHuge, opts);
});
Deno.bench("composeFull, 1 MB in 1000 entries (the file)", { group: "full" }, () => {
  composeFull(many, opts);
});

const chains = certificateChains(MB);
const oneBlock = pemBlock("CERTIFICATE", MB / 65, 1) + "\nand the PRIVATE KEY?";
const unclosed = unclosedKeyBegins(MB);
const certificates = pkg([
  { role: "user", text: "Why does nginx reject this chain?\n" + chains, fidelity: "keystrokes" },
  { role: "agent", text: transcriptText(MB / 10, 3), fidelity: "screen" },
]);

Deno.bench("redact, 1 MB of certificate chains", { group: "keys", baseline: true }, () => {
  redact(chains);
});
Deno.bench("redact, one 1 MB PEM block", { group: "keys" }, () => {
  redact(oneBlock);
});
Deno.bench("redact, 1 MB of unclosed key begin lines", { group: "keys" }, () => {
  redact(unclosed);
});
Deno.bench("composeFull + composeHandoff prompt, 1 MB of certificate chains", {
  group: "keys",
}, () => {
  composeFull(certificates, opts);
  composeHandoff(certificates, { road: "prompt", ...opts });
});
