/**
 * Test helpers: load the corpus recordings and compare a snapshot with the expected state.
 *
 * @module
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { TerminalSnapshot } from "./terminal.ts";
import { AGENT_CORPUS_DIR, VT_CORPUS_DIR } from "../../tests/_paths.ts";

/** One corpus recording: its raw bytes and its side-file (`oracle`, `checkpoints`, …). */
export interface Recording {
  name: string;
  raw: Uint8Array;
  cols: number;
  rows: number;
  oracle: Record<string, unknown>;
  checkpoints: ({ offset: number } & Record<string, unknown>)[];
}

const _DIRS = [VT_CORPUS_DIR, AGENT_CORPUS_DIR];

/** Every recording of the corpus (vt + agents), sorted by name. */
export function loadRecordings(): Recording[] {
  const out: Recording[] = [];
  for (const dir of _DIRS) {
    for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (!entry.name.endsWith(".json")) continue;
      const name = entry.name.slice(0, -5);
      const meta = JSON.parse(Deno.readTextFileSync(`${dir}/${entry.name}`));
      out.push({
        name: `${dir.split("/").pop()}/${name}`,
        raw: Deno.readFileSync(`${dir}/${name}.raw`),
        cols: meta.cols,
        rows: meta.rows,
        oracle: meta.oracle,
        checkpoints: [...(meta.checkpoints ?? [])].sort((a, b) => a.offset - b.offset),
      });
    }
  }
  return out;
}

/** Keys compared for a final state. */
export const FINAL_KEYS = [
  "screen",
  "scrollback",
  "wrappedRows",
  "cursor",
  "activeBuffer",
  "modes",
  "title",
  "bells",
  "cellWidths",
  "normalScreen",
] as const;

/** Keys compared at a checkpoint. */
export const CHECKPOINT_KEYS = ["activeBuffer", "cursor", "modes", "screen", "cellWidths"] as const;

/** Asserts that `snap` equals `expected` on `keys` (keys absent from `expected` must be absent). */
export function assertMatches(
  snap: TerminalSnapshot,
  expected: Record<string, unknown>,
  keys: readonly string[],
  where: string,
): void {
  const got: Record<string, unknown> = {};
  const want: Record<string, unknown> = {};
  for (const k of keys) {
    const g = (snap as unknown as Record<string, unknown>)[k];
    if (k in expected || g !== undefined) {
      got[k] = g;
      want[k] = expected[k];
    }
  }
  assertEquals(got, want, where);
}

/** A seeded pseudo-random generator (LCG) returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 0x100000000;
  };
}
