/**
 * A recording's side file (`NAME.json` beside `NAME.raw`): its metadata, kept as written, plus
 * what the oracle derives from the bytes (`bytes`, `sha256`, the final state `oracle`, the
 * state at each checkpoint). The same metadata and bytes always give the same text, so a stored
 * file can be checked by regenerating it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { ORACLE_NAME, type XtermState, xtermStatesAt } from "./xterm_state.ts";
import type { CheckpointSpot } from "./checkpoints.ts";

/** The hand-written part of a side file; other keys (agent, limitText, …) are kept in order. */
export interface SidecarMeta extends Record<string, unknown> {
  cols: number;
  rows: number;
  checkpoints?: CheckpointSpot[];
}

/** The keys of a checkpoint's state (the final state has all of {@link XtermState}). */
const CHECKPOINT_KEYS = ["activeBuffer", "cursor", "modes", "screen", "cellWidths"] as const;

/** The final state in the corpus' key order (the oracle's name and size first). */
function finalState(s: XtermState, cols: number, rows: number, bytes: number) {
  return {
    oracle: ORACLE_NAME,
    unicode: "11",
    cols,
    rows,
    bytes,
    activeBuffer: s.activeBuffer,
    cursor: s.cursor,
    modes: s.modes,
    title: s.title,
    bells: s.bells,
    screen: s.screen,
    wrappedRows: s.wrappedRows,
    scrollback: s.scrollback,
    ...(s.normalScreen ? { normalScreen: s.normalScreen } : {}),
    cellWidths: s.cellWidths,
  };
}

/** The side file's text for `meta` and the recording's `bytes` (one space indent, final LF). */
export async function sidecarText(meta: SidecarMeta, bytes: Uint8Array): Promise<string> {
  const spots = meta.checkpoints ?? [];
  const { at, final } = await xtermStatesAt(
    bytes,
    meta.cols,
    meta.rows,
    spots.map((s) => s.offset),
  );
  const checkpoints = spots.map((spot, i) => {
    const state: Record<string, unknown> = {
      offset: spot.offset,
      quiet_after_s: spot.quiet_after_s,
      ...(spot.after ? { after: spot.after } : {}),
    };
    for (const k of CHECKPOINT_KEYS) state[k] = at[i][k];
    return state;
  });
  const out = {
    ...meta,
    checkpoints,
    bytes: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    oracle: finalState(final, meta.cols, meta.rows, bytes.length),
  };
  return JSON.stringify(out, null, 1) + "\n";
}
