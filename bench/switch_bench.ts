/**
 * Switch latency: from the moment an agent prints its usage-limit message to the moment the next
 * agent's process is running with its opening prompt, through the real `uuldana run` (script shim,
 * VT interpreter, limit detector, composer, journal). Target: p95 ≤ 250 ms, also when the
 * conversation holds 1 MB of pasted certificate chains that mention PRIVATE KEY (the worst case
 * for redaction, which runs over the whole conversation for the full handoff file).
 *
 *   tools/deno.sh run -A bench/switch_bench.ts [RUNS]
 *
 * The agents are tiny shell programs answering `--version`/`--help` like Claude Code and Codex,
 * so their own start-up time is not what is measured. Each writes a nanosecond timestamp: the
 * first just before printing Claude's limit screen (its `⎿` line, then its limit menu, the second
 * signal uuldana waits for), the second as its first act.
 */
import { join } from "node:path";
import { fakeAgent, timeSwitch } from "./_switch_world.ts";
import { certificateChains } from "./_key_text.ts";

const runs = Number(Deno.args[0] ?? 20);

// What the user sends: a typed request, or a bracketed paste of `paste` and Enter.
function _keys(paste: string | null): Uint8Array {
  const text = paste === null ? "refactor the parser\r" : `\x1b[200~${paste}\x1b[201~\r`;
  return new TextEncoder().encode(text);
}

async function once(i: number, paste: string | null): Promise<number> {
  const dir = Deno.makeTempDirSync({ prefix: `uuldana-switch-bench-${i}-` });
  const t0 = join(dir, "t0");
  const keys = _keys(paste);
  // A paste is read whole with the line discipline off (a canonical line holds 4 KB at most).
  const read = paste === null
    ? `printf '> '; read line
printf '\\n❯ %s\\n' "$line"`
    : `stty -icanon -echo min 1; printf '> '; head -c ${keys.length} > /dev/null
printf '\\n❯ [Pasted text +%s lines]\\n' "${paste.split("\n").length}"`;
  fakeAgent(
    join(dir, "claude"),
    `: > '${join(dir, "ready")}'
${read}
date +%s%N > '${t0}'
printf '  ⎿  You'"'"'ve hit your session limit · resets 3:01am (UTC)\\n\\n✻ Sautéed for 0s\\n\\n❯ /rate-limit-options\\n\\n'
printf '%s\\n' '${
      "─".repeat(100)
    }' '  What do you want to do?' '' '  ❯ 1. Stop and wait for limit to reset'
sleep 30`,
    "2.1.197 (Claude Code)",
    "Usage: claude [options] [command] [prompt]",
  );
  const ms = await timeSwitch(dir, keys, {
    settleMs: 300,
    killMs: 120_000,
    readyFile: join(dir, "ready"),
  });
  if (Number.isNaN(ms)) {
    throw new Error("the second agent did not start with the framed handoff (within 2 min)");
  }
  Deno.removeSync(dir, { recursive: true });
  return ms;
}

const certificates = certificateChains(1_000_000);
const cases: [string, string | null][] = [
  ["a typed request", null],
  ["1 MB of pasted certificate chains mentioning PRIVATE KEY", certificates],
];
console.log(
  `switch latency over ${runs} runs each (limit line printed → next agent running with its prompt)`,
);
console.log(`| conversation | p50 | p95 | max | target p95 |`);
console.log(`| --- | ---: | ---: | ---: | ---: |`);
for (const [name, paste] of cases) {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await once(i, paste));
  samples.sort((a, b) => a - b);
  const pct = (p: number) =>
    samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)];
  console.log(
    `| ${name} | ${pct(50).toFixed(1)} ms | ${pct(95).toFixed(1)} ms | ${
      samples.at(-1)!.toFixed(1)
    } ms | ≤ 250 ms ${pct(95) <= 250 ? "✓" : "✗"} |`,
  );
}
