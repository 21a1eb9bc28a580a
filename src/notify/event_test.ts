import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { notifyText, takesOsc777, terminalNotification } from "./event.ts";

const sw = { kind: "switch", from: "claude", to: "codex", why: "resets 3:01am" } as const;
const env = (vars: Record<string, string>) => (n: string) => vars[n];

Deno.test("the bell, then OSC 9 with one line", () => {
  assertEquals(
    terminalNotification(sw, { bell: true, desktop: true, osc777: false }),
    "\x07\x1b]9;uuldana: claude → codex: resets 3:01am\x1b\\",
  );
  assertEquals(
    terminalNotification(sw, { bell: false, desktop: true, osc777: false }).at(0),
    "\x1b",
  );
  assertEquals(terminalNotification(sw, { bell: true, desktop: false, osc777: false }), "\x07");
  assertEquals(terminalNotification(sw, { bell: false, desktop: false, osc777: false }), "");
});

Deno.test("OSC 777 where the terminal is known to take it", () => {
  assertEquals(
    terminalNotification(sw, { bell: false, desktop: true, osc777: true }),
    "\x1b]777;notify;uuldana;claude → codex: resets 3:01am\x1b\\",
  );
  assertEquals(takesOsc777(env({ TERM: "rxvt-unicode-256color" })), true);
  assertEquals(takesOsc777(env({ TERM_PROGRAM: "WezTerm", TERM: "xterm-256color" })), true);
  assertEquals(takesOsc777(env({ TERM: "xterm-256color" })), false);
  assertEquals(takesOsc777(env({})), false);
});

Deno.test("text from an agent's screen cannot end the sequence or start another", () => {
  const hostile = { ...sw, why: "limit\x07\x1b]52;c;ZXZpbA==\x1b\\ \x9b31m;done" };
  const bytes = terminalNotification(hostile, { bell: false, desktop: true, osc777: true });
  assertEquals(
    bytes,
    "\x1b]777;notify;uuldana;claude → codex: limit ]52 c ZXZpbA== \\ 31m done\x1b\\",
  );
  const long = terminalNotification({ ...sw, why: "x".repeat(1000) }, {
    bell: false,
    desktop: true,
    osc777: false,
  });
  assertEquals(long.length < 220, true);
});

Deno.test("notifyText names every event", () => {
  assertEquals(
    notifyText({ kind: "wait", agent: "claude", until: "2026-12-01T03:01:00Z" }),
    "every agent is limited; waiting for claude (resets 2026-12-01T03:01:00Z)",
  );
  assertEquals(notifyText({ kind: "available", agent: "claude" }), "claude is available again");
  assertEquals(
    notifyText({
      kind: "undelivered",
      agent: "opencode",
      why: "opencode did not show its input box within 40 s; nothing was pasted",
      todo: "the handoff is saved in /d/handoff.md",
    }),
    "opencode did not show its input box within 40 s; nothing was pasted; " +
      "the handoff is saved in /d/handoff.md",
  );
  assertEquals(
    notifyText({ kind: "return", from: "codex", to: "claude" }),
    "codex → claude: claude is available again",
  );
});
