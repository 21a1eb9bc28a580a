import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { eraseBytes, ESCAPE_TIMEOUT_MS, type InputEvent, InputTracker } from "./input.ts";
import { TURN_CAP } from "./line_buffer.ts";
import { gunzipSync } from "node:zlib";
import { KEY_STREAMS_FILE } from "../../tests/_paths.ts";

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

type Brief =
  | { type: "submit"; text: string; exact: boolean }
  | Exclude<InputEvent, { type: "submit" }>;

/** A submit event without its reconciliation details (tail, pastes), for short expectations. */
function brief(e: InputEvent): Brief {
  return e.type === "submit" ? { type: "submit", text: e.text, exact: e.exact } : e;
}

/** Feeds each string as its own chunk; returns all forwarded text and events. */
function run(t: InputTracker, ...chunks: string[]): { forwarded: string; events: Brief[] } {
  let forwarded = "";
  const events: Brief[] = [];
  for (const c of chunks) {
    const r = t.feed(bytes(c));
    forwarded += text(r.forward);
    events.push(...r.events.map(brief));
  }
  return { forwarded, events };
}

Deno.test("typed line submitted with Enter; everything forwarded unchanged", () => {
  const t = new InputTracker();
  const input = "hello wörld 🎉\r";
  const r = t.feed(bytes(input));
  assertEquals(text(r.forward), input);
  assertEquals(r.events.map(brief), [{ type: "submit", text: "hello wörld 🎉", exact: true }]);
  assertEquals(t.line, "");
});

Deno.test("the forward array is the input itself when nothing is withheld", () => {
  const t = new InputTracker();
  const b = bytes("abc");
  assertEquals(t.feed(b).forward === b, true);
});

Deno.test("UTF-8 split across feeds and byte-at-a-time typing", () => {
  const t = new InputTracker();
  const all = bytes("日本 ✓\r");
  const events: Brief[] = [];
  for (const b of all) events.push(...t.feed(new Uint8Array([b])).events.map(brief));
  assertEquals(events, [{ type: "submit", text: "日本 ✓", exact: true }]);
});

Deno.test("empty and blank lines do not submit", () => {
  const t = new InputTracker();
  assertEquals(run(t, "\r", "   \r").events, []);
});

Deno.test("backspace (0x7f and 0x08) removes whole code points", () => {
  const t = new InputTracker();
  assertEquals(run(t, "ab🎉", "\x7f", "c", "\x08", "\x7f", "x\r").events, [
    { type: "submit", text: "ax", exact: true },
  ]);
});

Deno.test("Ctrl-U clears the line, Ctrl-W deletes a word, Ctrl-C clears", () => {
  const t = new InputTracker();
  assertEquals(run(t, "foo bar  ", "\x17", "baz\r").events, [
    { type: "submit", text: "foo baz", exact: true },
  ]);
  assertEquals(run(t, "junk", "\x15", "ok\r").events, [{
    type: "submit",
    text: "ok",
    exact: true,
  }]);
  assertEquals(run(t, "junk", "\x03", "fine\r").events, [
    { type: "submit", text: "fine", exact: true },
  ]);
});

Deno.test("/agent NAME: Enter withheld, command event with arg and typed", () => {
  const t = new InputTracker();
  const r = run(t, "/agent", " codex", "\r");
  assertEquals(r.forwarded, "/agent codex");
  assertEquals(r.events, [{ type: "command", name: "agent", arg: "codex", typed: "/agent codex" }]);
  assertEquals(t.line, "");
});

Deno.test("/agent alone, typed at once with Enter: only the Enter is dropped", () => {
  const t = new InputTracker();
  const r = t.feed(bytes("/agent\rnext"));
  assertEquals(text(r.forward), "/agentnext");
  assertEquals(r.events, [{ type: "command", name: "agent", arg: null, typed: "/agent" }]);
  assertEquals(t.line, "next");
});

Deno.test("/agents, /agent with two words, and leading space are not commands", () => {
  const t = new InputTracker();
  const r = run(t, "/agents\r", "/agent a b\r", " /agent x\r");
  assertEquals(r.forwarded, "/agents\r/agent a b\r /agent x\r");
  assertEquals(r.events.map((e) => e.type), ["submit", "submit", "submit"]);
});

Deno.test("a typo fixed with backspace still makes the command", () => {
  const t = new InputTracker();
  const r = run(t, "/agnet", "\x7f\x7f\x7f", "ent gemini  ", "\r");
  assertEquals(r.events, [{
    type: "command",
    name: "agent",
    arg: "gemini",
    typed: "/agent gemini  ",
  }]);
});

Deno.test("history recall makes the line uncertain: no command, submit is best effort", () => {
  const t = new InputTracker();
  const r = run(t, "/agent x", "\x1b[A", "\r");
  assertEquals(r.forwarded, "/agent x\x1b[A\r");
  assertEquals(r.events, [{ type: "submit", text: "/agent x", exact: false }]);
  // Certainty comes back after the submit.
  assertEquals(run(t, "/agent y\r").events[0].type, "command");
});

Deno.test("history (up arrow, SS3 form) and Tab make the line uncertain", () => {
  const t = new InputTracker();
  // Up then Enter sends what history recalled: a submit the input box must fill in.
  assertEquals(run(t, "\x1bOA", "\r").events, [{ type: "submit", text: "", exact: false }]);
  run(t, "/agen", "\t");
  assertEquals(t.exact, false);
  run(t, "\x03");
  assertEquals(t.exact, true);
});

Deno.test("focus, mouse, F-keys and terminal replies pass through without touching the line", () => {
  const t = new InputTracker();
  const noise = [
    "\x1b[I",
    "\x1b[O",
    "\x1b[<0;12;5M",
    "\x1b[<0;12;5m",
    "\x1b[M !!",
    "\x1bOP",
    "\x1b[15~",
    "\x1b[1;2R",
    "\x1b[?62;22c",
    "\x1b[?2026;2$y",
    "\x1b[?7u",
    "\x1b]11;rgb:0000/0000/0000\x1b\\",
    "\x1b]10;rgb:ffff/ffff/ffff\x07",
    "\x1bP>|xterm(388)\x1b\\",
    "\x1b_Gi=1;OK\x1b\\",
  ];
  const r = run(t, "/age", ...noise, "nt claude\r");
  assertEquals(r.forwarded, "/age" + noise.join("") + "nt claude");
  assertEquals(r.events, [{
    type: "command",
    name: "agent",
    arg: "claude",
    typed: "/agent claude",
  }]);
});

Deno.test("escape sequences split across feeds are still recognised", () => {
  const t = new InputTracker();
  const r = run(t, "ab\x1b", "[", "<0;1;1", "M", "c\x1b]11;rgb:1/2/3\x1b", "\\d\r");
  assertEquals(r.events, [{ type: "submit", text: "abcd", exact: true }]);
});

Deno.test("bracketed paste: newlines and Enter inside are text; Enter after submits it", () => {
  const t = new InputTracker();
  const r = run(t, "see:\x1b[200~line one\r\nline two\rthree\x1b[201~", "\r");
  assertEquals(r.events, [{ type: "submit", text: "see:line one\nline two\nthree", exact: true }]);
});

Deno.test("bracketed paste end marker split across feeds, and a partial marker inside", () => {
  const t = new InputTracker();
  const r = run(t, "\x1b[200~a\x1b[20x", "b\x1b[2", "01~c", "\r");
  assertEquals(r.events, [{ type: "submit", text: "a[20xbc", exact: true }]);
});

Deno.test("a pasted /agent line is not run before Enter; a paste with a newline never is", () => {
  const t = new InputTracker();
  assertEquals(run(t, "\x1b[200~/agent x\ny\x1b[201~\r").events[0].type, "submit");
  assertEquals(run(t, "\x1b[200~/agent x\x1b[201~").events, []);
  assertEquals(run(t, "\r").events[0].type, "command");
});

Deno.test("kitty CSI u keys: text keys, Enter, Backspace, Ctrl-U, releases", () => {
  const t = new InputTracker();
  const r = run(
    t,
    "\x1b[47u", // "/"
    "agen",
    "\x1b[116;1:1u", // t press
    "\x1b[116;1:3u", // t release
    "\x1b[32u", // space
    "\x1b[113;2:1;81u", // shift+q with text "Q"
    "\x1b[57441u", // left shift alone
    "\x1b[127u", // backspace
    "x",
    "\x1b[13u",
  );
  assertEquals(r.events, [{ type: "command", name: "agent", arg: "x", typed: "/agent x" }]);
  assertEquals(r.forwarded.endsWith("x"), true); // the CSI 13u Enter was withheld
  assertEquals(run(t, "junk\x1b[117;5u", "ok\x1b[13u").events, [
    { type: "submit", text: "ok", exact: true },
  ]);
});

Deno.test("xterm modifyOtherKeys keys and Shift-Enter newline", () => {
  const t = new InputTracker();
  // Ctrl-U (as CSI 27;5;117~) kills back to the start of the current line of the box only.
  const r = run(t, "a", "\x1b[27;2;13~", "b", "\x1b[27;5;117~", "c\r");
  assertEquals(r.events, [{ type: "submit", text: "a\nc", exact: true }]);
  assertEquals(run(t, "a\x1b[27;2;13~b\r").events, [{ type: "submit", text: "a\nb", exact: true }]);
});

Deno.test("Alt-Backspace deletes a word; other Alt keys make the line uncertain", () => {
  const t = new InputTracker();
  assertEquals(run(t, "one two", "\x1b\x7f", "three\r").events, [
    { type: "submit", text: "one three", exact: true },
  ]);
  assertEquals(run(t, "one", "\x1bb", "\r").events, [{
    type: "submit",
    text: "one",
    exact: false,
  }]);
});

Deno.test("reset and markUncertain", () => {
  const t = new InputTracker();
  run(t, "abc");
  t.reset();
  assertEquals([t.line, t.exact], ["", true]);
  t.markUncertain();
  assertEquals(run(t, "/agent\r").events[0].type, "submit");
});

Deno.test("eraseBytes: one DEL per code point", () => {
  assertEquals([...eraseBytes("/agent é🎉")], new Array(9).fill(0x7f));
  assertEquals(eraseBytes("").length, 0);
});

Deno.test("Left, Right, Home, End, Delete and Ctrl-A/E/K are followed on a cursor", () => {
  const t = new InputTracker();
  assertEquals(run(t, "fix the bug", "\x1b[D", "\x1b[D", "\x1b[D", "nasty ", "\r").events, [
    { type: "submit", text: "fix the nasty bug", exact: true },
  ]);
  assertEquals(run(t, "bc", "\x1b[H", "a", "\x1b[F", "d", "\x1bOD", "\x1b[3~", "e\r").events, [
    { type: "submit", text: "abce", exact: true },
  ]);
  assertEquals(run(t, "world", "\x01", "hello ", "\x05", "!", "\x01\x1b[C", "\x0b", "\r").events, [
    { type: "submit", text: "h", exact: true },
  ]);
  assertEquals(run(t, "ab", "\x1b[D", "\x7f", "x\r").events, [
    { type: "submit", text: "xb", exact: true },
  ]);
});

Deno.test("backslash then Enter is a newline where the agent says so (Claude)", () => {
  const t = new InputTracker({ backslashEnter: true });
  assertEquals(run(t, "a\\", "\r", "b\r").events, [{ type: "submit", text: "a\nb", exact: true }]);
  // Without the convention the backslash is text and Enter submits.
  assertEquals(run(new InputTracker(), "a\\\r").events, [
    { type: "submit", text: "a\\", exact: true },
  ]);
});

Deno.test("a lone Esc is a key after the timeout; ESC x in one read is Alt+x", () => {
  const t = new InputTracker();
  t.feed(bytes("\x1b"), 1000);
  const late = t.feed(bytes("explain it\r"), 1000 + ESCAPE_TIMEOUT_MS + 1).events;
  // The Esc may have changed the box (uncertain), but no key was swallowed.
  assertEquals(late.map(brief), [{ type: "submit", text: "explain it", exact: false }]);
  assertEquals(late[0].type === "submit" && late[0].tail, "explain it");
  t.feed(bytes("one\x1b"), 2000);
  assertEquals(t.feed(bytes("b\r"), 2010).events.map(brief), [
    { type: "submit", text: "one", exact: false },
  ]);
});

Deno.test("the tail since the last uncertain key, and the pastes, come with a submit", () => {
  const t = new InputTracker();
  const [up] = t.feed(bytes("\x1b[A too\r")).events;
  assertEquals(up, {
    type: "submit",
    text: " too",
    exact: false,
    tail: " too",
    pastes: [],
    cut: false,
  });
  const [tab] = t.feed(bytes("@src/disc\tx\x1b[D\r")).events;
  assertEquals(tab.type === "submit" && tab.tail, null); // the cursor moved after the Tab
  const [p] = t.feed(bytes("see \x1b[200~one\ntwo\x1b[201~ and \x1b[200~3\x1b[201~\r")).events;
  assertEquals(p.type === "submit" && p.pastes, ["one\ntwo", "3"]);
});

// --- Bounded memory (issue 12): pastes are whole pieces, a turn keeps at most TURN_CAP. ---

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** `size` bytes of ASCII log lines, numbered, so a start and an end can be told apart. */
function logText(size: number): string {
  const lines: string[] = [];
  let n = 0;
  for (let i = 1; n < size; i++) {
    const line = `log line ${i}: the quick brown fox\n`;
    lines.push(line);
    n += line.length;
  }
  return lines.join("").slice(0, size);
}

Deno.test("a 10 MB paste: every byte forwarded, the recorded turn bounded and marked cut", () => {
  const t = new InputTracker();
  const paste = logText(10_000_000);
  const all = bytes(`explain ${PASTE_START}${paste}${PASTE_END} please\r`);
  let forwarded = 0;
  const events: InputEvent[] = [];
  for (let at = 0; at < all.length; at += 65536) {
    const r = t.feed(all.subarray(at, at + 65536));
    forwarded += r.forward.length;
    events.push(...r.events);
  }
  assertEquals(forwarded, all.length);
  assertEquals(events.length, 1);
  const e = events[0];
  if (e.type !== "submit") throw new Error("expected a submit");
  assertEquals(e.cut, true);
  assertEquals(e.exact, true);
  assert(e.text.length <= TURN_CAP + 200, `kept ${e.text.length} code units`);
  assert(e.text.length > TURN_CAP / 2, "keeps most of what it may");
  // The start and the end are kept, with a note in place of the middle.
  assert(e.text.startsWith("explain log line 1: the quick brown fox\nlog line 2:"));
  assert(e.text.endsWith(paste.slice(-1000) + " please"));
  const note =
    /\[… uuldana kept only the start and the end of this paste: ([\d,]+) bytes in the middle were not recorded …\]/
      .exec(e.text);
  assert(note !== null, "the text says where it was cut");
  const [head, tail] = e.text.split(note[0]);
  // What was kept and what the note counts add up to the paste.
  const omitted = Number(note[1].replaceAll(",", ""));
  assertEquals(
    head.length - "explain ".length - 1 + omitted + tail.length - " please".length - 1,
    paste.length,
  );
  assertEquals(e.pastes.length, 1);
  assertEquals(e.text, `explain ${e.pastes[0]} please`);
});

Deno.test("a paste of astral text cut in the middle keeps whole code points", () => {
  const t = new InputTracker();
  const paste = "😀".repeat(400_000) + "end"; // 1.6 MB of 4-byte characters
  const [e] = t.feed(bytes(`${PASTE_START}${paste}${PASTE_END}\r`)).events;
  if (e.type !== "submit") throw new Error("expected a submit");
  assertEquals(e.cut, true);
  assert(!e.text.includes("\ufffd"), "no character broken at the cut");
  assert(e.text.startsWith("😀😀") && e.text.endsWith("😀end"));
});

Deno.test("typed keys past the cap are counted and the turn says it lost its end", () => {
  const t = new InputTracker();
  const big = logText(TURN_CAP * 0.9 + 10);
  t.feed(bytes(`${PASTE_START}${big}${PASTE_END}`));
  // Unbracketed typing (a terminal without bracketed paste) fills the rest and more.
  const typed = "x".repeat(TURN_CAP * 0.2);
  const [e] = t.feed(bytes(`${typed}\r`)).events;
  if (e.type !== "submit") throw new Error("expected a submit");
  assertEquals(e.cut, true);
  assert(e.text.length <= TURN_CAP + 400);
  assert(/did not record the last [\d,]+ bytes typed in this turn/.test(e.text));
  // The next turn starts whole again.
  const [next] = t.feed(bytes("short\r")).events;
  assertEquals(next, {
    type: "submit",
    text: "short",
    exact: true,
    tail: "short",
    pastes: [],
    cut: false,
  });
});

Deno.test("editing keys work around and inside a paste", () => {
  const t = new InputTracker();
  const paste = (s: string) => `${PASTE_START}${s}${PASTE_END}`;
  // Backspace eats the paste's last character; Left moves into it; Home stops after its newline.
  assertEquals(
    run(t, "a", paste("one\ntwo"), "\x7f", "\x1b[D", "X", "\x01", "^", "\x05", "$\r")
      .events,
    [{ type: "submit", text: "aone\n^tXw$", exact: true }],
  );
  // Delete at the paste's start, Right over it, Ctrl-K from inside it, Ctrl-W into it.
  assertEquals(
    run(t, paste("hello world"), "\x01", "\x1b[3~", "\x1b[C\x1b[C", "\x0b", "!", " x", "\x17\r")
      .events,
    [{ type: "submit", text: "el! ", exact: true }],
  );
  // Ctrl-U kills to the pasted newline only.
  assertEquals(run(t, paste("keep\ndrop "), "me", "\x15", "new\r").events, [
    { type: "submit", text: "keep\nnew", exact: true },
  ]);
  // Claude's `\` + Enter after a paste that ends in a backslash.
  const c = new InputTracker({ backslashEnter: true });
  assertEquals(run(c, paste("path\\"), "\r", "more\r").events, [
    { type: "submit", text: "path\nmore", exact: true },
  ]);
});

/** One recorded key stream: what the tracker before bounded pieces forwarded and reported. */
interface RecordedStream {
  seed: number;
  backslashEnter: boolean;
  /** Each read: its time, its bytes (one char per byte), what was forwarded when not all of it. */
  steps: { at: number; keys: string; forward?: string; events?: RecordedEvent[] }[];
  /** The line and its certainty once all keys were in. */
  line: string;
  exact: boolean;
}

/** A recorded event; a submit's `tail` only where the line was uncertain (reconcile reads it). */
type RecordedEvent =
  | { type: "submit"; text: string; exact: boolean; pastes: string[]; tail?: string | null }
  | Exclude<InputEvent, { type: "submit" }>;

Deno.test("on 3,000 recorded key streams the tracker does what the unbounded one did", () => {
  const streams = new TextDecoder().decode(gunzipSync(Deno.readFileSync(KEY_STREAMS_FILE)))
    .trimEnd().split("\n").map((l) => JSON.parse(l) as RecordedStream);
  assertEquals(streams.length, 3000);
  const latin1 = (b: Uint8Array) => String.fromCharCode(...b);
  for (const s of streams) {
    const now = new InputTracker({ backslashEnter: s.backslashEnter });
    const why = `seed ${s.seed}: ${JSON.stringify(s.steps.map((x) => x.keys).join(""))}`;
    for (const step of s.steps) {
      const r = now.feed(Uint8Array.from(step.keys, (ch) => ch.charCodeAt(0)), step.at);
      assertEquals(latin1(r.forward), step.forward ?? step.keys, why);
      const events = r.events.map((e): RecordedEvent => {
        if (e.type !== "submit") return e;
        assertEquals(e.cut, false, why);
        const { text, exact, pastes, tail } = e;
        return { type: "submit", text, exact, pastes, ...(exact ? {} : { tail }) };
      });
      assertEquals(events, step.events ?? [], why);
    }
    // (A paste joins the line when it ends, so the line is compared once all keys are in.)
    assertEquals([now.line, now.exact], [s.line, s.exact], why);
  }
});

Deno.test("Home at the very start of a line with a newline later stays at the start", () => {
  // The old tracker's lastIndexOf("\n", -1) searched from the end: Home jumped past the newline.
  const t = new InputTracker();
  assertEquals(run(t, "a\nb", "\x01", "\x1b[D\x1b[D", "\x01", "\x7f", "x\r").events, [
    { type: "submit", text: "xa\nb", exact: true },
  ]);
});

Deno.test("a paste longer than the kept start but within the cap is whole, in small reads", () => {
  const t = new InputTracker();
  // 600,003 bytes of 3-byte characters: the kept start ends inside one; CR LF across reads.
  const paste = "日本語".repeat(66_667) + "\r\nend";
  const all = bytes(`${PASTE_START}${paste}${PASTE_END}\r`);
  const events: InputEvent[] = [];
  for (let at = 0; at < all.length; at += 4093) {
    events.push(...t.feed(all.subarray(at, at + 4093)).events);
  }
  assertEquals(
    events.map((e) => e.type === "submit" && [e.text === paste.replace("\r\n", "\n"), e.cut]),
    [
      [true, false],
    ],
  );
});

Deno.test("pastes deleted again and again within one turn keep the turn's memory bounded", () => {
  const t = new InputTracker();
  const paste = "one long line of a minified bundle ".repeat(20_000); // 700 KB, no newline
  for (let i = 0; i < 20; i++) t.feed(bytes(`${PASTE_START}${paste}${PASTE_END}\x15`));
  const [e] = t.feed(bytes("done\r")).events;
  if (e.type !== "submit") throw new Error("expected a submit");
  assertEquals(e.text, "done");
  assert(e.pastes.reduce((n, p) => n + p.length, 0) <= TURN_CAP, "the paste list is bounded");
  assertEquals(e.pastes.at(-1), paste);
});
