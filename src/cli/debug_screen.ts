/**
 * `uuldana debug screen FILE`: feed a recording to the VT interpreter and print the final state.
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { UsageError, UuldanaError } from "../errors.ts";
import { MAX_COLS, MAX_ROWS, MAX_SCROLLBACK, Terminal, type TerminalSnapshot } from "../vt/mod.ts";
import { readRecording } from "../session/recording_read.ts";

/** `uuldana debug screen`: render a terminal recording with uuldana's VT interpreter. */
export function debugScreenCommand() {
  return new Command("screen")
    .description(
      "render a terminal recording (a run's recording, or raw pty output) with uuldana's VT " +
        "interpreter",
    )
    .argument(
      "<file>",
      "a run's recording (.cast.gz, .cast: its size and resizes are its own) or raw output (.raw, .gz)",
    )
    .option("--cols <n>", `terminal columns (1 to ${MAX_COLS}; default: the recording's, else 120)`)
    .option("--rows <n>", `terminal rows (1 to ${MAX_ROWS}; default: the recording's, else 40)`)
    .option("--chunk <n>", "feed N bytes at a time (default: the whole file at once)")
    .option("--scrollback <n>", `scrollback lines kept (0 to ${MAX_SCROLLBACK})`, "10000")
    .option("--json", "print the state as JSON (the shape of the corpus `oracle` object)")
    .addHelpText(
      "after",
      `
Examples:
  uuldana debug screen vim.raw --cols 120 --rows 40
  uuldana debug screen vim.raw --json --chunk 1   fed byte by byte, as JSON
  uuldana debug screen ~/.local/share/uuldana/recordings/run-12.cast.gz   what run 12 last showed`,
    )
    .action(async (file, opts) => {
      const givenCols = opts.cols === undefined
        ? null
        : _positiveInt(opts.cols, "--cols", MAX_COLS);
      const givenRows = opts.rows === undefined
        ? null
        : _positiveInt(opts.rows, "--rows", MAX_ROWS);
      const scrollback = _positiveInt(opts.scrollback, "--scrollback", MAX_SCROLLBACK, true);
      const chunk = opts.chunk === undefined
        ? 0
        : _positiveInt(opts.chunk, "--chunk", Number.MAX_SAFE_INTEGER);
      let recording;
      try {
        recording = readRecording(await _readFile(file), { cols: 120, rows: 40 });
      } catch (e) {
        throw new UuldanaError(`${file}: ${(e as Error).message}`);
      }
      const bytes = recording.bytes;
      let cols = givenCols ?? Math.min(recording.cols, MAX_COLS);
      let rows = givenRows ?? Math.min(recording.rows, MAX_ROWS);
      const term = new Terminal({ cols, rows, scrollback });
      if (chunk > 0) {
        for (let i = 0; i < bytes.length; i += chunk) term.write(bytes.subarray(i, i + chunk));
      } else if (recording.format === "cast" && givenCols === null && givenRows === null) {
        // As the run saw it: its output, and its resizes.
        for (const input of recording.inputs ?? []) {
          if (input.type === "output") term.write(input.bytes);
          else if (input.type === "resize") {
            cols = Math.min(Math.max(1, input.cols), MAX_COLS);
            rows = Math.min(Math.max(1, input.rows), MAX_ROWS);
            term.resize(cols, rows);
          }
        }
      } else term.write(bytes);
      const snap = term.snapshot();
      const out = opts.json
        ? JSON.stringify({ cols, rows, bytes: bytes.length, ...snap }, null, 1)
        : renderSnapshot(snap, cols, rows);
      await _writeAll(new TextEncoder().encode(out + "\n"));
    });
}

/** A readable text dump of a snapshot: header, modes, scrollback, screen. */
export function renderSnapshot(snap: TerminalSnapshot, cols: number, rows: number): string {
  const lines: string[] = [];
  const title = snap.title === null ? "" : ` title=${JSON.stringify(snap.title)}`;
  lines.push(
    `# ${cols}x${rows} active=${snap.activeBuffer} cursor=${snap.cursor.x},${snap.cursor.y}` +
      ` bells=${snap.bells}${title}`,
  );
  lines.push("# modes " + Object.entries(snap.modes).map(([k, v]) => `${k}=${v}`).join(" "));
  lines.push(`--- scrollback (${snap.scrollback.length} lines) ---`, ...snap.scrollback);
  lines.push("--- screen ---");
  snap.screen.forEach((row, y) => {
    lines.push(`${snap.wrappedRows.includes(y) ? "↪" : "│"}${row}`);
  });
  if (snap.normalScreen) {
    lines.push("--- normal screen (inactive) ---", ...snap.normalScreen);
  }
  return lines.join("\n");
}

function _positiveInt(value: string, flag: string, max: number, allowZero = false): number {
  const n = Number(value);
  const min = allowZero ? 0 : 1;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? "a positive integer" : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be ${range}, got '${value}'`);
  }
  return n;
}

async function _readFile(file: string): Promise<Uint8Array> {
  try {
    return await Deno.readFile(file);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new UuldanaError(`no such file: ${file}`);
    }
    if (e instanceof Deno.errors.IsADirectory) throw new UuldanaError(`${file} is a directory`);
    throw new UuldanaError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

async function _writeAll(data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await Deno.stdout.write(data.subarray(off));
}
