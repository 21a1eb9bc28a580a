import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fit, textWidth, wrapLine } from "./text.ts";
import { codexLimitLine } from "./limit.ts";

Deno.test("wrapLine: the Codex limit message wraps at 120 columns where the real one did", () => {
  const rows = wrapLine(codexLimitLine(), 120);
  assertEquals(rows, [
    "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/",
    "usage to purchase more credits or try again at 3:02 AM.",
  ]);
});

Deno.test("wrapLine: breaks at spaces, hard-breaks long words, keeps every character", () => {
  assertEquals(wrapLine("aaa bbb ccc", 7), ["aaa bbb", "ccc"]);
  assertEquals(wrapLine("abcdefghij", 4), ["abcd", "efgh", "ij"]);
  assertEquals(wrapLine("", 10), [""]);
});

Deno.test("textWidth and fit count wide characters as two cells", () => {
  assertEquals(textWidth("日本"), 4);
  assertEquals(fit("日本語です", 5), "日本…");
  assertEquals(textWidth(fit("x".repeat(50), 10)), 10);
});
