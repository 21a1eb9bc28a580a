import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { UsageError } from "../errors.ts";
import { firstUserEntry, hasConversation, parsePackage } from "./package.ts";

const base = () => ({
  workspace: "/home/dev/shop",
  from: "claude",
  to: "codex",
  reason: { kind: "limit", message: "You've hit your session limit", resetsAt: null },
  entries: [{ role: "user", text: "hi", fidelity: "keystrokes" }],
});

function assertUsage(raw: unknown, pattern: RegExp) {
  assertThrows(() => parsePackage(raw, "pkg.json"), (e: unknown) => {
    if (!(e instanceof UsageError)) return false;
    if (!e.message.startsWith("invalid package pkg.json: ") || e.message.includes("\n")) {
      return false;
    }
    return pattern.test(e.message);
  });
}

Deno.test("a minimal package parses with defaults", () => {
  const now = new Date("2026-11-30T01:33:00Z");
  const pkg = parsePackage(base(), "pkg.json", now);
  assertEquals(pkg.git, null);
  assertEquals(pkg.time, "2026-11-30T01:33:00.000Z");
  assertEquals(pkg.reason, {
    kind: "limit",
    message: "You've hit your session limit",
    resetsAt: null,
  });
  assertEquals(pkg.entries, [{ role: "user", text: "hi", fidelity: "keystrokes" }]);
});

Deno.test("every optional field is kept", () => {
  const raw = {
    ...base(),
    git: { branch: null, status: " M a.ts" },
    time: "2026-11-30T01:00:00Z",
    reason: { kind: "manual" },
    entries: [{ role: "agent", text: "x", fidelity: "screen", at: "2026-11-30T00:59:00Z" }],
  };
  const pkg = parsePackage(raw, "pkg.json");
  assertEquals(pkg.git, { branch: null, status: " M a.ts" });
  assertEquals(pkg.reason, { kind: "manual" });
  assertEquals(pkg.entries[0].at, "2026-11-30T00:59:00Z");
});

Deno.test("bad fields are named, one line each", () => {
  assertUsage([], /"\(top level\)" must be an object, got array/);
  assertUsage({ ...base(), workspace: "rel/path" }, /"workspace" must be an absolute path/);
  assertUsage({ ...base(), from: "" }, /"from" must be a non-empty string/);
  assertUsage({ ...base(), to: 3 }, /"to" must be a non-empty string, got number/);
  assertUsage(
    { ...base(), reason: { kind: "tired" } },
    /"reason.kind" must be "limit", "warning", "stall", "return" or "manual"/,
  );
  assertUsage({ ...base(), reason: { kind: "limit" } }, /"reason.message"/);
  assertUsage(
    { ...base(), reason: { kind: "limit", message: "m", resetsAt: "3am" } },
    /"reason.resetsAt" must be an ISO-8601 time/,
  );
  assertUsage({ ...base(), entries: {} }, /"entries" must be an array, got object/);
  assertUsage(
    { ...base(), entries: [{ role: "bot", text: "", fidelity: "screen" }] },
    /"entries\[0\].role"/,
  );
  assertUsage(
    { ...base(), entries: [{ role: "user", text: "x", fidelity: "video" }] },
    /"entries\[0\].fidelity"/,
  );
  assertUsage(
    { ...base(), entries: [{ role: "user", fidelity: "screen" }] },
    /"entries\[0\].text"/,
  );
  assertUsage({ ...base(), tme: "x" }, /unknown field "tme"/);
  assertUsage({ ...base(), git: { branch: "main", dirty: true } }, /unknown field "git.dirty"/);
  assertUsage({ ...base(), time: "yesterday" }, /"time" must be an ISO-8601 time/);
});

Deno.test("no user entry with text means no conversation", () => {
  const entries = (list: [string, string][]) =>
    list.map(([role, text]) => ({ role, text, fidelity: "screen" }));
  const pkg = (list: [string, string][]) =>
    parsePackage({ ...base(), entries: entries(list) }, "pkg.json");
  assertEquals(hasConversation(pkg([])), false);
  assertEquals(hasConversation(pkg([["agent", "Welcome to Claude Code"]])), false);
  assertEquals(hasConversation(pkg([["user", "  \n\x1b[A\r"], ["agent", "hm"]])), false);
  assertEquals(hasConversation(pkg([["agent", "hello"], ["user", "fix it"]])), true);
  assertEquals(firstUserEntry(pkg([["user", " "], ["user", "second"]]))?.text, "second");
});

Deno.test("the original request is never a best-effort turn when a sure one exists", () => {
  const turn = (text: string, certainty: "exact" | "reconstructed" | "best-effort") => ({
    role: "user" as const,
    text,
    fidelity: "keystrokes" as const,
    certainty,
  });
  const guess = turn("xplain it", "best-effort");
  assertEquals(
    firstUserEntry({ entries: [guess, turn("explain it", "exact")] })?.text,
    "explain it",
  );
  assertEquals(
    firstUserEntry({ entries: [guess, turn("from the box", "reconstructed")] })?.text,
    "from the box",
  );
  // Only guesses: the first of them.
  assertEquals(
    firstUserEntry({ entries: [guess, turn("later", "best-effort")] })?.text,
    "xplain it",
  );
});

Deno.test("certainty is an optional, checked entry field", () => {
  const raw = {
    workspace: "/w",
    from: "a",
    to: "b",
    reason: { kind: "manual" },
    entries: [{ role: "user", text: "t", fidelity: "keystrokes", certainty: "reconstructed" }],
  };
  assertEquals(parsePackage(raw, "p.json").entries[0].certainty, "reconstructed");
  const bad = { ...raw, entries: [{ ...raw.entries[0], certainty: "sure" }] };
  assertThrows(() => parsePackage(bad, "p.json"), /entries\[0\]\.certainty/);
});
