import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CLAUDE_INPUT_BOX } from "../../adapters/claude.ts";
import { isLocalCommand, reconcile, type TypedLine } from "./reconcile.ts";

const box = CLAUDE_INPUT_BOX;
const typed = (text: string, exact: boolean, tail: string | null = "", pastes: string[] = []) =>
  ({ text, exact, tail, pastes }) satisfies TypedLine;

Deno.test("an exact line stands when the box lags it, shows it collapsed or is not there", () => {
  assertEquals(reconcile(typed("a\nb", true), { rows: ["a"] }, box), {
    text: "a\nb",
    certainty: "exact",
  });
  assertEquals(reconcile(typed("fix it", true), { rows: [] }, box), {
    text: "fix it",
    certainty: "exact",
  });
  // Typed so fast that Claude took it for a paste: the label cannot be expanded from the keys.
  assertEquals(reconcile(typed("x".repeat(900), true), { rows: ["[Pasted text #3]"] }, box), {
    text: "x".repeat(900),
    certainty: "exact",
  });
  assertEquals(reconcile(typed("fix it", true), null, box), { text: "fix it", certainty: "exact" });
  // A dim suggestion after what was typed is not what was sent.
  assertEquals(reconcile(typed("fix", true), { rows: ["fix the flaky test"] }, box), {
    text: "fix",
    certainty: "exact",
  });
  assertEquals(reconcile(typed("  ", true), null, box), null);
});

Deno.test("keys the box does not show went elsewhere; a box with other text wins", () => {
  // "1" chose a permission dialog's option, then the message was typed (its echo lagging).
  assertEquals(reconcile(typed("1now run the tests", true), { rows: ["now run th"] }, box), {
    text: "now run the tests",
    certainty: "reconstructed",
  });
  // A tall box that shows only its last rows does not cut the message.
  const long = Array.from({ length: 100 }, (_, i) => `w${i}`).join(" ");
  assertEquals(reconcile(typed(long, true), { rows: ["w97 w98 w99"] }, box), {
    text: long,
    certainty: "exact",
  });
  assertEquals(reconcile(typed("abc", true), { rows: ["something else"] }, box), {
    text: "something else",
    certainty: "reconstructed",
  });
});

Deno.test("history recall: the box shows the recalled text, the keys the rest", () => {
  // Up then Enter: the keys know nothing, the box everything.
  assertEquals(reconcile(typed("", false), { rows: ["explain the cart"] }, box), {
    text: "explain the cart",
    certainty: "reconstructed",
  });
  // Up, then " too" typed; the box has echoed only " t" when Enter arrives.
  assertEquals(reconcile(typed(" too", false, " too"), { rows: ["explain it t"] }, box), {
    text: "explain it too",
    certainty: "reconstructed",
  });
  // The box already shows the whole tail.
  assertEquals(reconcile(typed(" too", false, " too"), { rows: ["explain it too"] }, box), {
    text: "explain it too",
    certainty: "reconstructed",
  });
});

Deno.test("completion: Tab's result comes from the box; wrapped rows join with a space", () => {
  assertEquals(
    reconcile(typed("read @src/disc", false), { rows: ["read @src/discount.ts and", "fix"] }, box),
    { text: "read @src/discount.ts and fix", certainty: "reconstructed" },
  );
});

Deno.test("the box confirming the keys makes an uncertain line exact", () => {
  assertEquals(reconcile(typed("explain it", false, "explain it"), { rows: [] }, box), {
    text: "explain it",
    certainty: "exact",
  });
  assertEquals(reconcile(typed("a\nb", false, null), { rows: ["a", "b"] }, box), {
    text: "a\nb",
    certainty: "exact",
  });
});

Deno.test("a collapsed paste is expanded from the keys' paste", () => {
  const paste = "line 1\nline 2\nline 3";
  assertEquals(
    reconcile(typed("see x", false, null, [paste]), {
      rows: ["see [Pasted text #2 +3 lines] too"],
    }, box),
    { text: `see ${paste} too`, certainty: "reconstructed" },
  );
});

Deno.test("no box: the keys' guess is best effort; nothing at all is no turn", () => {
  assertEquals(reconcile(typed("fix", false), null, box), {
    text: "fix",
    certainty: "best-effort",
  });
  assertEquals(reconcile(typed("fix", false), { rows: ["x"] }, undefined), {
    text: "fix",
    certainty: "best-effort",
  });
  assertEquals(reconcile(typed("", false), { rows: [] }, box), null);
  assertEquals(reconcile(typed("", false), null, box), null);
});

Deno.test("the agent's own commands are local", () => {
  assertEquals(isLocalCommand("/help", box), true);
  assertEquals(isLocalCommand(" /clear  ", box), true);
  assertEquals(isLocalCommand("/init", box), false);
  assertEquals(isLocalCommand("/help", undefined), false);
});

Deno.test("an agent that trims what it sends is recorded trimmed", () => {
  assertEquals(reconcile(typed("  hi there ", true), null, box), {
    text: "hi there",
    certainty: "exact",
  });
  assertEquals(reconcile(typed(" x ", true), null, { ...box, trimsSubmission: false }), {
    text: " x ",
    certainty: "exact",
  });
});

Deno.test("a collapsed paste at the end keeps its trailing newline (Claude trims, then expands)", () => {
  const log = "1\n2\n3\n4\n";
  assertEquals(reconcile(typed(`see: ${log}`, true, "", [log]), null, box), {
    text: `see: ${log}`,
    certainty: "exact",
  });
  // A short paste is typed in, and trimmed with the rest.
  assertEquals(reconcile(typed("see: a\n", true, "", ["a\n"]), null, box), {
    text: "see: a",
    certainty: "exact",
  });
});

Deno.test("a collapsed paste the keys never saw (uuldana's paste road) is only best effort", () => {
  assertEquals(reconcile(typed("", false), { rows: ["[Pasted text #1 +41 lines] go"] }, box), {
    text: "[Pasted text #1 +41 lines] go",
    certainty: "best-effort",
  });
});

Deno.test("a turn cut to the tracker's cap is the keys' text, best effort, box or not", () => {
  const paste = "start\n[… uuldana kept only the start and the end of this paste: 9 bytes …]\nend";
  const cut = { ...typed(`see ${paste}`, true, "", [paste]), cut: true };
  // Exact keys and a box that confirms what it can show: still not the whole turn.
  assertEquals(reconcile(cut, { rows: ["see [Pasted text #1 +2000 lines]"] }, box), {
    text: `see ${paste}`,
    certainty: "best-effort",
  });
  assertEquals(reconcile(cut, null, undefined), { text: `see ${paste}`, certainty: "best-effort" });
  assertEquals(reconcile({ ...cut, text: "  " }, null, undefined), null);
});
