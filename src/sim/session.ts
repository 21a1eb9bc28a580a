/**
 * One interactive session of a simulated agent (agent.ts starts it): the terminal set up as the
 * persona's TUI sets it, the key loop (keys.ts decodes, editor.ts edits the input box), turns and
 * their replies, each persona's usage-limit screens and retries, redraws (view.ts, screen.ts), and
 * the structured channel the launch turned on told each moment of a turn (Claude's:
 * claude_channel.ts; the others': channel.ts).
 *
 * @module
 */
import { KeyDecoder, type KeyEvent } from "./keys.ts";
import { LineEditor } from "./editor.ts";
import { completePath } from "./complete.ts";
import type { SimLaunch } from "./launch.ts";
import { resetClauseCut } from "./limit.ts";
import { showLimit } from "./limit_turn.ts";
import type { SimLog } from "./log.ts";
import { type SimChannel, simChannel } from "./channel.ts";
import { startClaudeChannel } from "./claude_channel.ts";
import {
  loadSession,
  requestHistory,
  sessionModel,
  simStateDir,
  type StoredSession,
  turnMessageId,
} from "./opencode_store.ts";
import { stringOption } from "./options.ts";
import type { Persona } from "./persona.ts";
import { replyLines } from "./reply.ts";
import { altFrame, InlineScreen } from "./screen.ts";
import { CLAUDE_HELP_PANEL, type ViewState } from "./view.ts";
import { env, envInt, limitAfter, resetIn, termSize, warnAfter, write } from "./env.ts";

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
  const url = env("SIM_MODEL_URL");
  if (!url) return;
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: `sim-${persona}`, messages: [{ role: "user", content: text }] }),
  }).then((r) => r.body?.cancel()).catch(() => {});
}

/** One interactive session: terminal setup, the key loop, turns, limits, redraws. */
export class SimSession {
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
  readonly #replyMs = envInt("SIM_REPLY_MS", 150);
  readonly #resetAt = env("SIM_RESET_AT");
  readonly #limitText = env("SIM_LIMIT_TEXT");
  readonly #toolFile = env("SIM_TOOL_CAT");
  readonly #splitMs = envInt("SIM_SPLIT_MS", 0);
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
  readonly #sessionId: string;

  /**
   * The structured channel the launch turned on (hooks, plugins), as the real CLI runs it:
   * Claude's (claude_channel.ts) or another agent's (channel.ts).
   */
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
    const { cols, rows } = termSize();
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
      write(Deno.stderr, "Error: Raw mode is not supported on the current process.stdin\n");
      return 1;
    }
    // Claude runs its SessionStart hooks before anything else (SIM_HOOKS_OFF=1: as Claude under
    // managed settings with `disableAllHooks`, none at all).
    if (this.#p.name === "claude" && env("SIM_HOOKS_OFF") !== "1") {
      const start = await startClaudeChannel(this.#launch, this.#log, this.#sessionId);
      this.#channel = start.channel;
      this.#context = start.context;
      for (const text of start.notes) this.#view.items.push({ kind: "note", text });
    }
    if (this.#p.name === "opencode" && this.#launch.sessionId !== null) {
      const s = loadSession(simStateDir(), this.#launch.sessionId);
      if (!s) {
        write(Deno.stderr, `Error: Session not found: ${this.#launch.sessionId}\n`);
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
        env("SIM_DEFAULT_MODEL") ?? "opencode/big-pickle",
      );
    }
    const finished = new Promise<number>((resolve) => this.#done = resolve);
    Deno.stdin.setRaw(true);
    this.#listen("SIGWINCH", () => this.#resize());
    this.#listen("SIGTERM", () => this.#finish(143));
    this.#listen("SIGHUP", () => this.#finish(129));
    const startup = envInt("SIM_STARTUP_MS", 0);
    if (startup) await new Promise((r) => setTimeout(r, startup));
    write(
      Deno.stdout,
      (this.#p.screen === "alt" ? "\x1b[?1049h" : "") +
        `\x1b]0;${this.#p.title(this.#view.cwd)}\x07\x1b[?25l\x1b[?2004h\x1b[?1004h`,
    );
    if (!this.#channel) {
      this.#channel = await simChannel(this.#p.name, this.#args, env).catch(() => null);
      if (this.#channel) this.#log.write({ event: "channel", persona: this.#p.name });
    }
    // Input that arrives while it loads is read and dropped.
    this.#readLoop();
    const loading = envInt("SIM_LOADING_MS", 0);
    if (loading) {
      // A blank frame while it loads, as OpenCode's renderer draws them; the box comes after.
      this.#blank = true;
      this.#loadingUntil = performance.now() + loading;
      write(Deno.stdout, "\x1b[H\x1b[2J");
      await new Promise((r) => setTimeout(r, loading));
      this.#blank = false;
    }
    this.#render();
    const deaf = envInt("SIM_DEAF_MS", 0);
    if (deaf) this.#loadingUntil = performance.now() + deaf;
    if (this.#launch.prompt !== null) this.#submit(this.#launch.prompt);
    const code = await finished;
    this.#cleanup();
    // Claude runs its SessionEnd hooks on the way out (and lets the unwaited ones finish).
    await this.#channel?.closing?.(code);
    return code;
  }

  #listen(sig: Deno.Signal, fn: () => void): void {
    try {
      Deno.addSignalListener(sig, fn);
      this.#signals.push([sig, fn]);
    } catch { /* signal unsupported here */ }
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
        const late = envInt("SIM_PASTE_SHOW_MS", 0);
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
        if (v.menu || !this.#editor.editKey(ev.sequence)) return;
        break;
      default:
        return; // focus reports: nothing to redraw
    }
    v.input = ed.text;
    const recalled = ed.recalled;
    v.boxTitle = recalled ? `History ${recalled.at}/${recalled.of}` : null;
    this.#render();
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
    const warning = warnAfter();
    if (warning.turn > 0 && turn === warning.turn && this.#p.name === "claude") {
      this.#log.write({ event: "warning", turn, text: warning.text });
      v.notice = warning.text;
    }
    this.#render();
    // Claude's UserPromptSubmit hooks run before the turn goes to the model.
    const answer = () => setTimeout(() => this.#answer(text, turn), this.#replyMs);
    const before = this.#channel?.beforeAnswer?.(text, turn);
    if (before) before.then(answer);
    else answer();
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
    const limitTurn = limitAfter();
    if (limitTurn > 0 && turn >= limitTurn) {
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
      this.#channel?.replied(lines.join("\n"), turn);
    }
    this.#render();
    if (!v.busy && !v.menu && this.#queue.length) this.#submit(this.#queue.shift()!);
  }

  #showLimit(): void {
    this.#view.busy = false;
    this.#splitNext = this.#splitMs > 0;
    showLimit(this.#p.name, {
      view: this.#view,
      channel: this.#channel,
      log: this.#log,
      limitText: this.#limitText,
      render: () => this.#render(),
      retryEvery: (ms, tick) => {
        clearInterval(this.#retryTimer);
        this.#retryTimer = setInterval(tick, ms);
      },
      stopRetry: () => {
        clearInterval(this.#retryTimer);
        this.#retryTimer = undefined;
      },
    }, resetIn() ?? this.#resetAt);
  }

  #resize(): void {
    const { cols, rows } = termSize();
    this.#view.cols = cols;
    this.#view.rows = rows;
    this.#log.write({ event: "resize", cols, rows });
    if (this.#p.screen === "inline") write(Deno.stdout, this.#inline.redraw(this.#view));
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
      write(Deno.stdout, out);
      return;
    }
    // Like a message that reaches the terminal in two writes (network, renderer): cut inside
    // its reset clause, the rest after a pause.
    write(Deno.stdout, out.slice(0, cut));
    this.#log.write({ event: "split", ms: this.#splitMs });
    this.#holding = true;
    setTimeout(() => {
      this.#holding = false;
      if (this.#finished) return;
      write(Deno.stdout, out.slice(cut));
      if (this.#renderQueued) {
        this.#renderQueued = false;
        this.#render();
      }
    }, this.#splitMs);
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
      write(Deno.stdout, `\x1b[?2004l\x1b[?1004l\x1b[?25h${leave}`);
      Deno.stdin.setRaw(false);
    } catch { /* the terminal is gone */ }
  }
}
