/**
 * The soak benchmark's agent (bench/soak_bench.ts): a small real program that draws like Claude
 * Code over a long session. For each line typed it runs one turn of about `--turn-bytes` bytes
 * of output: the prompt echoed, a spinner redrawn in place, long tool output (file listings,
 * code, test logs, in colour), a storm of full-screen redraws, the answer, the idle screen. Then
 * it writes the turn's number to `--done FILE` (the benchmark types the next prompt when it
 * sees it). A line `LIMIT` draws Claude's session-limit menu, and it waits there.
 *
 * @module
 */
import { claudeScreen } from "../adapters/_limit_screens_test_util.ts";
import { claudeLimitLine } from "../src/sim/limit.ts";

if (Deno.args[0] === "--version") {
  console.log("2.1.332 (Claude Code)");
  Deno.exit(0);
}
const arg = (name: string, fallback: string) => {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : fallback;
};
const TURN_BYTES = Number(arg("--turn-bytes", "262144"));
const DONE = arg("--done", "/dev/null");
const enc = new TextEncoder();
const out = (text: string) => {
  const bytes = enc.encode(text);
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
};
const frame = (rows: string[]) => "\x1b[H\x1b[2J" + rows.join("\r\n");

let seed = 1;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const WORDS = [
  "const",
  "return",
  "await",
  "cart.total",
  "items",
  "=>",
  "if",
  "(error)",
  "src/cart.ts",
  "expect(",
  "toBe(42)",
  "✓",
  "✗",
  "naïve",
  "日本語",
  "// TODO",
  "+",
  "-",
  "{",
  "}",
];
const COLOURS = ["\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[36m", "\x1b[2m", ""];
function toolLine(i: number): string {
  const kind = i % 4;
  const n = 4 + Math.floor(random() * 14);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]);
  if (kind === 0) return `  ${String(i).padStart(5)} │ ${words.join(" ")}`;
  if (kind === 1) {
    return `${COLOURS[Math.floor(random() * COLOURS.length)]}  ✓ test ${i}: ${words.join(" ")} (${
      Math.floor(random() * 900)
    }ms)\x1b[0m`;
  }
  if (kind === 2) return `-rw-r--r-- 1 dev dev ${Math.floor(random() * 1e6)} src/${words[0]}.ts`;
  return `${words.join(" ")} ${Math.floor(random() * 1e9).toString(36)}`;
}

function turn(n: number, prompt: string): void {
  let written = 0;
  let pending = "";
  // Written in pieces of ~16 KB, as an agent's renderer flushes.
  const w = (text: string) => {
    pending += text;
    written += text.length;
    if (pending.length >= 16_384) {
      out(pending);
      pending = "";
    }
  };
  w(frame(claudeScreen([`> ${prompt}`, "", "● I'll look into it."], "busy")));
  // The spinner: redrawn in place many times a second while the model thinks.
  const spin = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
  for (let i = 0; i < 40; i++) {
    w(`\r\x1b[2K${spin[i % spin.length]} Sautéing… (${i}s · esc to interrupt)`);
  }
  // Long tool output, then storms of full redraws, until the turn's size.
  let line = 0;
  while (written < TURN_BYTES * 0.6) w(`\r\n${toolLine(line++)}`);
  const rows = Array.from({ length: 30 }, (_, i) => toolLine(i));
  while (written < TURN_BYTES * 0.95) {
    w(frame(claudeScreen([`> ${prompt}`, ...rows.slice(0, 12), "● Running the tests…"], "busy")));
    rows.push(rows.shift()!);
  }
  w(frame(claudeScreen([`> ${prompt}`, "", `● Done with turn ${n}. The tests pass.`], "input")));
  out(pending);
}

let n = 0;
const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
out(frame(claudeScreen([], "input")));
let buffered = "";
for await (const chunk of lines) {
  buffered += chunk;
  let at;
  while ((at = buffered.search(/[\r\n]/)) >= 0) {
    const prompt = buffered.slice(0, at).trim();
    buffered = buffered.slice(at + 1);
    if (!prompt) continue;
    if (prompt === "LIMIT") {
      out(frame(claudeScreen([claudeLimitLine()], "menu")));
      continue;
    }
    turn(++n, prompt);
    Deno.writeTextFileSync(DONE, String(n));
  }
}
