import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { OUTER_SHELL_VAR, parseScriptVersion, scriptArgv, shellQuote } from "./script.ts";
import { UsageError } from "../errors.ts";

// Fails unless fn throws a UsageError.
function assertThrowsUsage(fn: () => unknown): void {
  assertThrows(fn, (e: unknown) => e instanceof UsageError);
}

Deno.test("shellQuote leaves plain words alone and single-quotes the rest", () => {
  assertEquals(shellQuote("/usr/bin/claude"), "/usr/bin/claude");
  assertEquals(shellQuote("--model=opus"), "--model=opus");
  assertEquals(shellQuote(""), "''");
  assertEquals(shellQuote("a b"), "'a b'");
  assertEquals(shellQuote("it's"), "'it'\\''s'");
  assertEquals(shellQuote("$HOME `id`"), "'$HOME `id`'");
  assertEquals(shellQuote("line1\nline2\t"), "'line1\nline2\t'");
  assertEquals(shellQuote("héllo"), "'héllo'");
  assertEquals(shellQuote("~"), "'~'");
  assertEquals(shellQuote("a*"), "'a*'");
});

Deno.test("shellQuote refuses NUL", () => {
  assertThrowsUsage(() => shellQuote("a\0b"));
});

Deno.test("scriptArgv util-linux: one -c string through /bin/sh, size prelude, exec", () => {
  const r = scriptArgv("util-linux", ["/bin/agent", "it's", "--x"], { cols: 120, rows: 40 });
  assertEquals(r.cmd, "script");
  assertEquals(r.env, { SHELL: "/bin/sh" });
  assertEquals(r.args.length, 6);
  assertEquals(r.args.slice(0, 4), ["-q", "-f", "-e", "-c"]);
  assertEquals(r.args[5], "/dev/null");
  const c = r.args[4];
  assertEquals(
    c.startsWith("stty cols 120 rows 40 iutf8 2>/dev/null || stty cols 120 rows 40"),
    true,
  );
  assertEquals(c.includes(OUTER_SHELL_VAR), true);
  assertEquals(c.endsWith("; exec /bin/agent 'it'\\''s' --x"), true);
});

Deno.test("scriptArgv bsd: no shell quoting, argv passed as separate arguments", () => {
  const argv = ["/bin/agent", "it's $HOME", "a\nb", ""];
  const r = scriptArgv("bsd", argv, { cols: 80, rows: 24 });
  assertEquals(r.cmd, "script");
  assertEquals(r.env, {});
  assertEquals(r.args.slice(0, 4), ["-q", "/dev/null", "/bin/sh", "-c"]);
  assertEquals(r.args[4].startsWith("stty cols 80 rows 24 "), true);
  assertEquals(r.args[4].endsWith(`exec "$@"`), true);
  assertEquals(r.args.slice(5), ["sh", ...argv]);
});

Deno.test("scriptArgv rejects empty argv, NUL, option-like program, bad sizes", () => {
  assertThrowsUsage(() => scriptArgv("util-linux", [], { cols: 80, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a", "x\0"], { cols: 80, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["-x"], { cols: 80, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a"], { cols: 0, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a"], { cols: 80.5, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a"], { cols: 80, rows: Number.NaN }));
});

Deno.test("scriptArgv util-linux: refuses a command string over Linux's argv string limit", () => {
  const ok = "é".repeat(60_000); // 120,000 bytes
  scriptArgv("util-linux", ["/bin/a", ok], { cols: 80, rows: 24 });
  assertThrowsUsage(() =>
    scriptArgv("util-linux", ["/bin/a", "é".repeat(66_000)], { cols: 80, rows: 24 })
  );
  // BSD passes arguments separately: no combined limit applies here.
  scriptArgv("bsd", ["/bin/a", "é".repeat(66_000)], { cols: 80, rows: 24 });
});

Deno.test("parseScriptVersion tells util-linux from BSD", () => {
  assertEquals(parseScriptVersion("script from util-linux 2.38.1\n", "/usr/bin/script"), {
    flavour: "util-linux",
    version: "2.38.1",
    path: "/usr/bin/script",
  });
  assertEquals(
    parseScriptVersion("script: illegal option -- -\nusage: script [-aeFkqr] [-t time]", "/x"),
    { flavour: "bsd", version: null, path: "/x" },
  );
  assertEquals(parseScriptVersion("", "/x").flavour, "bsd");
});
