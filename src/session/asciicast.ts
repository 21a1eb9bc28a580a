/**
 * asciicast v2 (asciinema's format) from a stored recording. A timed recording already is one:
 * its own events a player has no use for (`b`, `c`, `h`, `e`, `t`, `g`, `x`, see src/detect/cast.ts) are
 * left out. A raw recording (before schema 7) becomes a JSON header line, then one
 * `[seconds, "o", text]` line per output chunk of its timing.
 *
 * @module
 */
import { type StoredRecording, ungzip } from "./recording_read.ts";

/** Event codes of the asciicast v2 spec a player uses. */
const _PLAYER_CODES = new Set(["o", "i", "r", "m"]);

/** Renders a run's stored output as asciicast v2 text. */
export function exportAsciicast(
  run: { agent: string; startedAt: string },
  stored: StoredRecording,
): string {
  const bytes = ungzip(stored.data);
  if (stored.format === "cast") {
    const lines = new TextDecoder().decode(bytes).split("\n");
    const kept = [lines[0]];
    for (const line of lines.slice(1)) {
      const code = /^\[[^,]*,\s*"([^"]*)"/.exec(line)?.[1];
      if (code !== undefined && _PLAYER_CODES.has(code)) kept.push(line);
    }
    return kept.join("\n") + "\n";
  }
  const header = {
    version: 2,
    width: stored.cols,
    height: stored.rows,
    timestamp: Math.floor(Date.parse(run.startedAt) / 1000),
    title: `uuldana: ${run.agent}`,
    env: { TERM: "xterm-256color" },
  };
  const lines = [JSON.stringify(header)];
  const decoder = new TextDecoder(); // streaming, so a UTF-8 sequence split across chunks survives
  let at = 0;
  let t = 0;
  for (const row of stored.timing.split("\n")) {
    if (!row) continue;
    const [delay, size] = row.split(" ");
    t += Number(delay);
    const n = Number(size);
    const text = decoder.decode(bytes.subarray(at, at + n), { stream: true });
    at += n;
    if (text) lines.push(JSON.stringify([Number(t.toFixed(6)), "o", text]));
  }
  // Bytes beyond the timing: a run that was killed before its timing was stored.
  const rest = decoder.decode(bytes.subarray(at));
  if (rest) lines.push(JSON.stringify([Number(t.toFixed(6)), "o", rest]));
  return lines.join("\n") + "\n";
}
