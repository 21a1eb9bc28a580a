/**
 * The paste road: put the framed handoff into a freshly started agent's input box as a bracketed
 * paste, without Enter — the user reads it, edits it and sends it.
 *
 * @module
 */
import type { AgentRun } from "./agent_run.ts";

/** What happened to a paste. */
export type PasteResult =
  | { pasted: true; receipt: string }
  | { pasted: false; reason: string };

const _encoder = new TextEncoder();
const _CHUNK_BYTES = 1024;
const _CHUNK_PAUSE_MS = 8;

/**
 * Waits until the agent has been quiet and has enabled bracketed paste (?2004), then pastes `text`
 * in chunks the agent can take, and checks whether the pasted text became visible (the receipt).
 * Pastes nothing if that does not happen within `timeoutMs`.
 */
export async function pasteHandoff(
  run: AgentRun,
  text: string,
  opts: { timeoutMs: number },
): Promise<PasteResult> {
  const ready = await run.waitUntil(
    () => run.vt.modes.bracketedPaste && run.isQuiet(),
    opts.timeoutMs,
  );
  if (!ready) {
    if (run.finished) return { pasted: false, reason: "the agent ended before it showed a prompt" };
    const why = run.vt.modes.bracketedPaste
      ? "the agent never went quiet"
      : "the agent did not enable bracketed paste (?2004)";
    return { pasted: false, reason: `${why} within ${Math.round(opts.timeoutMs / 1000)} s` };
  }
  // The text is sanitised by the composer: no ESC can end the paste early.
  const bytes = _encoder.encode(`\x1b[200~${text}\x1b[201~`);
  for (let at = 0; at < bytes.length; at += _CHUNK_BYTES) {
    if (run.finished) return { pasted: false, reason: "the agent ended during the paste" };
    await run.write(bytes.subarray(at, at + _CHUNK_BYTES));
    await new Promise((r) => setTimeout(r, _CHUNK_PAUSE_MS));
  }
  // The input box now holds text the user did not type: `/agent` there is not a command.
  run.noteTypedByUuldana();
  return { pasted: true, receipt: await _receipt(run, text) };
}

// Lines of the handoff distinctive enough to find on the screen: its first lines and its last
// ones (agents that show a long paste scrolled keep the end visible; the END boundary is there).
function _probeLines(text: string): string[] {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l.length >= 12).map((l) =>
    l.slice(0, 40)
  );
  return [...new Set([...lines.slice(0, 2), ...lines.slice(-6)])];
}

async function _receipt(run: AgentRun, text: string): Promise<string> {
  const probes = _probeLines(text);
  let seen: string | undefined;
  const visible = await run.waitUntil(() => {
    const screen = run.vt.logicalScreenLines().join("\n");
    seen = probes.find((p) => screen.includes(p));
    return seen !== undefined;
  }, 5000);
  return visible
    ? `visible on screen: "${seen}"`
    : "written, but not visible on screen (the agent may show large pastes collapsed)";
}
