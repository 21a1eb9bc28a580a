/**
 * One asciicast of a chain of runs: a run, then each run its handoffs started, one after another
 * on one timeline, with the line uuldana showed at each switch between them (`uuldana export
 * --chain`). Pure: the casts come from `exportAsciicast`, the rows from the journal.
 *
 * @module
 */
import type { HandoffRow, RunRow } from "../journal/journal.ts";

/** One run's part of the chain: its row and its asciicast v2 text. */
export interface CastPart {
  run: Pick<RunRow, "startedAt">;
  cast: string;
}

/**
 * The casts of `parts` as one asciicast v2: the first one's header (titled `title` when given),
 * each later part's events moved by the time between the runs' starts (never back before the
 * events already written), `between[i]` shown as a line of its own at the start of part i + 1,
 * and each of `closing` as a line of its own half a second after the last event.
 *
 * @example
 * ```ts
 * joinCasts([{ run: claude, cast: a }, { run: codex, cast: b }], ['uuldana: claude → codex: …']);
 * ```
 */
export function joinCasts(
  parts: readonly CastPart[],
  between: readonly string[],
  title?: string,
  closing: readonly string[] = [],
): string {
  if (parts.length === 0) throw new Error("no cast to join");
  const [first, ...rest] = parts.map((p) => _parse(p.cast));
  const t0 = Date.parse(parts[0].run.startedAt);
  const header = title ? { ...first.header, title } : first.header;
  const events: unknown[][] = [...first.events];
  let last = events.length ? Number(events[events.length - 1][0]) : 0;
  rest.forEach((part, i) => {
    const offset = Math.max(last, (Date.parse(parts[i + 1].run.startedAt) - t0) / 1000);
    events.push([_round(offset), "o", `\r\n${between[i] ?? ""}\r\n`]);
    for (const [t, ...e] of part.events) events.push([_round(offset + Number(t)), ...e]);
    last = events.length ? Number(events[events.length - 1][0]) : offset;
  });
  if (closing.length) events.push([_round(last + 0.5), "o", `\r\n${closing.join("\r\n")}\r\n`]);
  return [JSON.stringify(header), ...events.map((e) => JSON.stringify(e))].join("\n") + "\n";
}

/**
 * The line uuldana showed when `from` handed off by `handoff`: the limit's own words for an
 * automatic handoff at a limit, as the live line says them.
 */
export function switchLine(
  from: Pick<RunRow, "agent" | "limitMessage">,
  handoff: HandoffRow,
): string {
  const file = handoff.filePath ? `: ${handoff.filePath}` : "";
  if (handoff.mode === "auto" && from.limitMessage) {
    return `uuldana: ${from.agent} → ${handoff.toAgent}: "${from.limitMessage}". ` +
      `Handoff via ${handoff.road}${file}`;
  }
  return `uuldana: ${from.agent} → ${handoff.toAgent} (${
    handoff.mode === "manual" ? "/agent" : "automatic"
  }). Handoff via ${handoff.road}${file}`;
}

/**
 * What moved at `handoff` from `from`, in one line (`uuldana demo` ends with it, and so does
 * `uuldana export --chain`): "claude hit its limit at turn 2; codex got the request, 2 turns and
 * claude's screen (3,120 characters)". `turns`: the turns the journal kept of `from`.
 */
export function movedLine(
  from: Pick<RunRow, "agent" | "endReason">,
  handoff: Pick<HandoffRow, "toAgent" | "characters" | "mode">,
  turns: number,
): string {
  const how = handoff.mode === "auto" && from.endReason === "limit"
    ? "hit its limit"
    : handoff.mode === "manual"
    ? "was switched from by hand"
    : "handed off";
  const what = `the request, ${turns} ${turns === 1 ? "turn" : "turns"} and ${from.agent}'s screen`;
  return `${from.agent} ${how} at turn ${turns}; ${handoff.toAgent} got ${what} ` +
    `(${handoff.characters.toLocaleString("en-US")} characters)`;
}

/**
 * `run` and the runs its handoffs started, in order (each run's last handoff that started one),
 * with the handoff between each two.
 */
export function runChainFrom<R extends { id: number }>(
  run: R,
  runOf: (id: number) => R | null,
  handoffsFrom: (id: number) => HandoffRow[],
): { runs: R[]; handoffs: HandoffRow[] } {
  const runs = [run];
  const handoffs: HandoffRow[] = [];
  const seen = new Set([run.id]);
  for (;;) {
    const from = runs[runs.length - 1];
    const next = handoffsFrom(from.id).filter((h) => h.toRun !== null).at(-1);
    const to = next ? runOf(next.toRun!) : null;
    if (!next || !to || seen.has(to.id)) return { runs, handoffs };
    seen.add(to.id);
    runs.push(to);
    handoffs.push(next);
  }
}

function _parse(cast: string): { header: Record<string, unknown>; events: unknown[][] } {
  const [head, ...lines] = cast.split("\n").filter((l) => l.trim() !== "");
  return {
    header: JSON.parse(head) as Record<string, unknown>,
    events: lines.map((l) => JSON.parse(l) as unknown[]),
  };
}

function _round(t: number): number {
  return Number(t.toFixed(6));
}
