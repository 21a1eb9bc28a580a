/**
 * The matrix's record of what passed: `adapters/tested_versions.json`, the newest version of each
 * agent every matrix cell passed with (which `uuldana agents` and `doctor` compare an installed
 * agent against), each cell's last result with its version and date, and the agents the matrix
 * cannot run here with the reason. A run merges into it (a rerun of one cell updates that cell);
 * nothing else writes it. Pure, but for `readRecord`/`writeRecord`.
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { compareVersions } from "./release.ts";

/** One cell's last result. */
export interface CellRecord {
  /** The agent's version it ran with. */
  version: string;
  /** The day it ran (YYYY-MM-DD, UTC). */
  date: string;
  /** `pass …` or `FAIL: …`, as the matrix printed it. */
  result: string;
  /** Sender cells: seconds from the provider's first limit answer to uuldana's handoff. */
  toHandoff?: number;
  /** Sender cells: seconds from the provider's first limit answer to the next agent's request. */
  toNextAgent?: number;
  /**
   * The cell's runs replayed from their recordings: `same: R runs, N decisions (A acted)` when
   * each replay made the live run's decisions, else `FAIL: …`.
   */
  replay?: string;
}

/** What the record says about one agent. */
export interface AgentRecord {
  /** The npm package users install. */
  package: string;
  /** The newest version at which every cell passed; null: none yet. */
  tested: string | null;
  /** When the last of those cells passed. */
  date?: string;
  /** npm's latest when it is not what ran (its binary for this platform is not published). */
  latest?: string;
  /** Why `latest` did not run. */
  note?: string;
  /** The Node range the release declares, when this machine's Node is outside it. */
  needsNode?: string;
  /** Why uuldana's tests cannot run the agent for real (shown as "not tested by uuldana: …"). */
  notRun?: string;
  /** Each cell's last result. */
  cells?: Record<string, CellRecord>;
}

/** The whole file. */
export interface TestedVersions {
  _doc: string;
  agents: Record<string, AgentRecord>;
}

/** The record's `_doc`. */
export const RECORD_DOC =
  "The newest version of each agent the real-agent matrix (tools/real-agents/matrix.ts) passed every cell with (`tested`), each cell's last result, and the agents it cannot run for real, and why (`notRun`). Written by the matrix only; `uuldana agents` and `doctor` compare installed agents with `tested`.";

/** Whether a cell result is a pass. */
export const passed = (result: string): boolean => result.startsWith("pass");

/** What one matrix run found for one agent. */
export interface AgentRun {
  name: string;
  package: string;
  /** The version that ran (absent when the agent was not run). */
  version?: string;
  latest?: string;
  note?: string;
  needsNode?: string;
  notRun?: string;
  /** Cells that ran, with their results. */
  cells: Record<string, Omit<CellRecord, "version" | "date">>;
  /** Every cell the agent has (all must pass at one version for `tested`). */
  required: readonly string[];
}

/** `record` with `run` merged in on day `date`. */
export function mergeRun(record: TestedVersions, run: AgentRun, date: string): TestedVersions {
  const old = record.agents[run.name];
  const cells: Record<string, CellRecord> = { ...(old?.cells ?? {}) };
  if (run.version) {
    for (const [cell, r] of Object.entries(run.cells)) {
      cells[cell] = { version: run.version, date, ...r };
    }
  }
  const next: AgentRecord = { package: run.package, tested: old?.tested ?? null };
  if (old?.date) next.date = old.date;
  const all = run.required.map((c) => cells[c]);
  const at = all[0]?.version;
  if (
    all.length > 0 && all.every((c) => c && passed(c.result) && c.version === at) &&
    (next.tested === null || compareVersions(at!, next.tested) >= 0)
  ) {
    next.tested = at!;
    next.date = all.map((c) => c!.date).sort().at(-1)!;
  }
  if (run.latest && run.version && run.latest !== run.version) next.latest = run.latest;
  if (run.note) next.note = run.note;
  if (run.needsNode) next.needsNode = run.needsNode;
  if (run.notRun) next.notRun = run.notRun;
  if (Object.keys(cells).length) next.cells = cells;
  return { _doc: RECORD_DOC, agents: { ...record.agents, [run.name]: next } };
}

/** Reads the record (an empty one when the file is missing). */
export function readRecord(path: string): TestedVersions {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return { _doc: RECORD_DOC, agents: {} };
    throw e;
  }
}

/** Writes the record, agents in `order` first, two-space JSON. */
export function writeRecord(path: string, record: TestedVersions, order: readonly string[]): void {
  const names = [
    ...order.filter((n) => n in record.agents),
    ...Object.keys(record.agents).filter((n) => !order.includes(n)).sort(),
  ];
  const agents = Object.fromEntries(names.map((n) => [n, record.agents[n]]));
  writeFileSync(path, JSON.stringify({ _doc: RECORD_DOC, agents }, null, 2) + "\n");
}

/** The columns of the results table: the cell each shows and its heading. */
export const TABLE_COLUMNS: readonly { cell: string; head: string }[] = [
  { cell: "sender", head: "sender" },
  { cell: "receiver", head: "receiver (default road)" },
  { cell: "paste", head: "paste target" },
  { cell: "store", head: "store road" },
  { cell: "terminal", head: "terminal restored" },
];

/** Seconds as the table shows them (`1.9 s`). */
export function seconds(s: number): string {
  return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
}

/**
 * The replay column: how many of the agent's cells replayed every run to the same decisions, and
 * how many decisions that was (`4/4 cells, 37 decisions`); `—` before any cell checked it.
 */
export function replays(cells: readonly CellRecord[]): string {
  const checked = cells.filter((c) => c.replay !== undefined);
  if (!checked.length) return "—";
  const same = checked.filter((c) => c.replay!.startsWith("same"));
  const decisions = same.reduce(
    (n, c) => n + Number(/(\d+) decisions/.exec(c.replay!)?.[1] ?? 0),
    0,
  );
  return `${same.length}/${checked.length} cells, ${decisions} decisions`;
}

/**
 * The results table (Markdown) of every agent in the record, in `order`: per cell its result, the
 * version and the day it ran; the sender cell's time from the provider's first limit answer to
 * the next agent's first model request in its own column; agents not run here with the reason.
 */
export function renderTable(
  record: TestedVersions,
  order: readonly string[],
  displayName: (name: string) => string,
): string {
  const head = [
    "agent",
    "newest passed",
    ...TABLE_COLUMNS.map((c) => c.head),
    "limit → next agent's first request",
    "replay = live",
  ];
  const rows = [head, head.map(() => "---")];
  const names = [...order.filter((n) => n in record.agents)];
  for (const name of names) {
    const a = record.agents[name];
    const esc = (s: string) => s.replaceAll("|", "/").replaceAll("\n", " ");
    if (a.notRun) {
      rows.push([
        displayName(name),
        "—",
        `not tested by uuldana: ${esc(a.notRun)}`,
        ...TABLE_COLUMNS.slice(1).map(() => "—"),
        "—",
        "—",
      ]);
      continue;
    }
    const cell = (c: string) => {
      const r = a.cells?.[c];
      return r ? `${esc(r.result)} (${r.version}, ${r.date})` : "—";
    };
    const sender = a.cells?.sender;
    const timing = sender?.toNextAgent !== undefined
      ? `${seconds(sender.toNextAgent)}${
        sender.toHandoff !== undefined ? ` (handoff at ${seconds(sender.toHandoff)})` : ""
      }`
      : "—";
    rows.push([
      displayName(name),
      a.tested ?? "none",
      ...TABLE_COLUMNS.map((c) => cell(c.cell)),
      timing,
      replays(Object.values(a.cells ?? {})),
    ]);
  }
  return rows.map((r) => `| ${r.join(" | ")} |`).join("\n");
}
