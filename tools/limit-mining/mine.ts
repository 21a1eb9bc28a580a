/**
 * The limit-message miner's command: for each agent installed as `NAME@VERSION/` in the agents
 * folder, reads its shipped code, writes the raw candidates to
 * `testdata/limit-mining/NAME-VERSION.json`, and prints first what changed against the previous
 * mined release and against `adapters/limits/NAME.json`. See `--help` and docs/limit-data.md.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { type Candidate, CandidateSet } from "./candidates.ts";
import { type AgentLayout, forEachSource } from "./package_sources.ts";
import { type DataMessage, diffData, diffReleases } from "./release_diff.ts";

const REPO = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const LAYOUTS: Record<string, AgentLayout> = JSON.parse(
  await Deno.readTextFile(new URL("./agents.json", import.meta.url)),
);

const HELP = `Mines an installed agent package for its messages about usage limits, quotas,
credits, spend, plans, capacity, rate limits and retries, and says what changed.

Usage:
  deno run -A tools/limit-mining/mine.ts [options] [NAME | NAME@VERSION ...]

With no NAME, mines every NAME@VERSION folder in the agents folder whose NAME it knows
(${Object.keys(LAYOUTS).join(", ")};
tools/limit-mining/agents.json says where each keeps its code).

Options:
  --agents-dir DIR   where agents are installed as NAME@VERSION/ (default: $UULDANA_AGENTS_DIR)
  --out DIR          where candidates go (default: testdata/limit-mining)
  --data DIR         the classified messages (default: adapters/limits)
  --date YYYY-MM-DD  the date written with the candidates (default: today)
  --all              list every unclassified candidate, not only the ones new in this release
  -h, --help         this help

Examples:
  # one agent at the version installed in /work/agents
  deno run -A tools/limit-mining/mine.ts --agents-dir /work/agents claude
  # every agent found there
  UULDANA_AGENTS_DIR=/work/agents deno run -A tools/limit-mining/mine.ts

For each release it prints, before anything else, the candidates new, changed and removed since
the newest earlier release in --out, then the messages of --data/NAME.json that the release no
longer ships or ships reworded, then the candidates no message covers yet. Classify those by
reading the code each candidate names (file, offset, code), in --data/NAME.json.`;

/** A candidates file: `testdata/limit-mining/<agent>-<version>.json`. */
interface CandidatesFile {
  agent: string;
  package: string;
  version: string;
  date: string;
  files: string[];
  candidates: Candidate[];
}

function fail(message: string): never {
  console.error(message);
  Deno.exit(2);
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((x) => Number(x));
  const pb = b.split(/[.-]/).map((x) => Number(x));
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d;
  }
  return 0;
}

async function installs(
  dir: string,
  wanted: string[],
): Promise<{ agent: string; version: string }[]> {
  const found: { agent: string; version: string }[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      const m = /^([a-z]+)@(\d[\w.-]*)$/.exec(e.name);
      if (!e.isDirectory || !m || !LAYOUTS[m[1]]) continue;
      const [, agent, version] = m;
      if (wanted.length && !wanted.some((w) => w === agent || w === `${agent}@${version}`)) {
        continue;
      }
      found.push({ agent, version });
    }
  } catch {
    fail(`No agents folder at ${dir}: pass --agents-dir DIR (agents installed as NAME@VERSION/).`);
  }
  return found.sort((a, b) =>
    a.agent.localeCompare(b.agent) || compareVersions(a.version, b.version)
  );
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as T;
  } catch {
    return null;
  }
}

async function previousRelease(
  out: string,
  agent: string,
  version: string,
): Promise<CandidatesFile | null> {
  let best: string | null = null;
  try {
    for await (const e of Deno.readDir(out)) {
      const m = new RegExp(`^${agent}-(\\d[\\w.-]*)\\.json$`).exec(e.name);
      if (!m || compareVersions(m[1], version) >= 0) continue;
      if (!best || compareVersions(m[1], best) > 0) best = m[1];
    }
  } catch {
    return null;
  }
  return best ? await readJson<CandidatesFile>(`${out}/${agent}-${best}.json`) : null;
}

/** A text on one line: its line breaks shown as \\n. */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, "\\n");
}

function list(title: string, items: string[], limit = Infinity): void {
  console.log(`${title}: ${items.length}`);
  for (const t of items.slice(0, limit)) console.log(`  ${oneLine(t)}`);
  if (items.length > limit) console.log(`  … ${items.length - limit} more (--all lists them)`);
}

async function mineOne(
  agentsDir: string,
  agent: string,
  version: string,
  opts: { out: string; data: string; date: string; all: boolean },
): Promise<void> {
  const layout = LAYOUTS[agent];
  const set = new CandidateSet();
  const files: string[] = [];
  await forEachSource(`${agentsDir}/${agent}@${version}`, layout, (source) => {
    files.push(source.file);
    set.mine(source.file, source.bytes, source.kind, source.fill);
  });
  if (files.length === 0) {
    fail(`No code found for ${agent}@${version} in ${agentsDir}: is it installed there?`);
  }
  const candidates = set.list();
  const result: CandidatesFile = {
    agent,
    package: layout.package,
    version,
    date: opts.date,
    files,
    candidates,
  };
  console.log(`== ${agent} ${version}: ${candidates.length} candidates from ${files.length} files`);

  const previous = await previousRelease(opts.out, agent, version);
  const texts = candidates.map((c) => c.text);
  let fresh = new Set(texts);
  if (previous) {
    const d = diffReleases(previous.candidates.map((c) => c.text), texts);
    console.log(`-- against ${agent} ${previous.version}`);
    list("new", d.added);
    console.log(`changed: ${d.changed.length}`);
    for (const c of d.changed) console.log(`  - ${oneLine(c.before)}\n  + ${oneLine(c.after)}`);
    list("removed", d.removed);
    fresh = new Set([...d.added, ...d.changed.map((c) => c.after)]);
  }
  const data = await readJson<{ messages: DataMessage[] }>(`${opts.data}/${agent}.json`);
  if (data) {
    const d = diffData(data.messages, candidates, version);
    console.log(`-- against ${opts.data}/${agent}.json (${data.messages.length} messages)`);
    console.log(`changed: ${d.changed.length}`);
    for (const c of d.changed) {
      console.log(`  ${c.id}: - ${c.template}\n  ${" ".repeat(c.id.length)}  + ${c.now}`);
    }
    list("no longer shipped", d.removed.map((r) => `${r.id}: ${r.template}`));
    const unclassified = opts.all || !previous
      ? d.unclassified
      : d.unclassified.filter((t) => fresh.has(t));
    list(
      previous && !opts.all ? "unclassified, new in this release" : "unclassified",
      unclassified,
      opts.all ? Infinity : 40,
    );
  }
  await Deno.mkdir(opts.out, { recursive: true });
  const path = `${opts.out}/${agent}-${version}.json`;
  await Deno.writeTextFile(path, JSON.stringify(result, null, 2) + "\n");
  console.log(`wrote ${path}`);
}

if (import.meta.main) {
  let parsed;
  try {
    parsed = parseArgs({
      args: Deno.args,
      allowPositionals: true,
      options: {
        "agents-dir": { type: "string" },
        out: { type: "string", default: `${REPO}/testdata/limit-mining` },
        data: { type: "string", default: `${REPO}/adapters/limits` },
        date: { type: "string", default: new Date().toISOString().slice(0, 10) },
        all: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (e) {
    fail(`${(e as Error).message.split(". ")[0]}: see --help.`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(HELP);
    Deno.exit(0);
  }
  const agentsDir = values["agents-dir"] ?? Deno.env.get("UULDANA_AGENTS_DIR");
  if (!agentsDir) {
    fail("Say where the agents are installed: --agents-dir DIR or UULDANA_AGENTS_DIR.");
  }
  for (const p of positionals) {
    if (!LAYOUTS[p.split("@")[0]]) {
      fail(`Unknown agent ${p}: known are ${Object.keys(LAYOUTS).join(", ")}.`);
    }
  }
  const found = await installs(agentsDir, positionals);
  if (found.length === 0) {
    fail(
      `No ${positionals.join(", ") || "known agent"} installed in ${agentsDir} as NAME@VERSION/.`,
    );
  }
  for (const { agent, version } of found) {
    await mineOne(agentsDir, agent, version, {
      out: values.out,
      data: values.data,
      date: values.date,
      all: values.all,
    });
  }
}
