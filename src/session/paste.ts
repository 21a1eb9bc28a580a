/**
 * The paste road: put the framed handoff into a freshly started agent's input box as a bracketed
 * paste, without Enter — the user reads it, edits it and sends it.
 *
 * @module
 */
import type { AgentRun } from "./agent_run.ts";

/** What happened to a paste. */
export type PasteResult =
  | { pasted: true; receipt: string; visible: boolean }
  | { pasted: false; reason: string };

/** What happened to a paste that was tried until it showed: the last result and how many. */
export type RepeatedPasteResult = PasteResult & { attempts: number };

/** How many times a paste that does not show is written before uuldana gives up. */
export const PASTE_ATTEMPTS = 3;

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
  opts: {
    timeoutMs: number;
    /**
     * Lines only this text has (a handoff's nonce boundaries), looked for on the screen as the
     * delivery receipt. Never a line the agent's own interface could show too.
     */
    probes: readonly string[];
  },
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
  const pieces = _pieces(text, run.vt.logicalScreenLines().join("\n"));
  // The text is sanitised by the composer: no ESC can end the paste early.
  const bytes = _encoder.encode(`\x1b[200~${text}\x1b[201~`);
  for (let at = 0; at < bytes.length; at += _CHUNK_BYTES) {
    if (run.finished) return { pasted: false, reason: "the agent ended during the paste" };
    await run.write(bytes.subarray(at, at + _CHUNK_BYTES));
    await new Promise((r) => setTimeout(r, _CHUNK_PAUSE_MS));
  }
  // The input box now holds text the user did not type: `/agent` there is not a command.
  run.noteTypedByUuldana();
  const seen = await _seen(run, opts.probes, pieces);
  return {
    pasted: true,
    visible: seen !== null,
    receipt: seen !== null
      ? `visible on screen: "${seen}"`
      : "written, but not visible on screen (the agent may show large pastes collapsed)",
  };
}

/**
 * Pastes `text` like {@linkcode pasteHandoff} and, while it does not become visible, pastes it
 * again at the agent's next quiet moment, up to `attempts` times: a TUI still loading drops input
 * (OpenCode and Kilo while they open a session). A paste that was written but never showed says
 * so (`visible: false`, the receipt counts the attempts); it is never reported as shown.
 */
export async function pasteUntilVisible(
  run: AgentRun,
  text: string,
  opts: { timeoutMs: number; probes: readonly string[]; attempts?: number },
): Promise<RepeatedPasteResult> {
  const most = opts.attempts ?? PASTE_ATTEMPTS;
  for (let attempt = 1;; attempt++) {
    const result = await pasteHandoff(run, text, opts);
    if (!result.pasted || result.visible) return { ...result, attempts: attempt };
    if (attempt >= most) {
      return {
        pasted: true,
        visible: false,
        attempts: attempt,
        receipt: `written ${attempt} times, never visible on screen (the agent may have dropped ` +
          "it while loading, or shows it in a way uuldana does not recognise)",
      };
    }
  }
}

// Agents that collapse a long paste into one line until it is sent: Claude Code shows
// `[Pasted text #1 +41 lines]`, Codex `[Pasted Content 3000 chars]`, Gemini CLI
// `[Pasted Text: 43 lines]`, OpenCode `[Pasted ~41 lines]`, Copilot CLI `[Paste #1 - 42 lines]`,
// pi `[paste #1 +42 lines]` (or `[paste #1 1234 chars]`). A paste shown so is not pasted again.
const _COLLAPSED =
  /\[(?:Pasted (?:text|Content|~\d+ lines?)\b|Paste #\d+ (?:- \d+ lines?|\+\d+ lines|\d+ chars)\b)[^\]]*\]/i;

// The starts of the text's longer lines that the screen does not show yet (at most 200): an input
// box showing only a window of a long paste still shows some of them. None with a path in it: the
// agent's own interface shows the workspace path too (OpenCode's footer, once it has loaded).
const _PIECE_CHARS = 32;
const _PIECES_NEEDED = 2;
function _pieces(text: string, screen: string): string[] {
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    const piece = line.trim().slice(0, _PIECE_CHARS);
    if (piece.length === _PIECE_CHARS && !piece.includes("/") && !screen.includes(piece)) {
      out.add(piece);
    }
    if (out.size === 200) break;
  }
  return [...out];
}

// What of the paste became visible within 5 s (a probe, a collapsed-paste line, two pieces of the
// text that were not on screen before), or null.
async function _seen(
  run: AgentRun,
  probes: readonly string[],
  pieces: readonly string[],
): Promise<string | null> {
  let seen: string | undefined;
  await run.waitUntil(() => {
    const screen = run.vt.logicalScreenLines().join("\n");
    const shown = pieces.filter((p) => screen.includes(p));
    seen = probes.find((p) => screen.includes(p)) ?? _COLLAPSED.exec(screen)?.[0] ??
      (shown.length >= _PIECES_NEEDED ? shown.slice(0, _PIECES_NEEDED).join('" and "') : undefined);
    return seen !== undefined;
  }, 5000);
  return seen ?? null;
}
