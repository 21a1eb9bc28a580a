/**
 * The real-agent error matrix: every real agent of `agents.json` at npm's current release, under
 * `uuldana run`, against each error its provider can send (`error_lanes.json`, through the mock's
 * lanes). One cell per agent × lane, each in its own world (`matrix_world.ts`): two turns typed,
 * the mock answers the first normally, then the lane answers the second.
 *
 * - **hard**: uuldana must hand off at the agent's first report (channel or screen): the next agent
 *   (simulated) starts on the framed handoff. Timed from the provider's first error answer to the
 *   journal's handoff and to the next agent's first model request.
 * - **transient**: the agent retries or goes on; its later success (a new reply on its screen)
 *   must be seen, and no handoff until 8 s after it.
 * - **warning**: a normal answer with the provider's warning headers; the reply shows, no handoff.
 *
 * Each cell records what the agent drew (its screen rows after the second turn), what its channel
 * said (the journal's first channel event of the run), what uuldana did and how long it took, and
 * whether its runs replay from their recordings to the decisions they made.
 *
 *   deno run -A tools/real-agents/error_matrix.ts --agents-dir /work/agents
 *     [--agents claude,codex] [--errors chat-rate-limit,chat-503] [--dir /tmp/uuldana-errors]
 *     [--patience N] [--jobs N]
 *
 * `--channel-off` runs Claude Code with its hooks off (`--settings {}`: uuldana leaves a launch
 * that brings its own settings alone), so only the screen can see the error.
 *
 * `--stall N` turns the stall rule on for the agent (`stallSeconds`: a silent retry loop hands
 * off once the agent has shown itself busy N seconds).
 *
 * `--jobs N` runs N cells at once (default 1: real agents start slowly on a loaded machine). The
 * results go to `DIR/error-matrix.json` (merged run after run) and the table, in Markdown, to
 * stdout (`--table` prints it from that file alone).
 *
 * @module
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { readSimLog } from "../../src/sim/log.ts";
import { AGENT_API, type ErrorLane, loadLanes } from "./error_lanes.ts";
import {
  firstTurn,
  handoffTimes,
  install,
  leftovers,
  nodeVersion,
  npmView,
  replayCheck,
  SECOND,
  setPatience,
  SPECS,
} from "./matrix.ts";
import { type AgentSpec, sleep, World } from "./matrix_world.ts";
import { resolveRelease } from "./release.ts";

/** One cell's outcome. */
export interface ErrorCell {
  agent: string;
  version: string;
  lane: string;
  class: ErrorLane["class"];
  /** `pass`, or `FAIL: why`. */
  result: string;
  /** The agent's screen rows about the error (after the second turn's echo). */
  drawn: string[];
  /** The channel's first report of the run after the error (`limit …`, `error …`), or none. */
  channel: string | null;
  /** What uuldana did: `handed off (screen|channel)`, `no handoff`, with rejected decisions. */
  uuldana: string;
  /** Seconds from the first error answer to the handoff, and to the next agent's first request. */
  toHandoff?: number;
  toNextAgent?: number;
  /** Seconds from the first error answer to the agent's later success (transient, warning). */
  toSuccess?: number;
  /** The cell's runs replayed from their recordings (`same: …` or `FAIL: …`, matrix.ts). */
  replay?: string;
  /** The cell's world, where its screen, mock log and journal stay. */
  dir: string;
  load: string;
  date: string;
}

/** What a cell finds itself (the rest of {@link ErrorCell} is the run's). */
type CellCore = Omit<ErrorCell, "agent" | "version" | "lane" | "dir" | "load" | "date">;

/** The arguments that turn an agent's channel off for one launch (docs/channels.md). */
const CHANNEL_OFF_ARGS: Readonly<Record<string, string[]>> = { claude: ["--settings", "{}"] };

const ERROR_WORDS =
  /error|limit|credit|quota|retry|retrying|overload|usage|capacity|exhausted|disabled|rate|balance|429|529|503|switch|increase/i;
const MOCKREPLY = /MOCKREPLY-(\d+)/g;
const replies = (screen: string) => new Set([...screen.matchAll(MOCKREPLY)].map((m) => m[1]));
const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");

/**
 * The rows of `screen` after the last echo of the second turn that speak of the error (not the
 * rows naming the cell's folder `root`, whole or shortened to its name, `/tmp/.../qwen-chat-503-…`,
 * whose path may hold those words).
 */
export function drawnRows(screen: string, root = "", max = 4): string[] {
  const rows = screen.split("\n");
  let from = -1;
  rows.forEach((r, i) => {
    if (r.includes(SECOND)) from = i;
  });
  return rows.slice(from + 1).map((r) => r.trim()).filter((r) =>
    r && ERROR_WORDS.test(r) && !r.includes(SECOND) &&
    !(root && (r.includes(root) || r.includes(basename(root))))
  ).slice(0, max).map((r) => r.slice(0, 140));
}

function args() {
  const a = Deno.args;
  const at = (flag: string) => (a.indexOf(flag) >= 0 ? a[a.indexOf(flag) + 1] : undefined);
  const dir = at("--dir") ?? "/tmp/uuldana-errors";
  return {
    agents: (at("--agents") ?? Object.keys(AGENT_API).join(",")).split(","),
    errors: at("--errors")?.split(",") ?? null,
    dir,
    agentsDir: at("--agents-dir") ?? Deno.env.get("UULDANA_AGENTS_DIR") ?? join(dir, "agents"),
    patience: Number(at("--patience") ?? 1),
    jobs: Math.max(1, Number(at("--jobs") ?? 1)),
    tableOnly: a.includes("--table"),
    channelOff: a.includes("--channel-off"),
    stall: Number(at("--stall") ?? 0),
  };
}

/** What the journal says about the agent's run: its first channel report and uuldana's acts. */
function journalSays(
  w: World,
  x: string,
): { channel: string | null; acted: string | null; rejected: number; screen: string[] } {
  return w.journal((j) => {
    const run = j.runs(50).findLast((r) => r.agent === x);
    if (!run) return { channel: null, acted: null, rejected: 0, screen: [] };
    const ds = j.decisions(run.id);
    const ev = ds.find((d) =>
      d.verdict === "event" && (d.event?.type === "limit" || d.event?.type === "error")
    )?.event;
    const channel = !ev
      ? null
      : ev.type === "limit"
      ? `limit ${ev.kind}${ev.status ? ` ${ev.status}` : ""}${ev.code ? ` ${ev.code}` : ""}: ${
        ev.message.slice(0, 100)
      }`
      : ev.type === "error"
      ? `error${ev.status ? ` ${ev.status}` : ""}: ${ev.message.slice(0, 100)}`
      : null;
    const act = ds.find((d) => d.verdict === "acted");
    const acted = act
      ? `${act.source}${act.hit ? `: ${act.hit.kind} "${act.hit.message.slice(0, 80)}"` : ""}`
      : null;
    return {
      channel,
      acted,
      rejected: ds.filter((d) => d.verdict === "rejected").length,
      // The screen the run ended on (kept at a handoff): the agent's own, whole.
      screen: j.screen(run.id) ?? [],
    };
  });
}

/** Runs one cell: agent `x` against lane `name`. */
async function errorCell(
  w: World,
  x: string,
  bin: string,
  spec: AgentSpec,
  name: string,
  lane: ErrorLane,
): Promise<CellCore> {
  const to = await firstTurn(w, x, bin, spec);
  const before = replies(await w.term.capture());
  await w.mock.lane(name);
  await w.type(SECOND);
  const started = () =>
    readSimLog(w.simLog(to)).find((e) => e.event === "start" && e.mode === "tui") ?? null;
  const firstError = () => w.mock.requests().find((r) => r.limited && r.account === "agent");
  // Watch the screen until the handoff, or (transient, warning) the agent's later success and 8 s.
  let agentScreen = "";
  // The last screen that showed the error (a transient one is gone once the agent succeeds).
  let errorScreen = "";
  let succeededAt: number | null = null;
  const deadline = Date.now() + (lane.class === "hard" ? 180_000 : 240_000) * patienceOf();
  while (Date.now() < deadline) {
    if (started()) break;
    const screen = await w.term.capture();
    // The agent's own screen, before uuldana's line about the switch is printed under it.
    if (!/^uuldana: \S+ → /m.test(screen)) agentScreen = screen;
    if (succeededAt === null && drawnRows(agentScreen, w.root).length) errorScreen = agentScreen;
    if (succeededAt === null && [...replies(screen)].some((n) => !before.has(n))) {
      succeededAt = Date.now();
    }
    if (lane.class !== "hard" && succeededAt !== null && Date.now() - succeededAt > 8000) break;
    await sleep(250);
  }
  const handed = started();
  const said = journalSays(w, x);
  const errorAt = firstError()?.t;
  const drawn = drawnRows(
    handed && said.screen.length ? said.screen.join("\n") : errorScreen || agentScreen,
    w.root,
  );
  const base = {
    class: lane.class,
    drawn,
    channel: said.channel,
    uuldana: handed
      ? `handed off (${said.acted ?? "?"})`
      : `no handoff${said.rejected ? ` (${said.rejected} rejected)` : ""}`,
    ...(succeededAt !== null && errorAt
      ? { toSuccess: round((succeededAt - errorAt) / 1000) }
      : {}),
  };
  if (lane.class === "hard") {
    if (!handed) return { ...base, result: "FAIL: no handoff (the work stands still)" };
    const times = await handoffTimes(w, x, Date.parse(String(handed.time)));
    const left = await leftovers(bin, w.root);
    if (times.timeline) console.log(`  timeline: ${times.timeline}`);
    return {
      ...base,
      result: left ? `FAIL: ${left}` : "pass",
      ...(times.toHandoff !== undefined ? { toHandoff: times.toHandoff } : {}),
      ...(times.toNextAgent !== undefined ? { toNextAgent: times.toNextAgent } : {}),
    };
  }
  if (handed) {
    const times = await handoffTimes(w, x, Date.parse(String(handed.time)));
    return {
      ...base,
      result: `FAIL: handed off a working agent${
        succeededAt === null ? " before its retry succeeded" : ""
      }`,
      ...(times.toHandoff !== undefined ? { toHandoff: times.toHandoff } : {}),
    };
  }
  if (!errorAt && lane.class === "transient") {
    return { ...base, result: "FAIL: the agent never met the error" };
  }
  if (succeededAt === null) {
    return { ...base, result: "FAIL: the agent's later success never showed" };
  }
  return { ...base, result: "pass" };
}

let patienceValue = 1;
const patienceOf = () => patienceValue;
const round = (n: number) => Math.round(n * 10) / 10;

/** The table, in Markdown, one row per cell, agents in agents.json's order. */
export function renderErrorTable(cells: readonly ErrorCell[]): string {
  const order = Object.keys(AGENT_API);
  const esc = (s: string) => s.replaceAll("|", "\\|").replaceAll("`", "'");
  // A dialog's borders and padding say nothing.
  const row = (s: string) => s.replace(/[│┃]/g, " ").replace(/\s+/g, " ").trim();
  const rows = [...cells].sort((a, b) =>
    order.indexOf(a.agent) - order.indexOf(b.agent) || a.lane.localeCompare(b.lane)
  ).map((c) => {
    const times = [
      c.toHandoff !== undefined ? `handoff ${c.toHandoff} s` : "",
      c.toNextAgent !== undefined ? `next agent ${c.toNextAgent} s` : "",
      c.toSuccess !== undefined ? `success ${c.toSuccess} s` : "",
    ].filter(Boolean).join(", ");
    return `| ${c.agent} ${c.version} | ${c.lane} (${c.class}) | ${
      esc(c.drawn.map(row).join(" ⏎ ") || "—")
    } | ${esc(c.channel ?? "—")} | ${esc(c.uuldana)} | ${times || "—"} | ${
      esc(c.result)
    } | ${c.load} |`;
  });
  return [
    "| agent | error (class) | what the agent drew | its channel | uuldana | time from the first error | result | load |",
    "| ----- | ------------- | ------------------- | ----------- | ------- | ------------------------- | ------ | ---- |",
    ...rows,
  ].join("\n");
}

function readResults(file: string): ErrorCell[] {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];
}

async function main(): Promise<void> {
  const opts = args();
  const file = join(opts.dir, "error-matrix.json");
  if (opts.tableOnly) {
    console.log(renderErrorTable(readResults(file)));
    return;
  }
  setPatience(opts.patience);
  patienceValue = opts.patience > 0 ? opts.patience : 1;
  Deno.mkdirSync(opts.dir, { recursive: true });
  const lanes = loadLanes();
  const node = await nodeVersion();
  const date = new Date().toISOString().slice(0, 10);
  // Each agent's release and binary first (npm is asked once per agent), then the cells.
  const jobs: (() => Promise<ErrorCell>)[] = [];
  for (const x of opts.agents) {
    const known = SPECS[x];
    if (!known || !AGENT_API[x]) throw new Error(`no agent "${x}" the error matrix knows`);
    if (opts.channelOff && !CHANNEL_OFF_ARGS[x]) {
      throw new Error(`no way to turn ${x}'s channel off`);
    }
    const spec = {
      ...known,
      ...(opts.channelOff ? { args: CHANNEL_OFF_ARGS[x] } : {}),
      ...(opts.stall > 0 ? { stallSeconds: opts.stall } : {}),
    };
    const release = await resolveRelease(spec, npmView, node);
    const { bin } = await install(opts.agentsDir, x, spec, release);
    for (const [name, lane] of Object.entries(lanes)) {
      if (lane.api !== AGENT_API[x] || (opts.errors && !opts.errors.includes(name))) continue;
      const label = [
        name,
        ...(opts.channelOff ? ["(channel off)"] : []),
        ...(opts.stall > 0 ? [`(stall ${opts.stall} s)`] : []),
      ].join(" ");
      jobs.push(async () => {
        const w = new World(opts.dir, `${x}-${name}`);
        let got: CellCore;
        try {
          await w.mock.ready();
          got = await errorCell(w, x, bin, spec, name, lane);
        } catch (e) {
          got = {
            class: lane.class,
            drawn: drawnRows(await w.term.capture().catch(() => ""), w.root),
            channel: null,
            uuldana: "?",
            result: `FAIL: ${(e as Error).message.split("\n")[0]}`,
          };
        }
        writeFileSync(join(w.root, "screen.txt"), await w.term.capture().catch(() => ""));
        const cell: ErrorCell = {
          agent: x,
          version: release.version,
          lane: label,
          ...got,
          dir: w.root,
          load: load(),
          date,
        };
        await w.end().catch(() => {});
        // The runs replay from their recordings to the decisions they made, pass or fail.
        cell.replay = replayCheck(w.data).split("\n")[0].slice(0, 200);
        if (cell.replay.startsWith("FAIL") && cell.result === "pass") {
          cell.result = `FAIL: the runs do not replay to their decisions (${cell.replay})`;
        }
        await w.close();
        console.log(
          `${x} ${release.version} ${label} (${lane.class}): ${cell.result}  [${w.root}]`,
        );
        console.log(`  drawn: ${cell.drawn.join(" ⏎ ") || "—"}`);
        console.log(
          `  channel: ${cell.channel ?? "—"}; uuldana: ${cell.uuldana}; load ${cell.load}`,
        );
        console.log(`  replay: ${cell.replay}`);
        return cell;
      });
    }
  }
  const done: ErrorCell[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(opts.jobs, jobs.length) }, async () => {
      while (next < jobs.length) {
        const cell = await jobs[next++]();
        done.push(cell);
        const kept = readResults(file).filter((c) =>
          !(c.agent === cell.agent && c.lane === cell.lane)
        );
        writeFileSync(file, JSON.stringify([...kept, cell], null, 2) + "\n");
      }
    }),
  );
  console.log("");
  console.log(renderErrorTable(readResults(file)));
  const failed = done.filter((c) => c.result !== "pass");
  console.log(`\n${done.length - failed.length} of ${done.length} cells passed`);
}

if (import.meta.main) await main();
