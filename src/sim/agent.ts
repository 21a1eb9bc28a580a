/**
 * A simulated coding agent: a small real TUI that behaves like Claude Code, Codex, Gemini,
 * OpenCode, Qwen or Copilot for uuldana's end-to-end tests and `uuldana demo` — same flags, same
 * `--help` proof lines, similar screens and terminal modes, deterministic replies, the real
 * usage-limit layouts on demand — and logs everything it receives.
 *
 * Environment: `SIM_AGENT_LOG` (JSON-lines log), `SIM_LIMIT_AFTER=N` (the N-th turn hits the
 * limit), `SIM_RESET_AT` (reset time shown), `SIM_RESET_IN=S` (Claude's reset: the first whole
 * minute S seconds after its limit), `SIM_HELP_WITHOUT_PROMPT=1` (help lacks the proof
 * line), `SIM_STATE_DIR` (OpenCode sessions), `SIM_REPLY_MS` (reply delay, default 150),
 * `SIM_STARTUP_MS` (delay before the prompt is ready), `SIM_RETRY_MS` (OpenCode retry tick),
 * `SIM_IMPORT_MS` (how long `opencode import` takes),
 * `SIM_LOADING_MS` (with bracketed paste already on, the screen stays blank and input is dropped
 * this long before the first frame, as real OpenCode 1.18 and Kilo 7.7 do while they load),
 * `SIM_DEAF_MS` (after the first frame, input is dropped this long: an agent whose input box
 * shows but does not take input yet), `SIM_PASTE_SHOW_MS` (a paste is taken at once but drawn only
 * this long after it arrives, as a loaded TUI draws late),
 * `SIM_LIMIT_SESSIONS=N` (only the first N sessions, counted in `SIM_STATE_DIR`, hit it),
 * `SIM_RELAUNCH_MS` (Gemini and Qwen: every start, `--help` included, first costs this long, as
 * their launcher relaunching itself does, unless `GEMINI_CLI_NO_RELAUNCH`/`QWEN_CODE_NO_RELAUNCH`
 * is set), `SIM_HELP_MS` (`--help` takes this long whatever the environment),
 * `SIM_DEFAULT_MODEL` (OpenCode: the model the user's own configuration picks, `provider/model`;
 * default `opencode/big-pickle`),
 * `SIM_LIMIT_TEXT` (the provider's limit text OpenCode's footer and Copilot's `✗` line show; for
 * Claude, the text of its `⎿` limit row and its StopFailure hook),
 * `SIM_QWEN_FAIL_FAST=1` (Qwen's limit is a 429 naming its reset: `✕ Quota exhausted: …` at once
 * and its StopFailure hook), `SIM_COPILOT_RETRIES=N` (Copilot retries the failed call N times,
 * `SIM_RETRY_MS` apart, busy, its errorOccurred hook each time, before its `✗` row),
 * `SIM_RETRY_GIVEUP=N` (OpenCode stops retrying after attempt N and ends the turn with its `┃`
 * error block), `SIM_SPLIT_MS` (the frame showing the limit is written in two parts this many ms
 * apart, cut inside the reset clause), `SIM_TOOL_CAT=FILE` (Claude answers a turn by running
 * `cat FILE` and ends the turn on its output), `SIM_HOOKS_OFF=1` (no hook or plugin runs at all: Claude as
 * under managed settings with `disableAllHooks`), `SIM_MODEL_URL` (every submitted turn is also
 * POSTed there as an OpenAI chat-completions request, so a local mock sees this agent's model
 * requests beside a real agent's: the real-agent matrix times a handoff by them).
 *
 * @module
 */
import { join } from "node:path";
import { eventHooks, type HookResult, modelContext, readSettings, runHook } from "./claude_hook.ts";
import { KeyDecoder, type KeyEvent } from "./keys.ts";
import { LineEditor } from "./editor.ts";
import { completePath } from "./complete.ts";
import { parseLaunch, type SimLaunch } from "./launch.ts";
import {
  CLAUDE_LIMIT_OPTIONS,
  claudeLimitLine,
  codexLimitLine,
  copilotLimitLine,
  GEMINI_LIMIT_OPTIONS,
  OPENCODE_PROVIDER_TEXT,
  QWEN_QUOTA_RETRY_ROW,
  qwenLimitLine,
  resetClauseCut,
} from "./limit.ts";
import { SimLog } from "./log.ts";
import { type ProviderError, type SimChannel, simChannel } from "./channel.ts";
import {
  ImportError,
  loadSession,
  requestHistory,
  sessionModel,
  simStateDir,
  type StoredSession,
  storeSession,
  turnMessageId,
} from "./opencode_store.ts";
import { stringOption } from "./options.ts";
import { findPersona, helpText, type Persona, PERSONA_NAMES } from "./persona.ts";
import { replyLines } from "./reply.ts";
import { altFrame, InlineScreen } from "./screen.ts";
import { CLAUDE_HELP_PANEL, type ViewState } from "./view.ts";

const _enc = new TextEncoder();

function _write(fd: { writeSync(p: Uint8Array): number }, s: string): void {
  const bytes = _enc.encode(s);
  let off = 0;
  while (off < bytes.length) off += fd.writeSync(bytes.subarray(off));
}

function _env(name: string): string | undefined {
  return Deno.env.get(name) || undefined;
}

function _envInt(name: string, fallback: number): number {
  const n = Number(_env(name));
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

function _size(): { cols: number; rows: number } {
  try {
    const { columns, rows } = Deno.consoleSize();
    if (columns > 0 && rows > 0) return { cols: columns, rows };
  } catch { /* not a terminal */ }
  return { cols: 80, rows: 24 };
}

// The variable that stops a persona's launcher from starting itself a second time.
const _RELAUNCH_VARS: Partial<Record<string, string>> = {
  gemini: "GEMINI_CLI_NO_RELAUNCH",
  qwen: "QWEN_CODE_NO_RELAUNCH",
};

function _sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

// The first lines of a file a simulated tool call shows (at most 4, as Claude truncates).
function _readLines(path: string): string[] {
  try {
    return Deno.readTextFileSync(path).split("\n").filter((l) => l !== "").slice(0, 4);
  } catch (e) {
    return [`cat: ${path}: ${(e as Error).message}`];
  }
}

// SIM_MODEL_URL: the turn as a model request (its answer is not read; a failure is ignored).
function _postTurn(persona: string, text: string): void {
  const url = _env("SIM_MODEL_URL");
  if (!url) return;
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: `sim-${persona}`, messages: [{ role: "user", content: text }] }),
  }).then((r) => r.body?.cancel()).catch(() => {});
}

/** This process's interactive session number for its persona (1: the first), when counted. */
let _session = 1;

// `SIM_LIMIT_SESSIONS=N`: only the first N interactive sessions of a persona (counted in
// `$SIM_STATE_DIR`) hit the limit, as an account whose limit reset meanwhile.
function _countSession(persona: string): void {
  if (_env("SIM_LIMIT_SESSIONS") === undefined) return;
  const file = join(simStateDir(), `${persona}.sessions`);
  let n = 0;
  try {
    n = Number(Deno.readTextFileSync(file)) || 0;
  } catch {
    // the first session
  }
  _session = n + 1;
  Deno.writeTextFileSync(file, String(_session));
}

/**
 * `SIM_RESET_IN=S`: the reset Claude shows is the first whole minute at least S seconds after the
 * limit (its `h:mmam` form, UTC), so a test waits for a real reset no longer than it must.
 */
function _resetIn(): string | undefined {
  const seconds = _envInt("SIM_RESET_IN", -1);
  if (seconds < 0) return undefined;
  const at = new Date(Math.ceil((Date.now() + seconds * 1000) / 60_000) * 60_000);
  const h = at.getUTCHours();
  return `${h % 12 || 12}:${String(at.getUTCMinutes()).padStart(2, "0")}${h < 12 ? "am" : "pm"}`;
}

function _limitAfter(): number {
  const sessions = _envInt("SIM_LIMIT_SESSIONS", 0);
  if (sessions > 0 && _session > sessions) return 0;
  return _envInt("SIM_LIMIT_AFTER", 0);
}

/**
 * Runs persona `persona` with the command-line `args` (what follows the agent's name) and
 * returns its exit code. Interactive sessions need a terminal on stdin and stdout.
 */
export async function runSimAgent(persona: string, args: string[]): Promise<number> {
  const p = findPersona(persona);
  if (!p) {
    _write(
      Deno.stderr,
      `sim-agent: unknown persona ${JSON.stringify(persona)} (one of: ${
        PERSONA_NAMES.join(", ")
      })\n`,
    );
    return 2;
  }
  const launch = parseLaunch(p, args);
  const log = new SimLog(_env("SIM_AGENT_LOG") ?? null);
  log.write({
    event: "start",
    persona: p.name,
    argv: args,
    cwd: Deno.cwd(),
    size: Deno.stdout.isTerminal() ? _size() : null,
    mode: launch.mode,
    prompt: launch.prompt,
    unknown: launch.unknown,
    flags: launch.flags,
    ...(launch.droppedPrompt !== null ? { droppedPrompt: launch.droppedPrompt } : {}),
  });
  const relaunchVar = _RELAUNCH_VARS[p.name];
  if (relaunchVar && !_env(relaunchVar)) await _sleep(_envInt("SIM_RELAUNCH_MS", 0));
  let code: number;
  switch (launch.mode) {
    case "help":
      await _sleep(_envInt("SIM_HELP_MS", 0));
      _write(Deno.stdout, helpText(p, _env("SIM_HELP_WITHOUT_PROMPT") === "1"));
      code = 0;
      break;
    case "version":
      _write(Deno.stdout, p.versionText + "\n");
      code = 0;
      break;
    case "import": {
      // SIM_IMPORT_MS: a slow import (a big store), so a test can kill uuldana in the middle of it.
      const slow = _envInt("SIM_IMPORT_MS", 0);
      if (slow > 0) {
        log.write({ event: "import-start", pid: Deno.pid });
        await new Promise((r) => setTimeout(r, slow));
      }
      code = _import(launch, log);
      break;
    }
    case "print":
      code = await _printMode(p, launch, log);
      break;
    default:
      _countSession(p.name);
      code = await new _Session(p, launch, log, args).run();
  }
  log.write({ event: "exit", code });
  return code;
}

function _import(launch: SimLaunch, log: SimLog): number {
  const file = launch.importFile;
  if (!file) {
    _write(Deno.stderr, "Not enough non-option arguments: got 0, need at least 1\n");
    return 1;
  }
  try {
    const doc = JSON.parse(Deno.readTextFileSync(file));
    const s = storeSession(simStateDir(), doc, Deno.cwd());
    log.write({ event: "import", file, id: s.id, firstMessage: s.firstMessage });
    _write(Deno.stdout, `Imported session: ${s.id}\n`);
    return 0;
  } catch (e) {
    const msg = e instanceof ImportError || e instanceof SyntaxError
      ? e.message
      : e instanceof Deno.errors.NotFound
      ? `File not found: ${file}`
      : String(e);
    log.write({ event: "import", file, error: msg });
    _write(Deno.stderr, `Error: ${msg}\n`);
    return 1;
  }
}

async function _printMode(p: Persona, launch: SimLaunch, log: SimLog): Promise<number> {
  let prompt = launch.prompt;
  if (prompt === null && !Deno.stdin.isTerminal()) {
    prompt = (await new Response(Deno.stdin.readable).text()).trim();
  }
  if (!prompt) {
    _write(Deno.stderr, "Error: no prompt given\n");
    return 1;
  }
  log.write({ event: "submit", text: prompt, turn: 1 });
  if (_limitAfter() === 1) {
    const reset = _env("SIM_RESET_AT");
    const text = p.name === "claude"
      ? `You've hit your weekly limit · resets ${reset ?? "Dec 3, 1:15am"} (UTC)`
      : p.name === "codex"
      ? codexLimitLine(reset).slice(2)
      : p.name === "copilot"
      ? copilotLimitLine(reset).slice(2)
      : p.name === "qwen"
      ? qwenLimitLine().slice(2)
      : "Usage limit reached for all Pro models.";
    log.write({ event: "limit", turn: 1 });
    _write(Deno.stdout, text + "\n");
    return 1;
  }
  _write(Deno.stdout, replyLines(p.name, prompt, 1).join("\n") + "\n");
  return 0;
}

// One interactive session: terminal setup, the key loop, turns, limits, redraws.
class _Session {
  readonly #p: Persona;
  readonly #launch: SimLaunch;
  readonly #log: SimLog;
  readonly #view: ViewState;
  readonly #inline = new InlineScreen();
  readonly #decoder = new KeyDecoder();
  readonly #editor: LineEditor;
  /** Claude: Esc pressed once on a non-empty box (a second one clears it). */
  #escArmed = false;
  /** Turns whose answer an Esc interrupted. */
  readonly #interrupted = new Set<number>();
  readonly #replyMs = _envInt("SIM_REPLY_MS", 150);
  readonly #resetAt = _env("SIM_RESET_AT");
  readonly #limitText = _env("SIM_LIMIT_TEXT");
  readonly #toolFile = _env("SIM_TOOL_CAT");
  readonly #splitMs = _envInt("SIM_SPLIT_MS", 0);
  /** The next frame shows the limit: write it in two parts (SIM_SPLIT_MS). */
  #splitNext = false;
  /** The second part of a split frame is pending: later frames wait for it. */
  #holding = false;
  #renderQueued = false;
  #turn = 0;
  #context = "";
  #armed = false;
  #queue: string[] = [];
  #retryTimer: ReturnType<typeof setInterval> | undefined;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #done: (code: number) => void = () => {};
  #finished = false;
  #loadingUntil = 0;
  /** Still loading: nothing but a blank frame is drawn. */
  #blank = false;
  /** OpenCode: the session opened with `-s`, and the model its turns run on. */
  #session: StoredSession | null = null;
  #model: string | null = null;
  #signals: [Deno.Signal, () => void][] = [];
  /** Claude: the settings whose hooks run (the user's own, then `--settings`). */
  #settings: unknown[] = [];
  readonly #sessionId: string;
  /** Claude: the turn's `prompt_id`, as its hooks carry it. */
  #promptId = "";
  /** Claude: hooks not waited for (MessageDisplay), waited for before exit. */
  readonly #unwaited = new Set<Promise<unknown>>();

  /** The structured channel the launch turned on (hooks, plugins), as the real CLI runs it. */
  #channel: SimChannel | null = null;
  readonly #args: readonly string[];

  constructor(p: Persona, launch: SimLaunch, log: SimLog, args: readonly string[] = []) {
    // Codex CLI's `--no-alt-screen` runs its TUI inline, keeping what it drew in the scrollback.
    this.#p = launch.flags.includes("--no-alt-screen") ? { ...p, screen: "inline" } : p;
    this.#launch = launch;
    this.#log = log;
    this.#sessionId = launch.sessionId ?? crypto.randomUUID();
    this.#args = args;
    const claude = p.name === "claude";
    this.#editor = new LineEditor({
      backslashEnter: claude,
      collapsePastes: claude || p.name === "gemini" || p.name === "copilot",
      trim: claude,
      // Gemini CLI shows a long paste as `[Pasted Text: 43 lines]` until it is sent, Copilot CLI
      // as `[Paste #1 - 42 lines]`.
      label: p.name === "gemini" || p.name === "copilot" ? p.name : "claude",
    });
    const { cols, rows } = _size();
    this.#view = {
      persona: p.name,
      version: p.version,
      cwd: Deno.cwd(),
      cols,
      rows,
      items: [{ kind: "header" }],
      input: "",
      busy: false,
      menu: null,
      retry: null,
      hint: null,
      panel: null,
      resetAt: this.#resetAt,
      limitText: this.#limitText,
    };
  }

  async run(): Promise<number> {
    if (!Deno.stdin.isTerminal() || !Deno.stdout.isTerminal()) {
      _write(Deno.stderr, "Error: Raw mode is not supported on the current process.stdin\n");
      return 1;
    }
    // SIM_HOOKS_OFF=1: as Claude under managed settings with `disableAllHooks`.
    if (this.#p.name === "claude" && _env("SIM_HOOKS_OFF") !== "1") await this.#runHooks();
    if (this.#p.name === "opencode" && this.#launch.sessionId !== null) {
      const s = loadSession(simStateDir(), this.#launch.sessionId);
      if (!s) {
        _write(Deno.stderr, `Error: Session not found: ${this.#launch.sessionId}\n`);
        return 1;
      }
      this.#log.write({ event: "session", id: s.id, firstMessage: s.firstMessage });
      this.#view.items = s.firstMessage ? [{ kind: "user", text: s.firstMessage }] : [];
      this.#session = s;
    }
    if (this.#p.name === "opencode") {
      const cli = stringOption(this.#launch.parsed, "model") ?? null;
      this.#model = sessionModel(
        this.#session,
        cli,
        _env("SIM_DEFAULT_MODEL") ?? "opencode/big-pickle",
      );
    }
    const finished = new Promise<number>((resolve) => this.#done = resolve);
    Deno.stdin.setRaw(true);
    this.#listen("SIGWINCH", () => this.#resize());
    this.#listen("SIGTERM", () => this.#finish(143));
    this.#listen("SIGHUP", () => this.#finish(129));
    const startup = _envInt("SIM_STARTUP_MS", 0);
    if (startup) await new Promise((r) => setTimeout(r, startup));
    _write(
      Deno.stdout,
      (this.#p.screen === "alt" ? "\x1b[?1049h" : "") +
        `\x1b]0;${this.#p.title(this.#view.cwd)}\x07\x1b[?25l\x1b[?2004h\x1b[?1004h`,
    );
    this.#channel = await simChannel(this.#p.name, this.#args, _env).catch(() => null);
    if (this.#channel) this.#log.write({ event: "channel", persona: this.#p.name });
    // Input that arrives while it loads is read and dropped.
    this.#readLoop();
    const loading = _envInt("SIM_LOADING_MS", 0);
    if (loading) {
      // A blank frame while it loads, as OpenCode's renderer draws them; the box comes after.
      this.#blank = true;
      this.#loadingUntil = performance.now() + loading;
      _write(Deno.stdout, "\x1b[H\x1b[2J");
      await new Promise((r) => setTimeout(r, loading));
      this.#blank = false;
    }
    this.#render();
    const deaf = _envInt("SIM_DEAF_MS", 0);
    if (deaf) this.#loadingUntil = performance.now() + deaf;
    if (this.#launch.prompt !== null) this.#submit(this.#launch.prompt);
    const code = await finished;
    this.#cleanup();
    if (this.#settings.length) {
      // Claude runs its SessionEnd hooks on the way out (and lets the unwaited ones finish).
      await this.#fire("SessionEnd", { reason: code === 0 ? "prompt_input_exit" : "other" });
      await Promise.allSettled([...this.#unwaited]);
    }
    return code;
  }

  #listen(sig: Deno.Signal, fn: () => void): void {
    try {
      Deno.addSignalListener(sig, fn);
      this.#signals.push([sig, fn]);
    } catch { /* signal unsupported here */ }
  }

  // Claude's settings: the user's own file and `--settings`, whose hook arrays Claude concatenates.
  #loadSettings(): boolean {
    const user = join(Deno.env.get("HOME") ?? "/nonexistent", ".claude", "settings.json");
    try {
      this.#settings.push(JSON.parse(Deno.readTextFileSync(user)));
    } catch { /* none, or not JSON: Claude would say so; the simulation goes on */ }
    if (this.#launch.settings === null) return true;
    try {
      this.#settings.push(readSettings(this.#launch.settings));
      return true;
    } catch (e) {
      this.#log.write({ event: "hook", error: `invalid settings: ${(e as Error).message}` });
      this.#view.items.push({ kind: "note", text: `Settings error: ${(e as Error).message}` });
      return false;
    }
  }

  /**
   * Runs every hook of `event` with Claude's stdin JSON (the fields real Claude 2.1.332 sends) and
   * logs each; all of an event's hooks run at once.
   */
  async #fire(
    event: string,
    extra: Record<string, unknown>,
    match?: string,
  ): Promise<HookResult[]> {
    const hooks = this.#settings.flatMap((s) => eventHooks(s, event, match));
    if (hooks.length === 0) return [];
    const input = {
      session_id: this.#sessionId,
      transcript_path: `${simStateDir()}/claude/${this.#sessionId}.jsonl`,
      cwd: Deno.cwd(),
      ...(event === "SessionStart" ? {} : { prompt_id: this.#promptId }),
      hook_event_name: event,
      ...extra,
    };
    return await Promise.all(hooks.map(async (hook) => {
      const r = await runHook(hook, input, Deno.cwd());
      this.#log.write({
        event: "hook",
        hook: event,
        command: r.command,
        exitCode: r.exitCode,
        additionalContext: r.additionalContext,
        ...(event === "SessionStart"
          ? { modelReceived: r.additionalContext ? modelContext(r.additionalContext) : "" }
          : {}),
        ...(r.stderr ? { stderr: r.stderr } : {}),
      });
      return r;
    }));
  }

  // Claude does not wait for these (MessageDisplay): they may finish in any order.
  #fireUnwaited(event: string, extra: Record<string, unknown>): void {
    const p = this.#fire(event, extra).catch(() => []);
    this.#unwaited.add(p);
    p.finally(() => this.#unwaited.delete(p));
  }

  async #runHooks(): Promise<void> {
    if (!this.#loadSettings()) return;
    const results = await this.#fire(
      "SessionStart",
      { source: "startup", model: "claude-sim-1" },
      "startup",
    );
    for (const r of results) {
      if (r.exitCode !== 0) {
        this.#view.items.push({ kind: "note", text: `SessionStart:startup hook error` });
      } else if (r.additionalContext) {
        this.#context += (this.#context ? "\n" : "") + r.additionalContext;
        const n = [...r.additionalContext].length;
        this.#view.items.push({
          kind: "note",
          text: `SessionStart:startup hook added ${n} characters of context`,
        });
      }
    }
  }

  async #readLoop(): Promise<void> {
    const buf = new Uint8Array(65536);
    const dec = new TextDecoder();
    while (!this.#finished) {
      let n: number | null;
      try {
        n = await Deno.stdin.read(buf);
      } catch {
        n = null;
      }
      if (n === null) {
        this.#finish(129); // the terminal went away
        return;
      }
      const text = dec.decode(buf.subarray(0, n), { stream: true });
      if (!text) continue;
      if (performance.now() < this.#loadingUntil) {
        this.#log.write({ event: "dropped", bytes: text });
        continue;
      }
      this.#log.write({ event: "input", bytes: text });
      for (const ev of this.#decoder.feed(text)) this.#key(ev);
      clearTimeout(this.#flushTimer);
      if (this.#decoder.pending) {
        this.#flushTimer = setTimeout(() => {
          for (const ev of this.#decoder.flush()) this.#key(ev);
        }, 50);
      }
    }
  }

  #key(ev: KeyEvent): void {
    if (this.#finished) return;
    const v = this.#view;
    if (ev.type !== "ctrl-c" && ev.type !== "focus") {
      this.#armed = false;
      v.hint = null;
    }
    if (ev.type !== "escape") this.#escArmed = false;
    if (v.panel) {
      // A dialog (Claude's /help) takes only Esc, which closes it.
      if (ev.type === "escape" || ev.type === "ctrl-c") v.panel = null;
      else return;
      this.#render();
      return;
    }
    const ed = this.#editor;
    switch (ev.type) {
      case "text":
        if (v.menu) {
          const n = Number(ev.text[0]);
          if (n >= 1 && n <= v.menu.options.length) this.#choose(n - 1);
        } else ed.insert(ev.text);
        break;
      case "paste": {
        const text = ev.text.replace(/\r\n?/g, "\n");
        this.#log.write({ event: "paste", text });
        const late = _envInt("SIM_PASTE_SHOW_MS", 0);
        if (late && !v.menu) {
          // A loaded TUI takes the paste at once but draws it only later.
          setTimeout(() => {
            ed.paste(text, v.rows);
            v.input = ed.text;
            this.#render();
          }, late);
          return;
        }
        if (!v.menu) ed.paste(text, v.rows);
        break;
      }
      case "enter":
        if (v.menu) this.#choose(v.menu.selected);
        else {
          const text = ed.enter();
          if (text !== null) {
            v.input = ed.text;
            if (v.busy) this.#queue.push(text);
            else this.#submit(text);
            return;
          }
        }
        break;
      case "newline":
        if (!v.menu) ed.insert("\n");
        break;
      case "backspace":
        ed.backspace();
        break;
      case "tab":
        ed.tab((prefix) => completePath(Deno.cwd(), prefix));
        break;
      case "ctrl-c":
        if (this.#armed) {
          this.#finish(0);
          return;
        }
        this.#armed = true;
        ed.clear();
        v.hint = "Press Ctrl-C again to exit";
        this.#interrupt();
        break;
      case "escape":
        if (v.menu) this.#choose(v.menu.purpose === "gemini-limit" ? 1 : -1);
        else if (v.busy && this.#p.name === "claude") this.#interruptTurn();
        else if (this.#p.name === "claude" && ed.text !== "") {
          // Claude: Esc once shows a hint, Esc again clears the box.
          if (this.#escArmed) ed.clear();
          else v.hint = "Esc again to clear";
          this.#escArmed = !this.#escArmed;
        } else this.#interrupt();
        break;
      case "arrow":
        if (v.menu && (ev.direction === "up" || ev.direction === "down")) {
          const n = v.menu.options.length;
          v.menu.selected = (v.menu.selected + (ev.direction === "up" ? n - 1 : 1)) % n;
        } else if (!v.menu) {
          if (ev.direction === "left") ed.move(-1);
          else if (ev.direction === "right") ed.move(1);
          else if (ev.direction === "up") ed.up();
          else ed.down();
        }
        break;
      case "other":
        if (v.menu || !this.#editKey(ev.sequence)) return;
        break;
      default:
        return; // focus reports: nothing to redraw
    }
    v.input = ed.text;
    const recalled = ed.recalled;
    v.boxTitle = recalled ? `History ${recalled.at}/${recalled.of}` : null;
    this.#render();
  }

  /** The editing keys the decoder leaves as raw sequences; false when `seq` is none of them. */
  #editKey(seq: string): boolean {
    const ed = this.#editor;
    switch (seq) {
      case "\x1b[H":
      case "\x1bOH":
      case "\x1b[1~":
      case "\x01":
        ed.home();
        return true;
      case "\x1b[F":
      case "\x1bOF":
      case "\x1b[4~":
      case "\x05":
        ed.end();
        return true;
      case "\x1b[3~":
        ed.deleteForward();
        return true;
      case "\x15":
        ed.killToStart();
        return true;
      case "\x0b":
        ed.killToEnd();
        return true;
      case "\x17":
      case "\x1b\x7f":
        ed.killWord();
        return true;
      case "\x1b\r": // Alt+Enter, Shift+Enter (xterm modifyOtherKeys, kitty): a newline
      case "\x1b[27;2;13~":
      case "\x1b[13;2u":
        ed.insert("\n");
        return true;
    }
    return false;
  }

  /** Claude: Esc while it answers stops the turn; the answer never comes. */
  #interruptTurn(): void {
    const v = this.#view;
    this.#interrupted.add(this.#turn);
    this.#queue = [];
    v.busy = false;
    v.items.push({ kind: "note", text: "Interrupted · What should Claude do instead?" });
    this.#log.write({ event: "interrupt", turn: this.#turn });
    this.#channel?.interrupted();
  }

  #interrupt(): void {
    const v = this.#view;
    if (this.#retryTimer !== undefined) {
      clearInterval(this.#retryTimer);
      this.#retryTimer = undefined;
      v.retry = null;
      v.retryCountdown = null;
      v.busy = false;
      v.items.push({ kind: "error", text: "The operation was aborted." });
      this.#channel?.interrupted();
    }
  }

  #choose(index: number): void {
    const v = this.#view;
    const menu = v.menu;
    if (!menu) return;
    v.menu = null;
    this.#log.write({ event: "choice", menu: menu.purpose, choice: menu.options[index] ?? null });
    if (menu.purpose === "gemini-limit" && index === 0) {
      v.busy = true;
      setTimeout(() => this.#answer("", this.#turn), this.#replyMs);
    } else if (menu.purpose === "gemini-limit") {
      v.items.push({ kind: "note", text: "Request cancelled." });
    }
  }

  #submit(text: string): void {
    const v = this.#view;
    if (/^\/(?:quit|exit)\s*$/.test(text.trim())) {
      this.#log.write({ event: "submit", text, turn: null });
      this.#finish(0);
      return;
    }
    if (this.#p.name === "claude" && this.#local(text.trim())) return;
    const turn = ++this.#turn;
    this.#log.write({ event: "submit", text, turn });
    this.#channel?.submitted(text, turn);
    _postTurn(this.#p.name, text);
    if (this.#model !== null) this.#request(text, turn);
    v.items.push({ kind: "user", text });
    v.busy = true;
    this.#render();
    if (!this.#settings.length) {
      setTimeout(() => this.#answer(text, turn), this.#replyMs);
      return;
    }
    // Claude runs the UserPromptSubmit hooks, then sends the turn with what they printed as
    // context (the log's "model" event is what the model received).
    this.#promptId = crypto.randomUUID();
    this.#fire("UserPromptSubmit", { permission_mode: "default", prompt: text }).then((rs) => {
      const hookContext = rs.filter((r) => r.exitCode === 0 && r.additionalContext)
        .map((r) => `UserPromptSubmit hook additional context: ${r.additionalContext}`);
      this.#log.write({ event: "model", turn, prompt: text, hookContext });
      setTimeout(() => this.#answer(text, turn), this.#replyMs);
    });
  }

  // OpenCode: what the turn's model request carries (the log's proof of what the model received).
  #request(text: string, turn: number): void {
    const id = turnMessageId();
    const history = this.#session ? requestHistory(this.#session, id) : [];
    this.#context = history.map((m) => m.text).join("\n");
    this.#log.write({
      event: "request",
      turn,
      model: this.#model,
      messageId: id,
      history: history.map((m) => m.id),
      context: this.#context,
    });
    this.#session?.list.push({ id, role: "user", agent: "build", model: this.#model!, text });
  }

  /** Claude's own commands: run here, never sent to the model (logged as `local`). */
  #local(command: string): boolean {
    const v = this.#view;
    if (command === "/help") {
      this.#log.write({ event: "local", text: command });
      v.panel = CLAUDE_HELP_PANEL;
      this.#render();
      return true;
    }
    if (command === "/clear") {
      this.#log.write({ event: "local", text: command });
      v.items.push({ kind: "note", text: "(no content)" });
      this.#render();
      return true;
    }
    return false;
  }

  #answer(text: string, turn: number): void {
    if (this.#finished || this.#interrupted.has(turn)) return;
    const v = this.#view;
    const limitAfter = _limitAfter();
    if (limitAfter > 0 && turn >= limitAfter) {
      this.#log.write({ event: "limit", turn });
      this.#showLimit();
    } else if (this.#toolFile && this.#p.name === "claude") {
      // Claude runs `cat FILE` and ends its turn on the tool's output (as the real one may).
      const shown = _readLines(this.#toolFile);
      this.#log.write({ event: "tool", turn, command: `cat ${this.#toolFile}` });
      v.items.push({
        kind: "raw",
        rows: [
          "",
          `⏺ Bash(cat ${this.#toolFile})`,
          ...shown.map((l, i) => (i ? "     " : "  ⎿  ") + l),
        ],
      });
      v.items.push({ kind: "raw", rows: ["", "✻ Worked for 1s"] });
      v.busy = false;
    } else {
      const lines = replyLines(this.#p.name, text, turn, this.#context);
      this.#log.write({ event: "reply", turn, text: lines.join("\n") });
      v.items.push({ kind: "reply", lines });
      v.busy = false;
      if (this.#settings.length) this.#replyHooks(lines.join("\n"));
      this.#channel?.replied(lines.join("\n"), turn);
    }
    this.#render();
    if (!v.busy && !v.menu && this.#queue.length) this.#submit(this.#queue.shift()!);
  }

  // As real Claude: the displayed message in two MessageDisplay parts (not waited for), then Stop.
  #replyHooks(text: string): void {
    const message_id = crypto.randomUUID();
    const cut = text.indexOf("\n") + 1;
    const parts = cut > 0 ? [text.slice(0, cut), text.slice(cut)] : [text];
    parts.forEach((delta, index) =>
      this.#fireUnwaited("MessageDisplay", {
        turn_id: this.#promptId,
        message_id,
        index,
        final: index === parts.length - 1,
        delta,
      })
    );
    this.#fireUnwaited("Stop", {
      permission_mode: "default",
      effort: { level: "medium" },
      stop_hook_active: false,
      last_assistant_message: text,
      background_tasks: [],
      session_crons: [],
    });
  }

  #showLimit(): void {
    const v = this.#view;
    const reset = _resetIn() ?? this.#resetAt;
    v.busy = false;
    this.#splitNext = this.#splitMs > 0;
    switch (this.#p.name) {
      case "claude": {
        // SIM_LIMIT_TEXT: a limit text of a Claude version uuldana's screen reader does not know.
        const line = this.#limitText ? `  ⎿ \u00a0${this.#limitText}` : claudeLimitLine(reset);
        v.items.push({ kind: "error", text: line });
        if (this.#settings.length) {
          this.#fireUnwaited("StopFailure", {
            effort: { level: "medium" },
            error: "rate_limit",
            last_assistant_message: line.replace(/^\s*⎿\s*/u, ""),
          });
        }
        v.items.push({ kind: "raw", rows: ["", "✻ Sautéed for 0s"] });
        v.items.push({ kind: "user", text: "/rate-limit-options" });
        v.menu = { purpose: "claude-limit", options: CLAUDE_LIMIT_OPTIONS, selected: 0 };
        break;
      }
      case "codex":
        v.items.push({ kind: "error", text: codexLimitLine(reset) });
        break;
      case "gemini":
        v.menu = { purpose: "gemini-limit", options: GEMINI_LIMIT_OPTIONS, selected: 0 };
        break;
      case "opencode": {
        v.busy = true;
        v.retry = 1;
        const retryMs = _envInt("SIM_RETRY_MS", 2000);
        const body = this.#providerError();
        this.#channel?.retrying(1, body, retryMs);
        clearInterval(this.#retryTimer);
        this.#retryTimer = setInterval(() => {
          v.retry = (v.retry ?? 0) + 1;
          const giveUp = _envInt("SIM_RETRY_GIVEUP", 0);
          if (giveUp > 0 && v.retry > giveUp) {
            clearInterval(this.#retryTimer);
            this.#retryTimer = undefined;
            v.retry = null;
            v.busy = false;
            v.items.push({ kind: "error", text: this.#limitText ?? OPENCODE_PROVIDER_TEXT });
            this.#log.write({ event: "gave-up", attempts: giveUp });
            this.#channel?.failed(body, body.message, "APIError");
          } else this.#channel?.retrying(v.retry, body, retryMs);
          this.#render();
        }, retryMs);
        break;
      }
      case "qwen":
        if (_env("SIM_QWEN_FAIL_FAST") === "1") {
          // A 429 naming its reset: Qwen gives up at once (QwenLM/qwen-code#7842), StopFailure.
          const body = this.#providerError();
          const shown = `Quota exhausted: ${body.message}`;
          v.items.push({ kind: "error", text: `  ✕ ${shown}` });
          this.#channel?.failed(body, shown, "billing_error");
          break;
        }
        // Qwen Code 0.24.4 retries DashScope's quota 429 (10 attempts, 60 s and more apart): it
        // stays busy with its error row and a countdown, as the real-agent matrix showed.
        v.items.push({ kind: "error", text: QWEN_QUOTA_RETRY_ROW });
        v.busy = true;
        v.retryCountdown = { seconds: 38, attempt: 1 };
        clearInterval(this.#retryTimer);
        this.#retryTimer = setInterval(() => {
          const cd = v.retryCountdown!;
          v.retryCountdown = cd.seconds > 1
            ? { seconds: cd.seconds - 1, attempt: cd.attempt }
            : { seconds: 60, attempt: Math.min(10, cd.attempt + 1) };
          this.#render();
        }, 1000);
        break;
      case "copilot": {
        // Copilot CLI 1.0.102 retries a failed model call five times (a minute), its hook told
        // each time, before its ✗ row (SIM_COPILOT_RETRIES; 0: the row at once).
        const retries = _envInt("SIM_COPILOT_RETRIES", 0);
        const body = this.#providerError();
        const show = () => {
          v.busy = false;
          v.items.push({ kind: "error", text: copilotLimitLine(reset, this.#limitText) });
        };
        if (retries <= 0) {
          this.#channel?.retrying(1, body, 0);
          show();
          break;
        }
        v.busy = true;
        let attempt = 1;
        this.#channel?.retrying(attempt, body, _envInt("SIM_RETRY_MS", 2000));
        clearInterval(this.#retryTimer);
        this.#retryTimer = setInterval(() => {
          if (++attempt > retries) {
            clearInterval(this.#retryTimer);
            this.#retryTimer = undefined;
            show();
          } else this.#channel?.retrying(attempt, body, _envInt("SIM_RETRY_MS", 2000));
          this.#render();
        }, _envInt("SIM_RETRY_MS", 2000));
        break;
      }
    }
  }

  #resize(): void {
    const { cols, rows } = _size();
    this.#view.cols = cols;
    this.#view.rows = rows;
    this.#log.write({ event: "resize", cols, rows });
    if (this.#p.screen === "inline") _write(Deno.stdout, this.#inline.redraw(this.#view));
    else this.#render();
  }

  #render(): void {
    if (this.#finished || this.#blank) return;
    if (this.#holding) {
      this.#renderQueued = true;
      return;
    }
    const out = this.#p.screen === "alt" ? altFrame(this.#view) : this.#inline.update(this.#view);
    const cut = this.#splitNext ? resetClauseCut(out) : -1;
    this.#splitNext = false;
    if (cut < 0) {
      _write(Deno.stdout, out);
      return;
    }
    // Like a message that reaches the terminal in two writes (network, renderer): cut inside
    // its reset clause, the rest after a pause.
    _write(Deno.stdout, out.slice(0, cut));
    this.#log.write({ event: "split", ms: this.#splitMs });
    this.#holding = true;
    setTimeout(() => {
      this.#holding = false;
      if (this.#finished) return;
      _write(Deno.stdout, out.slice(cut));
      if (this.#renderQueued) {
        this.#renderQueued = false;
        this.#render();
      }
    }, this.#splitMs);
  }

  // The provider's error behind the limit shown: a quota when its text says so.
  #providerError(): ProviderError {
    const message = this.#limitText ??
      "You exceeded your current quota, please check your plan and billing details.";
    const quota = /quota|billing|credits|usage limit/i.test(message);
    return {
      status: 429,
      message,
      type: quota ? "insufficient_quota" : "requests",
      code: quota ? "insufficient_quota" : "rate_limit_exceeded",
    };
  }

  #finish(code: number): void {
    if (this.#finished) return;
    this.#channel?.ended();
    this.#finished = true;
    this.#done(code);
  }

  #cleanup(): void {
    clearInterval(this.#retryTimer);
    clearTimeout(this.#flushTimer);
    for (const [sig, fn] of this.#signals) Deno.removeSignalListener(sig, fn);
    const leave = this.#p.screen === "alt" ? "\x1b[?1049l" : "\r\n";
    try {
      _write(Deno.stdout, `\x1b[?2004l\x1b[?1004l\x1b[?25h${leave}`);
      Deno.stdin.setRaw(false);
    } catch { /* the terminal is gone */ }
  }
}
