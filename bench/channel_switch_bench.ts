/**
 * The channel against the screen, side by side in one run: from the moment an agent shows its
 * usage limit (and, with its channel, reports it through its StopFailure hook) to the moment the
 * next agent's process runs with its opening prompt, through the real `uuldana run`.
 *
 *   tools/deno.sh run -A bench/channel_switch_bench.ts [RUNS]
 *
 * The first agent is a tiny shell program that answers `--version`/`--help` like Claude Code and
 * runs the hooks of the `--settings` uuldana gives it as Claude does (SessionStart at start,
 * UserPromptSubmit at the submit, StopFailure with `error: "rate_limit"` right after drawing the
 * limit), so its own start-up is not what is measured. Cases:
 *
 * - screen only: no hook fires (Claude with hooks disabled); the screen's limit acts alone;
 * - channel and a known screen: both say it (Claude 2.1.197's limit row);
 * - channel and a screen uuldana does not know (Claude 2.1.332's new layout, before uuldana
 *   learned it): the channel alone; the screen alone would never switch.
 *
 * Each writes a nanosecond timestamp just before drawing the limit; the next agent, as its first
 * act.
 *
 * @module
 */
import { join } from "node:path";
import { fakeAgent, timeSwitch } from "./_switch_world.ts";

const runs = Number(Deno.args[0] ?? 10);

type Case = "screen" | "known" | "unknown";

const KNOWN = [
  "  ⎿  You've hit your session limit · resets 3:01am (UTC)",
  "",
  "✻ Sautéed for 0s",
  "",
  "❯ /rate-limit-options",
  "",
  "─".repeat(100),
  "  What do you want to do?",
  "",
  "  ❯ 1. Stop and wait for limit to reset",
];
const UNKNOWN = [
  "  ⎿  You've hit your 5-hour limit · resets 3:01am (UTC)",
  "",
  "● Usage limit reached · set to continue automatically at 3:01am",
  "",
  "─".repeat(100),
  "❯ ",
  "─".repeat(100),
  "  ⚠ Usage limit reached · limit resets 3:01am",
];

// A shell line that prints `rows` (single quotes escaped).
function _print(rows: string[]): string {
  return rows.map((r) => `printf '%s\\n' '${r.replaceAll("'", `'"'"'`)}'`).join("\n");
}

async function once(i: number, kind: Case): Promise<number> {
  const dir = Deno.makeTempDirSync({ prefix: `uuldana-channel-switch-bench-${i}-` });
  const t0 = join(dir, "t0");
  const hooks = kind !== "screen";
  // Before anything is timed: the hook commands from `--settings`, each into its own file.
  const extract = `python3 - "$@" <<'PY'
import json, sys
argv = sys.argv[1:]
settings = json.loads(argv[argv.index("--settings") + 1]) if "--settings" in argv else {"hooks": {}}
for event in ("SessionStart", "UserPromptSubmit", "StopFailure"):
    groups = settings["hooks"].get(event, [])
    command = groups[-1]["hooks"][0]["command"] if groups else "cat >/dev/null"
    open("${dir}/" + event + ".cmd", "w").write(command)
PY
hook() { /bin/sh -c "$(cat '${dir}'/$1.cmd)" < '${dir}'/$1.json; }`;
  const limitText = (kind === "unknown" ? UNKNOWN : KNOWN)[0].replace(/^\s*⎿\s*/, "");
  const payloads = {
    SessionStart: { source: "startup" },
    UserPromptSubmit: { prompt_id: "p1", prompt: "refactor the parser" },
    StopFailure: { prompt_id: "p1", error: "rate_limit", last_assistant_message: limitText },
  };
  for (const [event, data] of Object.entries(payloads)) {
    Deno.writeTextFileSync(join(dir, `${event}.json`), JSON.stringify(data));
  }
  fakeAgent(
    join(dir, "claude"),
    `${extract}
${hooks ? "hook SessionStart" : ""}
printf '> '; read line
${hooks ? "hook UserPromptSubmit" : ""}
printf '\\n❯ %s\\n' "$line"
date +%s%N > '${t0}'
${_print(kind === "unknown" ? UNKNOWN : KNOWN)}
${hooks ? "hook StopFailure" : ""}
sleep 30`,
    kind === "unknown" ? "2.1.332 (Claude Code)" : "2.1.197 (Claude Code)",
    "Usage: claude [options] [command] [prompt]",
  );
  const ms = await timeSwitch(dir, new TextEncoder().encode("refactor the parser\r"), {
    settleMs: 1500,
    killMs: 20_000,
  });
  Deno.removeSync(dir, { recursive: true });
  return ms;
}

const load = () => Deno.loadavg()[0].toFixed(1);
console.log(
  `limit shown → next agent running with its prompt, ${runs} runs each; load ${load()} on ${navigator.hardwareConcurrency} cores`,
);
console.log(`| what uuldana hears | switched | p50 | p95 | max |`);
console.log(`| --- | ---: | ---: | ---: | ---: |`);
for (
  const [kind, name] of [
    ["screen", "the screen only (hooks off)"],
    ["known", "channel + a screen it knows"],
    ["unknown", "channel + a screen it does not know"],
  ] as const
) {
  const all: number[] = [];
  for (let i = 0; i < runs; i++) all.push(await once(i, kind));
  const samples = all.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const pct = (p: number) =>
    samples.length
      ? `${
        samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)].toFixed(0)
      } ms`
      : "—";
  console.log(
    `| ${name} | ${samples.length}/${runs} | ${pct(50)} | ${pct(95)} | ${
      samples.length ? samples.at(-1)!.toFixed(0) + " ms" : "—"
    } |`,
  );
}
console.log(`load at the end ${load()}`);
