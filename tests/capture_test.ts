/**
 * Capture fidelity end to end: a person types into the simulated Claude Code (which edits its
 * input box like the real one: `\`+Enter newlines, history on Up, Tab completion of `@paths`,
 * cursor editing, collapsed pastes, `/help` closed with Esc, Esc during a reply) through uuldana in
 * tmux. What the model received (the agent's own log) must be what the journal recorded, once,
 * in order, with its certainty, and what the next agent is handed, User and Agent in time order.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { framedBody, World } from "./_world.ts";
import { runConversation } from "../src/handoff/prepare.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const pause = (ms = 150) => new Promise((r) => setTimeout(r, ms));
const LONG = Array.from({ length: 334 }, (_, i) => `word${i}`).join(" ").slice(0, 3000);
const LOG = Array.from({ length: 40 }, (_, i) => `log line ${i + 1}: ok`).join("\n");

/** The `User:` and `Agent:` entries of a framed handoff body, oldest first. */
function conversation(body: string): { role: string; text: string }[] {
  const at = body.search(/^Conversation so far/m);
  const parts = body.slice(at).split(/\n\n(?=(?:User|Agent): )/).slice(1);
  return parts.map((p) => {
    const m = /^(User|Agent): ([\s\S]*)$/.exec(p)!;
    return { role: m[1], text: m[2].replace(/\n {2}/g, "\n") };
  });
}

/**
 * Types the whole session and checks it. `hooks`: Claude's channel speaks (its hooks fire, as they
 * do for real Claude); off (as under managed settings that disable hooks), uuldana reconstructs
 * every turn from the keys and the input box.
 */
async function typedSession(hooks: boolean): Promise<void> {
  const limitAt = 14;
  const w = new World(["claude", "codex"], {
    claude: {
      SIM_LIMIT_AFTER: String(limitAt),
      SIM_REPLY_MS: "700",
      ...(hooks ? {} : { SIM_HOOKS_OFF: "1" }),
    },
  });
  Deno.mkdirSync(join(w.workspace, "src"));
  Deno.writeTextFileSync(join(w.workspace, "src", "discount.ts"), "export {};\n");
  const keys = async (...names: string[]) => {
    for (const k of names) {
      await w.term.send(k);
      await pause(60);
    }
  };
  const text = async (s: string) => {
    await w.term.send(s, true);
    await pause();
  };
  let turns = 0;
  const submitted = async () => {
    turns++;
    await w.waitForEvent("claude", "submit", turns);
  };
  let interrupted = 0;
  const replied = async () => {
    // Each turn but the interrupted one gets its reply before the next is typed.
    await w.waitForEvent("claude", "reply", turns - interrupted);
    await pause(250);
  };
  const answered = async () => {
    await submitted();
    await replied();
  };
  try {
    await w.start(["run"]);
    await w.waitForEvent("claude", "start");
    await w.term.waitFor("? for shortcuts");
    await pause(300);

    // 1. `\` + Enter is Claude's newline.
    await text("first line\\");
    await keys("Enter");
    await text("second line");
    await keys("Enter");
    await answered();
    // /help is Claude's own; Esc closes it, and the next key is not swallowed.
    await text("/help");
    await keys("Enter");
    await w.term.waitFor("Esc to cancel");
    await keys("Escape");
    await pause(300);
    await text("explain it");
    await keys("Enter");
    await answered();
    // 3. History: Up then Enter, and Up then more text.
    await keys("Up");
    await pause();
    await keys("Enter");
    await answered();
    await keys("Up");
    await pause();
    await text(" too");
    await keys("Enter");
    await answered();
    // 4. Editing keys: Ctrl-U, Backspace, Left + insert; Tab completes an @path; Ctrl-W.
    await text("wrong start");
    await keys("C-u");
    await text("fix teh");
    await keys("BSpace", "BSpace");
    await text("he bug");
    await keys("Left", "Left", "Left");
    await text("nasty ");
    await keys("Enter");
    await answered();
    await text("read @src/disc");
    await keys("Tab");
    await pause();
    await text(" please oops");
    await keys("C-w", "Enter");
    await answered();
    // The other newline keys: Alt+Enter, Ctrl-J, Shift+Enter (as kitty/xterm encode it).
    await text("alt");
    await keys("M-Enter");
    await text("enter");
    await keys("Enter");
    await answered();
    await text("ctrl");
    await keys("C-j");
    await text("j");
    await keys("Enter");
    await answered();
    await text("shift");
    await w.term.send("\x1b[13;2u", true);
    await text("enter");
    await keys("Enter");
    await answered();
    // A long paste shows collapsed in the box; the model gets all of it.
    await text("see this log: ");
    await w.term.paste(LOG + "\n");
    await w.term.waitFor("[Pasted text #1 +40 lines]");
    await keys("Enter");
    await answered();
    // Esc during a reply interrupts it.
    await text("start a long refactor");
    await keys("Enter");
    await w.waitForEvent("claude", "submit", ++turns);
    await pause(200);
    await keys("Escape");
    await w.waitForEvent("claude", "interrupt");
    interrupted++;
    await pause(300);
    await text("non-ASCII: grüße, 日本語, 🎉");
    await keys("Enter");
    await answered();
    await text(LONG);
    await keys("Enter");
    await answered();
    await text("now add a test");
    await keys("Enter");
    await submitted();

    const [start] = await w.waitForEvent("codex", "start");
    const received = w.events("claude", "submit").map((e) => String(e.text));
    assertEquals(received, [
      "first line\nsecond line",
      "explain it",
      "explain it",
      "explain it too",
      "fix the nasty bug",
      "read @src/discount.ts please",
      "alt\nenter",
      "ctrl\nj",
      "shift\nenter",
      `see this log: ${LOG}\n`,
      "start a long refactor",
      "non-ASCII: grüße, 日本語, 🎉",
      LONG,
      "now add a test",
    ]);
    assertEquals(w.events("claude", "local").map((e) => e.text), ["/help"]);

    // The journal holds every message the model received, once, in order, none best effort.
    const claudeRun = w.withJournal((j) => j.runs().find((r) => r.agent === "claude")!);
    const all = w.withJournal((j) => j.entries(claudeRun.id));
    const recorded = all.filter((e) => e.role === "user");
    assertEquals(recorded.map((e) => e.text), received);
    // The turns that were answered: all but the interrupted one and the one at the limit.
    const answeredTurns = [...Array(limitAt - 1).keys()].map((i) => i + 1).filter((n) => n !== 11);
    if (hooks) {
      // From Claude's own hooks: every turn exact, every answer as Claude gave it.
      for (const e of recorded) assertEquals([e.fidelity, e.certainty], ["event", "exact"]);
      const replies = all.filter((e) => e.role === "agent");
      assertEquals(
        replies.map((e) => /\(turn (\d+)\)/.exec(e.text)?.[1]).map(Number),
        answeredTurns,
      );
      assert(replies.every((e) => e.fidelity === "event"));
      assertEquals((await w.runChannel(claudeRun.id))?.state, "on");
    } else {
      assertEquals(all.length, recorded.length);
      for (const e of recorded) {
        assert(e.certainty === "exact" || e.certainty === "reconstructed", JSON.stringify(e));
      }
      // What history and completion produced could only be read from the box.
      assertEquals(recorded.filter((e) => e.certainty === "exact").length >= 6, true);
      assertEquals((await w.runChannel(claudeRun.id))?.state, "silent");
    }

    // The handoff: the original request is the first message; User, Agent… in time order;
    // each message once as a User entry; the limit menu is not carried.
    const framed = framedBody(String(start.prompt));
    assert(framed, String(start.prompt).slice(0, 400));
    assert(
      /Original request[^\n]*\n\s*first line\n\s*second line/.test(framed.body),
      framed.body.slice(0, 1500),
    );
    const entries = conversation(framed.body);
    const users = entries.filter((e) => e.role === "User").map((e) => e.text);
    // (An entry's trailing blanks are not carried: the paste's last newline.)
    assertEquals(users, received.map((t) => t.trimEnd()));
    const roles = entries.map((e) => e.role[0]).join("");
    if (hooks) {
      // Every answer is carried, also those long scrolled off the screen: each after its turn.
      assert(/^(UA*)+$/.test(roles), `not in time order: ${roles}`);
      for (const n of answeredTurns) {
        assert(framed.body.includes(`(turn ${n})`), `turn ${n}'s answer is missing`);
      }
    } else {
      // Turns whose echo scrolled past the last 120 lines come first, with no answer to pair;
      // the interrupted turn showed only Claude's own notice (`⎿  Interrupted · …`): no answer.
      assert(/^U*A?(UA?)+$/.test(roles), `not in time order: ${roles}`);
      assert((roles.match(/UA/g) ?? []).length >= 8, `too few answers paired: ${roles}`);
      assert(!framed.body.includes("What should Claude do instead?"), "Claude's notice carried");
    }
    const last = entries.at(-1)!;
    assert(last.text.includes("You've hit your session limit"), last.text);
    assert(!framed.body.includes("/rate-limit-options"), framed.body.slice(-3000));
    assert(!framed.body.includes("Stop and wait for limit to reset"), "the menu was carried");
    assert(!users.some((u) => u === "/help"), "a local command was carried");
    // The screen's echo of a turn is not carried beside the turn itself.
    assert(!framed.body.includes("❯ fix the nasty bug"), "an echo was carried twice");

    // `uuldana show` prints the same order with each turn's certainty.
    const shown = (await w.uuldana(["show", String(claudeRun.id)])).stdout;
    assert(shown.includes("(14 user turns"), shown);
    const order = [...shown.matchAll(/^ {2}(User|Agent) \[([\w-]+)\]:/gm)].map((m) => m[1][0]);
    assertEquals(order.join(""), roles, shown);
    assert(/User \[exact\]: first line\n {4}second line/.test(shown), shown);
    const transcript = w.withJournal((j) => runConversation(j, claudeRun.id));
    assertEquals(transcript.filter((e) => e.role === "user").map((e) => e.text), received);
  } finally {
    await w.close();
  }
}

Deno.test(
  "what people type into Claude reaches the journal and the handoff exactly, once, in order",
  opts,
  () => typedSession(true),
);

Deno.test(
  "with Claude's hooks off, the keys and the input box still give every turn, in order",
  opts,
  () => typedSession(false),
);
