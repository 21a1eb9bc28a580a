/**
 * Where a new recording gets its mid-stream checkpoints: where the output paused (what a quiet
 * detector sees) and after end-of-synchronized-update markers (where an agent's frame is whole).
 *
 * @module
 */

/** A place in a recording to take the oracle's state at. */
export interface CheckpointSpot {
  /** Bytes fed before the state is read. */
  offset: number;
  /** Length of the pause that follows, in seconds; null for an ESU spot. */
  quiet_after_s: number | null;
  /** `"ESU"` for a spot right after `CSI ? 2026 l`. */
  after?: "ESU";
}

/** A pause at least this long (seconds) is a checkpoint: the quiet detector's view. */
export const QUIET_PAUSE_S = 0.25;

/** At most this many spots of each kind, unless told otherwise. */
export const MAX_SPOTS = 8;

const ESU = new TextEncoder().encode("\x1b[?2026l");

/**
 * The first `max` pauses of at least {@link QUIET_PAUSE_S} in a `script` classic timing file
 * (`<seconds before this chunk> <bytes>` per line): the offset after the chunk that precedes a
 * pause, and the pause rounded to milliseconds.
 */
export function quietSpots(timing: string, max = MAX_SPOTS): CheckpointSpot[] {
  const chunks = timing.split("\n").filter((l) => l.trim() !== "").map((l) => {
    const [delay, bytes] = l.trim().split(/\s+/);
    return { delay: Number(delay), bytes: Number(bytes) };
  });
  const spots: CheckpointSpot[] = [];
  let offset = 0;
  for (let i = 0; i < chunks.length && spots.length < max; i++) {
    offset += chunks[i].bytes;
    const pause = chunks[i + 1]?.delay;
    if (pause !== undefined && pause >= QUIET_PAUSE_S) {
      spots.push({ offset, quiet_after_s: Number(pause.toFixed(3)) });
    }
  }
  return spots;
}

/** Up to `max` end-of-synchronized-update markers, evenly spread: every ⌊n / max⌋-th of n. */
export function esuSpots(bytes: Uint8Array, max = MAX_SPOTS): CheckpointSpot[] {
  const ends: number[] = [];
  for (let i = 0; i + ESU.length <= bytes.length; i++) {
    let j = 0;
    while (j < ESU.length && bytes[i + j] === ESU[j]) j++;
    if (j === ESU.length) ends.push(i + ESU.length);
  }
  const step = Math.max(1, Math.floor(ends.length / max));
  const spots: CheckpointSpot[] = [];
  for (let k = 0; k < ends.length && spots.length < max; k += step) {
    spots.push({ offset: ends[k], quiet_after_s: null, after: "ESU" });
  }
  return spots;
}

/** Quiet and ESU spots together, by offset; an offset that is both stays a quiet spot. */
export function pickCheckpoints(bytes: Uint8Array, timing: string | undefined): CheckpointSpot[] {
  const quiet = timing === undefined ? [] : quietSpots(timing);
  const taken = new Set(quiet.map((s) => s.offset));
  const esu = esuSpots(bytes).filter((s) => !taken.has(s.offset));
  return [...quiet, ...esu].sort((a, b) => a.offset - b.offset);
}
