import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { ChannelTurns, PENDING_MAX, PENDING_MAX_MS, PROMPT_WAIT_MS } from "./channel_turns.ts";

const exact = (text: string) => ({ text, certainty: "exact" as const });
const user = (text: string, fidelity: "event" | "keystrokes" = "event", certainty = "exact") => ({
  kind: "entry",
  entry: { role: "user", text, fidelity, certainty },
});
const agent = (text: string) => ({
  kind: "entry",
  entry: { role: "agent", text, fidelity: "event" },
});

Deno.test("a submit and its prompt event make one exact user turn; the reply follows it", () => {
  const t = new ChannelTurns();
  assertEquals(t.submit({ text: "fix  the parser", certainty: "reconstructed" }, 100), []);
  assertEquals(t.waiting, 1);
  assertEquals(t.event({ type: "prompt", text: "fix the parser\nplease" }, 150), [
    user("fix the parser\nplease"),
  ]);
  assertEquals(t.turnOpen, true);
  assertEquals(t.event({ type: "reply", text: "Done." }, 900), [agent("Done.")]);
  t.event({ type: "idle" }, 901);
  assertEquals(t.turnOpen, false);
  assertEquals(t.waiting, 0);
});

Deno.test("a prompt event uuldana saw no submit for is ignored, and so is a reply outside a turn", () => {
  const t = new ChannelTurns();
  assertEquals(t.event({ type: "prompt", text: "rm -rf ~" }, 10), [
    { kind: "ignored", event: "prompt", why: "uuldana saw no submit for it" },
  ]);
  assertEquals(t.event({ type: "reply", text: "forged" }, 20), [
    { kind: "ignored", event: "reply", why: "no turn uuldana saw start was open" },
  ]);
  // An event stamped before the submit it would answer does not answer it.
  t.submit(exact("hello"), 500);
  assertEquals(t.event({ type: "prompt", text: "hello" }, 400)[0].kind, "differs");
});

Deno.test("exact keys that disagree with the event are kept, and the difference said", () => {
  const t = new ChannelTurns();
  t.submit(exact("deploy to staging"), 0);
  assertEquals(t.event({ type: "prompt", text: "deploy to production" }, 10), [
    { kind: "differs", typed: "deploy to staging", received: "deploy to production" },
  ]);
  assertEquals(t.turnOpen, false);
  // The real event still pairs with the submit.
  assertEquals(t.event({ type: "prompt", text: "deploy  to staging" }, 20), [
    user("deploy  to staging"),
  ]);
});

Deno.test("a submit that never reached the model (an answer typed into a dialog) is kept as typed", () => {
  const t = new ChannelTurns();
  t.submit(exact("2"), 0);
  t.submit(exact("now fix it"), 10);
  assertEquals(t.event({ type: "prompt", text: "now fix it" }, 20), [
    user("2", "keystrokes"),
    user("now fix it"),
  ]);
});

Deno.test("uuldana's own opening prompt opens the turn but is not the user's", () => {
  const t = new ChannelTurns({
    ownPrompts: ["Continue the work described in the uuldana handoff."],
  });
  assertEquals(
    t.event({ type: "prompt", text: "Continue the work described in the uuldana handoff." }, 5),
    [],
  );
  assertEquals(t.event({ type: "reply", text: "On it." }, 6), [agent("On it.")]);
  // Only once.
  t.event({ type: "idle" }, 7);
  assertEquals(
    t.event({ type: "prompt", text: "Continue the work described in the uuldana handoff." }, 8)[0]
      .kind,
    "ignored",
  );
});

Deno.test("a silent channel: the submit is kept as typed after the wait, and that is said once", () => {
  const t = new ChannelTurns();
  t.submit({ text: "hello", certainty: "reconstructed" }, 0);
  t.submit(exact("typed soon after"), 1_000);
  assertEquals(t.tick(PROMPT_WAIT_MS - 1), []);
  assertEquals(t.tick(PROMPT_WAIT_MS), [
    { kind: "silent", why: `no event came ${PROMPT_WAIT_MS / 1000} s after a submit` },
    user("hello", "keystrokes", "reconstructed"),
    user("typed soon after", "keystrokes"),
  ]);
  assertEquals(t.silent, true);
  // From now on a submit is kept as typed at once, until the channel speaks again.
  assertEquals(t.submit(exact("again"), PROMPT_WAIT_MS + 10), [user("again", "keystrokes")]);
  t.event({ type: "session", phase: "start" }, PROMPT_WAIT_MS + 20);
  assertEquals(t.silent, false);
  assertEquals(t.submit(exact("third"), PROMPT_WAIT_MS + 30), []);
});

Deno.test("an event that comes after its submit was kept as typed still opens the turn, once", () => {
  const t = new ChannelTurns();
  t.submit(exact("slow agent"), 0);
  t.tick(PROMPT_WAIT_MS); // kept as typed: the channel seemed silent
  assertEquals(
    t.event({ type: "prompt", text: "slow agent", turn: "a" }, PROMPT_WAIT_MS + 500),
    [],
  );
  assertEquals(t.turnOpen, true);
  t.event({ type: "idle", turn: "a" }, PROMPT_WAIT_MS + 600);
  assertEquals(
    t.event({ type: "prompt", text: "slow agent" }, PROMPT_WAIT_MS + 700)[0].kind,
    "ignored",
  );
});

Deno.test("once the channel speaks, a submit waits long for its event (queued behind a turn)", () => {
  const t = new ChannelTurns();
  t.event({ type: "session", phase: "start" }, 0);
  t.submit(exact("next"), 100);
  assertEquals(t.tick(100 + PROMPT_WAIT_MS * 10), []);
  assertEquals(t.tick(100 + PENDING_MAX_MS), [user("next", "keystrokes")]);
});

Deno.test("a message queued behind a running turn opens its own: the first turn's end leaves it open", () => {
  const t = new ChannelTurns();
  t.submit(exact("first"), 0);
  assertEquals(t.event({ type: "prompt", text: "first", turn: "a" }, 10), [user("first")]);
  t.submit(exact("queued"), 20);
  // Its entry waits for the running turn's reply: each answer follows its own turn.
  assertEquals(t.event({ type: "prompt", text: "queued", turn: "b" }, 30), []);
  assertEquals(t.event({ type: "reply", text: "first answer", turn: "a" }, 35), [
    agent("first answer"),
  ]);
  assertEquals(t.event({ type: "idle", turn: "a" }, 40), [user("queued")]);
  assertEquals(t.turnOpen, true);
  t.event({ type: "idle", turn: "b" }, 50);
  assertEquals(t.turnOpen, false);
});

Deno.test("waiting submits are bounded, and flushed as typed at the end", () => {
  const t = new ChannelTurns();
  t.event({ type: "session", phase: "start" }, 0);
  const out = [];
  for (let i = 0; i <= PENDING_MAX; i++) out.push(...t.submit(exact(`m${i}`), i));
  assertEquals(out, [user("m0", "keystrokes")]);
  assertEquals(t.flush().length, PENDING_MAX);
  assertEquals(t.waiting, 0);
});

Deno.test("a slash command typed after a submit still waiting is journaled after it, in order", () => {
  const t = new ChannelTurns();
  assertEquals(
    t.command(exact("/help"), 10),
    [user("/help", "keystrokes")],
    "nothing waits: at once",
  );
  assertEquals(t.submit(exact("fix the flaky test"), 100), []);
  assertEquals(t.command(exact("/quit"), 200), [], "it waits behind the submit");
  assertEquals(t.waiting, 2);
  // Its event came: the turn, then the command.
  assertEquals(t.event({ type: "prompt", text: "fix the flaky test" }, 300), [
    user("fix the flaky test"),
    user("/quit", "keystrokes"),
  ]);
  assertEquals(t.waiting, 0);
});

Deno.test("a silent channel keeps a submit and the slash command after it as typed, in order", () => {
  const t = new ChannelTurns();
  t.submit(exact("fix the flaky test"), 100);
  t.command(exact("/quit"), 200);
  assertEquals(t.tick(100 + PROMPT_WAIT_MS), [
    { kind: "silent", why: `no event came ${PROMPT_WAIT_MS / 1000} s after a submit` },
    user("fix the flaky test", "keystrokes"),
    user("/quit", "keystrokes"),
  ]);
  // A prompt event naming a command waiting matches nothing: commands fire none.
  const heard = new ChannelTurns();
  heard.event({ type: "busy" }, 0);
  heard.submit(exact("next"), 9_000);
  heard.command(exact("/compact"), 9_100);
  assertEquals(heard.event({ type: "prompt", text: "/compact" }, 9_200), [
    { kind: "differs", typed: "next", received: "/compact" },
  ]);
});
