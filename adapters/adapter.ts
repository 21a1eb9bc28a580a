/**
 * The one interface every agent adapter implements, so the session never branches on agent names.
 *
 * @module
 */
import type { Road } from "../src/config/config.ts";
import type { AgentChannel, AgentDebugLog, ChannelRelay } from "./channel.ts";
import type { LimitWarning } from "./limit_warning.ts";

export type { AgentChannel, ChannelRelay, LimitWarning, Road };

/** A located agent binary. */
export interface Found {
  /** Absolute path of the binary. */
  path: string;
  /** Version string the binary reported (e.g. "2.1.197"), or null when it did not say. */
  version: string | null;
  /** The configured environment the agent runs with (also used for its `--help` probe). */
  env?: Record<string, string>;
}

/** Whether an agent's `--help` proves it accepts an initial prompt, and the line that shows it. */
export interface Proof {
  /** True when the help text shows the documented initial-prompt line. */
  accepted: boolean;
  /** The matching help line (trimmed), or null. */
  line: string | null;
  /** Why not, when not accepted. */
  reason?: string;
  /** True when the result came from the journal's cache (same binary path and version). */
  cached?: boolean;
  /**
   * The probe proved nothing either way (it timed out twice, or could not run): not a refusal,
   * never cached, probed again next time.
   */
  inconclusive?: boolean;
  /** What happened on the way to the result, when worth saying (a first probe that timed out). */
  note?: string;
  /**
   * The proof is the real-agent matrix's, not this binary's `--help`: its `receiver` cell handed
   * this exact version a handoff on its opening prompt and passed (`adapters/tested_versions.json`);
   * nothing ran. Absent: the proof is from the binary's own `--help` (now, or cached).
   */
  recorded?: { version: string; date: string | null };
}

/** A limit the agent showed. */
export interface LimitHit {
  /** `usage`: quota or plan exhausted (hand off); `rate`: a transient limit the agent is retrying. */
  kind: "usage" | "rate";
  /** The limit message as shown (soft-wraps joined, borders and the agent's marker stripped). */
  message: string;
  /** When it resets, ISO-8601 (UTC), or null when not shown. */
  resetsAt: string | null;
  /** For `rate`: the retry attempt number shown, when shown. */
  attempt?: number;
  /** For `rate`: the wait shown, in seconds, when shown. */
  waitSeconds?: number;
  /** For `rate`: the agent gave up retrying (the turn ended), so waiting on it is pointless. */
  final?: boolean;
  /**
   * For `rate`: the agent retries this error without a bound of its own (Gemini CLI 0.61.0's
   * capacity loop): the retry-loop rule ends it once nothing else happens (`retryLoopSeconds`).
   */
  endless?: boolean;
  /** A caveat about the reset time (a zone this system does not know was read as local). */
  note?: string;
}

/** A file to write before a launch. */
export interface LaunchFile {
  /** Absolute path (inside the request's `scratchDir`). */
  path: string;
  /** UTF-8 content. */
  content: string;
  /** File mode; 0o600 when absent. */
  mode?: number;
}

/** What to run, for a fresh session or one that starts on a handoff. */
export interface Launch {
  /** argv[0] is the binary path. Run it with the request's `workspace` as working directory. */
  argv: string[];
  /** Extra environment. */
  env?: Record<string, string>;
  /** Files to write (mode 0600 unless told) before `prepare` and the launch. */
  files?: LaunchFile[];
  /**
   * A command to run first, in the workspace (e.g. `opencode import FILE`); its stdout is passed to
   * `finish`, which returns the final argv (e.g. `[bin, "-s", ID]`) replacing `argv`.
   */
  prepare?: { argv: string[]; finish(stdout: string): string[] };
  /**
   * The prompt the agent starts its first turn on, when the launch gives it one in its arguments
   * (the prompt road's handoff, the hook road's kickoff): the channel's prompt event for it is
   * uuldana's, not the user's.
   */
  opening?: string;
  /**
   * A one-line prompt the session must submit itself once the TUI is ready (paste it, then
   * `submitKey`), for roads whose argv cannot start the turn (the store road). Absent otherwise.
   */
  kickoff?: string;
}

/** Input to `Adapter.launch`. */
export interface LaunchRequest {
  /** The binary to run (absolute path from `findAgent`). */
  bin: string;
  /** The delivery road; ignored when `handoff` is null. */
  road: Road;
  /** The composed, framed handoff text for that road, or null for a clean start. */
  handoff: string | null;
  /** Path of the full handoff file (the pointer named in the frame). */
  handoffFile?: string;
  /** Extra args from config and the command line (placed before the road's own arguments). */
  extraArgs: string[];
  /** Workspace directory (the agent's working directory). */
  workspace: string;
  /** A private (0700) scratch directory for files this launch needs; it must exist. */
  scratchDir: string;
  /** The binary's version from `findAgent`, when known (the OpenCode store road records it). */
  version?: string | null;
  /**
   * Turn the agent's structured channel on, writing through this relay (adapters with a
   * `channel`); absent: the screen only.
   */
  channel?: ChannelRelay;
  /**
   * The agent's configured environment (its `env` in uuldana's config; uuldana's own environment
   * is inherited under it), for a channel that extends a variable the user already sets (OpenCode's
   * inline configuration) instead of replacing it.
   */
  env?: Readonly<Record<string, string>>;
}

/** Options for limit detection. */
export interface DetectOptions {
  /** The clock a shown reset time ("3:01am (UTC)") is resolved against. */
  now: Date;
  /** Text uuldana itself delivered (the handoff): limit messages quoted inside it never count. */
  delivered?: string[];
  /** Screen width; lets detectors re-join rows an agent wrapped itself at the full width. */
  cols?: number;
  /** IANA zone for reset times shown without a zone (Codex); default: this process's zone. */
  timeZone?: string;
}

/**
 * How an agent's input box looks on our screen model and which keys edit it, so uuldana can read
 * what was really submitted (history recall, completion and cursor edits show only there).
 */
export interface InputBox {
  /** The glyph and space before the first row of text, e.g. Claude's `"❯ "`. */
  prompt: string;
  /** What starts each further row of the box's text (a newline or a wrap), e.g. `"  "`. */
  continuation: string;
  /** Matches the row right above the box (a rule `────`, a box top `╭──`); null: none. */
  above: RegExp | null;
  /** Matches the row that ends the box (a rule, a box bottom, a blank row). */
  below: RegExp;
  /** Strips a side border from each row (`│ … │`) before the prompt is looked for. */
  sideBorders: boolean;
  /**
   * The live box has at most this many rows with text below it (footer, suggestions): a box-like
   * echo of an earlier turn above a dialog is not the box.
   */
  maxRowsBelow: number;
  /** Text the empty box shows (dim), never read as input. */
  placeholders: readonly RegExp[];
  /**
   * The label the box shows instead of a long paste (Claude: `[Pasted text #1 +40 lines]`); the
   * key tracker knows the pasted text behind it.
   */
  collapsedPaste: RegExp | null;
  /** A paste is collapsed when longer than `chars` or with more than `newlines` newlines. */
  collapseAbove: { chars: number; newlines: number } | null;
  /** Newline keys besides Alt+Enter, Shift+Enter (kitty/modifyOtherKeys) and Ctrl-J. */
  backslashEnter: boolean;
  /** Commands the agent handles itself (never sent to the model), e.g. `/help`, `/clear`. */
  localCommands: readonly string[];
  /**
   * The agent sends the box's text with leading and trailing blanks removed (before a collapsed
   * paste is put back in, so a collapsed paste keeps its own).
   */
  trimsSubmission: boolean;
}

/** One agent. */
export interface Adapter {
  /** Short name used in config and on the command line, e.g. "claude". */
  readonly name: string;
  /** Human name, e.g. "Claude Code". */
  readonly displayName: string;
  /** Binary names to look up on PATH. */
  readonly binNames: readonly string[];
  /** How to install it when missing. */
  readonly installHint: string;
  /**
   * Arguments that would resume or continue an earlier session: refused in the extra arguments of
   * a launch that carries a handoff (a handoff always starts a new native session).
   */
  readonly resumeFlags: readonly string[];
  /** Roads this agent supports, best first. */
  readonly roads: readonly Road[];
  /** Road used for automatic handoffs unless config says otherwise. */
  readonly defaultRoad: Road;
  /** Largest composed handoff (code points) the road can carry, when smaller than the global cap. */
  roadCap(road: Road): number | null;
  /**
   * Environment for the `--version`/`--help` probes only, to make them cheap where the agent
   * allows it (Gemini CLI: no self-relaunch). Absent when none is needed.
   */
  readonly probeEnv?: Readonly<Record<string, string>>;
  /** Checks a `--help` text for the documented initial-prompt line. */
  proveInitialPrompt(helpText: string): Proof;
  /**
   * The argv (and files, env) for a launch. Throws `RoadError` when the road is not supported, the
   * extra args would resume an old session, or the text cannot travel that road.
   */
  launch(req: LaunchRequest): Launch;
  /** Looks for this agent's limit message on the screen's logical lines (soft-wraps joined). */
  detectLimit(lines: readonly string[], opts: DetectOptions): LimitHit | null;
  /**
   * Looks for a usage warning the agent drew itself ("You've used 90% of your 5-hour limit ·
   * resets 3pm"): never a limit, the ledger's *near its limit*. Absent: the agent shows none that
   * uuldana reads.
   */
  detectWarning?(lines: readonly string[], opts: DetectOptions): LimitWarning | null;
  /** Byte strings that ask the agent to quit, sent in order with a short pause between them. */
  readonly quitKeys: readonly string[];
  /** The key that submits the input box (after typing or a bracketed paste). */
  readonly submitKey: string;
  /** The agent's input box as it shows on screen; absent: only the key tracker is used. */
  readonly inputBox?: InputBox;
  /**
   * Rows the agent draws about itself above its input box, never the model's words (Claude's
   * `✻ Crunched for 0s` after a turn, its spinner, `⎿  Interrupted · …`): left out of the
   * conversation a handoff carries from the screen (the run's screen lines keep them). Absent:
   * every row between two turns is the agent's.
   */
  readonly chromeRows?: readonly RegExp[];
  /**
   * Whether the screen (its rows, top to bottom) shows the agent ready to take a paste, for agents
   * that turn bracketed paste on (?2004h) long before they read input: OpenCode and Kilo do so
   * before their first frame and drop what arrives until their prompt box is drawn. Absent:
   * bracketed paste and a quiet screen are enough.
   */
  readonly inputReady?: (rows: readonly string[]) => boolean;
  /**
   * For agents that retry silently (stall rule, off unless configured): matches the busy/spinner
   * line; capture group 1, when present, is the elapsed time the agent shows ("26s", "1m 5s"; see
   * `busySeconds` in `stall.ts`).
   */
  readonly busyPattern?: RegExp;
  /**
   * Matches a row the agent shows only while it works on a turn (Claude's `esc to interrupt`):
   * a limit its channel reports while the screen shows one is not taken on its word. Default:
   * `BUSY_ROW` (`esc to interrupt`/`esc to cancel`).
   */
  readonly workingRow?: RegExp;
  /**
   * Matches the row the agent animates while it waits on its model with nothing else to show
   * (Copilot CLI's `◉ Working` footer, redrawn every 90 ms also while it retries a quota error):
   * a limit its channel reports with the provider's own code acts while only that row moves
   * (src/detect/detector.ts), and an error it retries without end hands off once only that row
   * moved `retryLoopSeconds` (Gemini CLI's `Thinking...`; src/detect/retry_loop.ts). Absent: any
   * drawing counts as the agent at work.
   */
  readonly waitingRow?: RegExp;
  /**
   * The status reports the agent prints into its output on its own (`"osc7501"`: the Program
   * Status Protocol, `ESC ] 7501 ; state=… ST`; Codex CLI): a second opinion on the limit its
   * screen shows (src/detect/program_status.ts). Absent: it prints none.
   */
  readonly programStatus?: "osc7501";
  /**
   * The agent's structured channel (hooks, a plugin, an event stream), turned on by `launch` when
   * its request carries a relay; absent: uuldana reads only its screen.
   */
  readonly channel?: AgentChannel;
  /**
   * The agent's own debug log, when it can write one to a file of the run's (Gemini CLI): a
   * second, conversation-free road for what it retries.
   */
  readonly debugLog?: AgentDebugLog;
}
