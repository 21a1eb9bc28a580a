import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { eraseBytes, ESCAPE_TIMEOUT_MS, type InputEvent, InputTracker } from "./input.ts";

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
  assertEquals(up, { type: "submit", text: " too", exact: false, tail: " too", pastes: [] });
  const [tab] = t.feed(bytes("@src/disc\tx\x1b[D\r")).events;
  assertEquals(tab.type === "submit" && tab.tail, null); // the cursor moved after the Tab
  const [p] = t.feed(bytes("see \x1b[200~one\ntwo\x1b[201~ and \x1b[200~3\x1b[201~\r")).events;
  assertEquals(p.type === "submit" && p.pastes, ["one\ntwo", "3"]);
});
