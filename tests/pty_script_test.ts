import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { detectScriptFlavour, scriptArgv, shellQuote } from "../src/pty/script.ts";

const nasty = [
  "",
  "plain",
  "it's",
  `"double" 'single' '' '''`,
  "$HOME ${PATH} $(id) `id` $$ $? $1 \\$",
  "tab\there\nnewline\r\ncrlf",
  "héllo 🎉 日本語 ✓",
  "!*?[a]{b,c};&|<>#~%^=",
  "-n",
  "--",
  "\\",
  "a".repeat(5000) + "\n" + "'".repeat(500),
];

/** Runs a command and returns its stdout. */
async function output(cmd: string, args: string[], env: Record<string, string> = {}) {
  const r = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "piped" }).output();
  return new TextDecoder().decode(r.stdout);
}

Deno.test("shellQuote round-trips through /bin/sh and bash exactly", async () => {
  const printer = `for a in "$@"; do printf '%s\\0' "$a"; done`;
  const script = `set -- ${nasty.map(shellQuote).join(" ")}; ${printer}`;
  for (const sh of ["/bin/sh", "bash"]) {
    const out = await output(sh, ["-c", script]);
    assertEquals(out.split("\0").slice(0, -1), nasty, sh);
  }
});

/**
 * The agent command of the argv tests: /bin/sh printing each of `expansions` and then its own
 * arguments (`nasty`), NUL-separated.
 */
const printing = (...expansions: string[]) => [
  "/bin/sh",
  "-c",
  `printf '%s\\0' ${expansions.join(" ")} "$@"`,
  "x",
  ...nasty,
];
const SIZE = { cols: 80, rows: 24 };

Deno.test("the BSD command, run by /bin/sh as BSD script would exec it, delivers argv exactly", async () => {
  // BSD script execs args[2..] directly; run exactly that without script (no pty: the prelude's
  // stty fails quietly) and check the agent's argv, SHELL, and that the argv variables are gone.
  const r = scriptArgv("bsd", printing(`"$SHELL"`, `"\${UULDANA_ARGV_0-gone}"`), SIZE);
  const [prog, ...rest] = r.args.slice(2);
  const env = { ...r.env, UULDANA_OUTER_SHELL: "/bin/zsh", SHELL: "/bin/sh" };
  const out = await output(prog, rest, env);
  assertEquals(out.split("\0").slice(0, -1), ["/bin/zsh", "gone", ...nasty]);
});

Deno.test("the util-linux -c string, run by /bin/sh, delivers argv exactly and unsets empty SHELL", async () => {
  const r = scriptArgv(
    "util-linux",
    printing(`"\${SHELL-unset}"`, `"\${UULDANA_ARGV_3-gone}"`),
    SIZE,
  );
  const out = await output("/bin/sh", ["-c", r.args[4]], { ...r.env, UULDANA_OUTER_SHELL: "" });
  assertEquals(out.split("\0").slice(0, -1), ["unset", "gone", ...nasty]);
});

Deno.test("detectScriptFlavour finds the installed script and caches it", async () => {
  const a = await detectScriptFlavour();
  const b = await detectScriptFlavour();
  assertEquals(a, b);
  const version = await output(a.path, ["--version"]).catch(() => "");
  assertEquals(a.flavour, version.includes("util-linux") ? "util-linux" : "bsd");
  if (a.flavour === "util-linux") assertEquals(version.includes(a.version ?? "?"), true);
});
