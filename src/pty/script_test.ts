import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import {
  ARGV_VAR_PREFIX,
  OUTER_SHELL_VAR,
  parseScriptVersion,
  scriptArgv,
  shellQuote,
} from "./script.ts";
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

Deno.test("scriptArgv util-linux: one -c string through /bin/sh, size prelude, argv in env", () => {
  const r = scriptArgv("util-linux", ["/bin/agent", "it's", "--x"], { cols: 120, rows: 40 });
  assertEquals(r.cmd, "script");
  assertEquals(r.env, {
    SHELL: "/bin/sh",
    [`${ARGV_VAR_PREFIX}0`]: "/bin/agent",
    [`${ARGV_VAR_PREFIX}1`]: "it's",
    [`${ARGV_VAR_PREFIX}2`]: "--x",
  });
  assertEquals(r.args.length, 6);
  assertEquals(r.args.slice(0, 4), ["-q", "-f", "-e", "-c"]);
  assertEquals(r.args[5], "/dev/null");
  const c = r.args[4];
  assertEquals(
    c.startsWith(
      'set -- "$UULDANA_ARGV_0" "$UULDANA_ARGV_1" "$UULDANA_ARGV_2"; ' +
        "unset UULDANA_ARGV_0 UULDANA_ARGV_1 UULDANA_ARGV_2; " +
        "stty cols 120 rows 40 iutf8 2>/dev/null || stty cols 120 rows 40",
    ),
    true,
    c,
  );
  assertEquals(c.includes(OUTER_SHELL_VAR), true);
  assertEquals(c.endsWith('; exec "$@"'), true, c);
});

Deno.test("scriptArgv: no argument of the agent reaches script's own argv, in either flavour", () => {
  const secret = "HANDOFF 0123456789ab: it's $HOME\nline two";
  for (const flavour of ["util-linux", "bsd"] as const) {
    const r = scriptArgv(flavour, ["/opt/agent-bin", "-i", secret], { cols: 80, rows: 24 });
    for (const arg of r.args) {
      assertEquals(arg.includes("0123456789ab") || arg.includes("/opt/agent-bin"), false, arg);
    }
    assertEquals(r.env[`${ARGV_VAR_PREFIX}2`], secret);
  }
});

Deno.test("scriptArgv bsd: script runs /bin/sh with the same prelude; argv in env", () => {
  const argv = ["/bin/agent", "it's $HOME", "a\nb", ""];
  const r = scriptArgv("bsd", argv, { cols: 80, rows: 24 });
  assertEquals(r.cmd, "script");
  assertEquals(r.env, Object.fromEntries(argv.map((a, i) => [`${ARGV_VAR_PREFIX}${i}`, a])));
  assertEquals(r.args.length, 5);
  assertEquals(r.args.slice(0, 4), ["-q", "/dev/null", "/bin/sh", "-c"]);
  assertEquals(r.args[4].includes("; stty cols 80 rows 24 "), true);
  assertEquals(r.args[4].endsWith(`exec "$@"`), true);
});

Deno.test("scriptArgv rejects empty argv, NUL, option-like program, bad sizes", () => {
  assertThrowsUsage(() => scriptArgv("util-linux", [], { cols: 80, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a", "x\0"], { cols: 80, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["-x"], { cols: 80, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a"], { cols: 0, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a"], { cols: 80.5, rows: 24 }));
  assertThrowsUsage(() => scriptArgv("bsd", ["/bin/a"], { cols: 80, rows: Number.NaN }));
});

Deno.test("scriptArgv: refuses an argument over Linux's argv string limit, in either flavour", () => {
  for (const flavour of ["util-linux", "bsd"] as const) {
    scriptArgv(flavour, ["/bin/a", "é".repeat(60_000)], { cols: 80, rows: 24 }); // 120,000 bytes
    // Several large arguments are fine: each is its own environment string.
    scriptArgv(flavour, ["/bin/a", "é".repeat(60_000), "é".repeat(60_000)], { cols: 80, rows: 24 });
    assertThrowsUsage(() =>
      scriptArgv(flavour, ["/bin/a", "é".repeat(66_000)], { cols: 80, rows: 24 })
    );
  }
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
