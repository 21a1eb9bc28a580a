/**
 * Which version of each agent the real-agent matrix last passed with
 * (`adapters/tested_versions.json`, written by `tools/real-agents/matrix.ts`), and how an
 * installed version compares with it. Pure; the data is inside the binary.
 *
 * @module
 */
import data from "./tested_versions.json" with { type: "json" };

/** One agent's line of `tested_versions.json`. */
export interface TestedEntry {
  /** Where it is installed from. */
  package?: string;
  /** The newest version at which every matrix cell passed; null: never run for real. */
  tested: string | null;
  /** When its last cell passed (YYYY-MM-DD). */
  date?: string;
  /** Why the matrix cannot run it here (only for agents it cannot run). */
  notRun?: string;
  /** The registry's latest version, when it is not what ran. */
  latest?: string;
  /** Why `latest` did not run. */
  note?: string;
  /** Each matrix cell's last result (`result` starts with "pass" when it passed). */
  cells?: Record<string, { version?: string; date?: string; result?: string }>;
}

/** The matrix's results, by adapter name. */
export type TestedVersions = Readonly<Record<string, TestedEntry>>;

/** The results this build carries. */
export const TESTED_VERSIONS: TestedVersions = (data as { agents: Record<string, TestedEntry> })
  .agents;

/** How an installed agent stands against the real-agent matrix. */
export type TestedState =
  /** Its version is the newest tested or older. */
  | { kind: "tested"; tested: string; date: string | null }
  /** Its version is newer than the newest tested: its screens may have changed. */
  | { kind: "newer"; version: string; tested: string; date: string | null }
  /** Its version is not known, so it cannot be compared. */
  | { kind: "unknown"; tested: string; date: string | null }
  /** The matrix never ran it (the reason, when known). */
  | { kind: "notRun"; reason: string | null }
  /** The matrix ran it, but no version passed every cell yet (the newest version it ran). */
  | { kind: "neverPassed"; ran: string | null; date: string | null };

/**
 * Compares dotted versions part by part, numerically ("2.1.340" > "2.1.332" > "2.1.99"); a
 * pre-release suffix sorts before its release ("0.61.0-sim" < "0.61.0"), and build metadata after
 * `+` is ignored. Negative, zero or positive, like a sort comparator.
 *
 * @example
 * ```ts
 * compareVersions("2.1.340", "2.1.332"); // > 0
 * ```
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre = null] = v.split("+")[0].split(/-(.*)/s, 2) as [string, string?];
    return { parts: core.split(".").map((p) => Number.parseInt(p, 10) || 0), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === null) return 1;
  if (y.pre === null) return -1;
  return x.pre < y.pre ? -1 : 1;
}

/** How agent `name` at `version` (null: unknown) stands against `table`. */
export function testedState(
  name: string,
  version: string | null,
  table: TestedVersions = TESTED_VERSIONS,
): TestedState {
  const entry = table[name];
  if (!entry?.tested) {
    const cells = Object.values(entry?.cells ?? {});
    if (entry?.notRun || cells.length === 0) {
      return { kind: "notRun", reason: entry?.notRun ?? null };
    }
    const ran = cells.map((c) => c.version).filter((v): v is string => !!v).sort(compareVersions);
    const dates = cells.map((c) => c.date).filter((d): d is string => !!d).sort();
    return { kind: "neverPassed", ran: ran.at(-1) ?? null, date: dates.at(-1) ?? null };
  }
  const date = entry.date ?? null;
  if (version === null) return { kind: "unknown", tested: entry.tested, date };
  if (compareVersions(version, entry.tested) > 0) {
    return { kind: "newer", version, tested: entry.tested, date };
  }
  return { kind: "tested", tested: entry.tested, date };
}

/**
 * What the real-agent matrix verified of agent `name` at exactly `version` (null: unknown): that it
 * takes an opening prompt, when its `receiver` cell (uuldana hands it a handoff on its default
 * road; the agent's first model request must carry the frame, nobody pressing Enter) last passed
 * with that very version. Null for any other version, an older or newer one included: a proof
 * is never carried from one version to another.
 *
 * @example
 * ```ts
 * recordedProof("codex", "0.171.0"); // { version: "0.171.0", date: "2026-12-02" }
 * recordedProof("codex", "0.171.1"); // null
 * ```
 */
export function recordedProof(
  name: string,
  version: string | null,
  table: TestedVersions = TESTED_VERSIONS,
): { version: string; date: string | null } | null {
  const cell = table[name]?.cells?.receiver;
  if (!version || cell?.version !== version || !/^pass\b/.test(cell.result ?? "")) return null;
  return { version, date: cell.date ?? null };
}

/** One line saying how agent `name` stands, for `uuldana agents` and `uuldana doctor`. */
export function testedLine(name: string, state: TestedState): string {
  switch (state.kind) {
    case "newer":
      return `${name} ${state.version} is newer than the newest tested (${state.tested}): ` +
        "limit detection may miss its screens";
    case "notRun":
      return `not tested by uuldana${state.reason ? `: ${state.reason}` : ""}`;
    case "neverPassed":
      return `no version of ${name} passed every real-agent cell yet` +
        (state.ran ? ` (${state.ran} ran${state.date ? ` ${state.date}` : ""})` : "") +
        ": limit detection may miss its screens";
    case "unknown":
      return `version unknown; the newest tested is ${state.tested}`;
    case "tested":
      return `tested for real up to ${state.tested}${state.date ? ` (${state.date})` : ""}`;
  }
}
