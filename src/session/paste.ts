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
 * Waits until the agent has enabled bracketed paste (?2004), shows its input box ready (the
 * adapter's rule: OpenCode and Kilo turn ?2004 on long before they read input) and has been quiet,
 * all within `timeoutMs` (the user's `pasteTimeoutSeconds`, 40 s by default: the user is waiting to
 * hear where the handoff is). Then pastes `text` in chunks the agent can take, and checks whether
 * the pasted text became visible (the receipt). Pastes nothing if the agent is not ready in time.
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
  const deadline = performance.now() + opts.timeoutMs;
  return (await _pasteOnce(run, text, { ...opts, deadline }, null)).result;
}

// One paste (see pasteHandoff), with the pieces it looked for. `earlier`: the pieces of an earlier
// paste of the same text that did not show within the receipt's wait; when it shows by the end of
// a second such wait (a loaded agent draws late), it is not pasted a second time.
async function _pasteOnce(
  run: AgentRun,
  text: string,
  opts: { timeoutMs: number; deadline: number; probes: readonly string[] },
  earlier: readonly string[] | null,
): Promise<{ result: PasteResult; pieces: readonly string[] }> {
  const unready = await _whenReady(run, opts.deadline, opts.timeoutMs);
  if (unready !== null) return { result: { pasted: false, reason: unready }, pieces: [] };
  if (earlier !== null) {
    // A loaded agent may draw a paste after the receipt's wait: it is given that long again.
    const late = await _seen(run, opts.probes, earlier);
    if (late !== null) {
      const receipt = `visible on screen: "${late}" (it showed late)`;
      return { result: { pasted: true, visible: true, receipt }, pieces: earlier };
    }
  }
  const pieces = _pieces(text, run.vt.logicalScreenLines().join("\n"));
  // The text is sanitised by the composer: no ESC can end the paste early.
  const bytes = _encoder.encode(`\x1b[200~${text}\x1b[201~`);
  for (let at = 0; at < bytes.length; at += _CHUNK_BYTES) {
    if (run.finished) {
      return { result: { pasted: false, reason: "the agent ended during the paste" }, pieces };
    }
    await run.write(bytes.subarray(at, at + _CHUNK_BYTES));
    await new Promise((r) => setTimeout(r, _CHUNK_PAUSE_MS));
  }
  // The input box now holds text the user did not type: `/agent` there is not a command.
  run.noteTypedByUuldana();
  const seen = await _seen(run, opts.probes, pieces);
  const result: PasteResult = {
    pasted: true,
    visible: seen !== null,
    receipt: seen !== null
      ? `visible on screen: "${seen}"`
      : "written, but not visible on screen (the agent may show large pastes collapsed)",
  };
  return { result, pieces };
}

// Waits until `deadline` (a performance.now() time) for the agent to take a paste (see
// pasteHandoff); null when it can, else why not. `timeoutMs`: the whole wait, for the message.
async function _whenReady(
  run: AgentRun,
  deadline: number,
  timeoutMs: number,
): Promise<string | null> {
  const shown = () => run.vt.modes.bracketedPaste && run.inputReady();
  const left = () => Math.max(0, deadline - performance.now());
  if (await run.waitUntil(() => shown() && run.isQuiet(), left())) return null;
  if (run.finished) return "the agent ended before it showed a prompt";
  const within = `within ${Math.round(timeoutMs / 1000)} s`;
  return !run.vt.modes.bracketedPaste
    ? `the agent did not enable bracketed paste (?2004) ${within}`
    : !run.inputReady()
    ? `the agent did not show its input box ${within}`
    : `the agent never went quiet ${within}`;
}

/**
 * Pastes `text` like {@linkcode pasteHandoff} and, while it does not become visible, pastes it
 * again at the agent's next quiet moment, up to `attempts` times: a TUI still loading drops input
 * (OpenCode and Kilo while they open a session). Every attempt waits within the one `timeoutMs`
 * from the call. A paste that was written but never showed says so (`visible: false`, the receipt
 * counts the attempts); it is never reported as shown.
 */
export async function pasteUntilVisible(
  run: AgentRun,
  text: string,
  opts: { timeoutMs: number; probes: readonly string[]; attempts?: number },
): Promise<RepeatedPasteResult> {
  const most = opts.attempts ?? PASTE_ATTEMPTS;
  const deadline = performance.now() + opts.timeoutMs;
  let earlier: readonly string[] | null = null;
  for (let attempt = 1;; attempt++) {
    const { result, pieces } = await _pasteOnce(run, text, { ...opts, deadline }, earlier);
    // An agent not ready for a second paste still holds the first, unseen: never "not pasted".
    if (!result.pasted && attempt > 1) return _neverVisible(attempt - 1);
    earlier = pieces;
    if (!result.pasted || result.visible) return { ...result, attempts: attempt };
    if (attempt >= most) return _neverVisible(attempt);
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
  let seen: string | null = null;
  await run.waitUntil(() => (seen = _shownNow(run, probes, pieces)) !== null, 5000);
  return seen;
}

// What of the paste the screen shows now, or null.
function _shownNow(
  run: AgentRun,
  probes: readonly string[],
  pieces: readonly string[],
): string | null {
  const screen = run.vt.logicalScreenLines().join("\n");
  const shown = pieces.filter((p) => screen.includes(p));
  return probes.find((p) => screen.includes(p)) ?? _COLLAPSED.exec(screen)?.[0] ??
    (shown.length >= _PIECES_NEEDED ? shown.slice(0, _PIECES_NEEDED).join('" and "') : null);
}

// A paste written `attempts` times that never became visible.
function _neverVisible(attempts: number): RepeatedPasteResult {
  return {
    pasted: true,
    visible: false,
    attempts,
    receipt: `written ${attempts} times, never visible on screen (the agent may have dropped ` +
      "it while loading, or shows it in a way uuldana does not recognise)",
  };
}
