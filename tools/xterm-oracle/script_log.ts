/**
 * The program's output inside a util-linux `script` log: the log starts with a `Script started
 * on …` line and ends with a `Script done on …` trailer, and its timing file counts exactly the
 * output bytes in between.
 *
 * @module
 */

const HEADER = new TextEncoder().encode("Script started on ");

/** Total bytes a classic timing file counts (`<delay> <bytes>` per line). */
export function timedBytes(timing: string): number {
  let n = 0;
  for (const line of timing.split("\n")) {
    const bytes = line.trim().split(/\s+/)[1];
    if (bytes !== undefined) n += Number(bytes);
  }
  return n;
}

/** The output bytes of a `script` log, or the input unchanged when it has no header line. */
export function scriptOutput(log: Uint8Array, timing: string): Uint8Array {
  if (!HEADER.every((b, i) => log[i] === b)) return log;
  const start = log.indexOf(0x0a) + 1;
  const end = start + timedBytes(timing);
  if (end > log.length) throw new RangeError("the timing file counts more bytes than the log has");
  return log.subarray(start, end);
}
