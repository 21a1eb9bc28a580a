import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { FINAL_KEYS } from "../src/vt/_corpus_test_util.ts";
import { UULDANA, V8_FLAGS, VT_CORPUS_DIR } from "./_paths.ts";
import { runUuldana } from "./_uuldana.ts";
import { hostileStream } from "../src/vt/_hostile_streams_test_util.ts";
import { join } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const CORPUS = VT_CORPUS_DIR;

async function uuldana(...args: string[]) {
  const out = await new Deno.Command(`${ROOT}tools/deno.sh`, {
    args: ["run", "-A", `${ROOT}mod.ts`, ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

Deno.test("uuldana debug screen --json prints the oracle's state of a corpus recording", async () => {
  const meta = JSON.parse(await Deno.readTextFile(`${CORPUS}/vim-edit.json`));
  for (const chunk of [[], ["--chunk", "7"]]) {
    const r = await uuldana(
      "debug",
      "screen",
      `${CORPUS}/vim-edit.raw`,
      "--cols",
      String(meta.cols),
      "--rows",
      String(meta.rows),
      "--json",
      ...chunk,
    );
    assertEquals(r.code, 0, r.stderr);
    const got = JSON.parse(r.stdout);
    // normalScreen is compared where present: the JSON omits it like the oracle does.
    for (const k of FINAL_KEYS) assertEquals(got[k], meta.oracle[k], k);
    assertEquals([got.cols, got.rows, got.bytes], [meta.cols, meta.rows, meta.bytes]);
  }
});

Deno.test("uuldana debug screen: readable dump, defaults to 120x40", async () => {
  const r = await uuldana("debug", "screen", `${CORPUS}/python-repl.raw`);
  assertEquals(r.code, 0, r.stderr);
  ok(r.stdout.startsWith("# 120x40 active=normal"), r.stdout.slice(0, 80));
  ok(r.stdout.includes("--- screen ---"));
});

Deno.test("uuldana debug screen: a missing file is a one-line error, no stack trace", async () => {
  const r = await uuldana("debug", "screen", "/nonexistent/file.raw", "--json");
  assertEquals(r.code, 1);
  ok(r.stderr.includes("no such file: /nonexistent/file.raw"), r.stderr);
  ok(!r.stderr.includes("    at "), r.stderr);
  assertEquals(r.stdout, "");
});

Deno.test("uuldana debug screen refuses absurd sizes with a one-line error (exit 2)", async () => {
  const file = await Deno.makeTempFile();
  try {
    for (
      const args of [["--cols", "100000", "--rows", "100000"], ["--rows", "1001"], [
        "--scrollback",
        "100000001",
      ]]
    ) {
      const r = await runUuldana(["debug", "screen", file, ...args]);
      assertEquals(r.code, 2, r.stderr);
      assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
      ok(/must be from \d+ to \d+, got '\d+'/.test(r.stderr), r.stderr);
    }
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("uuldana debug screen renders hostile output within a 64 MB heap", async () => {
  const dir = await Deno.makeTempDir();
  // The shipped V8 flags plus a heap cap: V8 aborts the process if the interpreter needs more.
  const capped = UULDANA.map((a) => a === V8_FLAGS ? `${V8_FLAGS},--max-old-space-size=64` : a);
  try {
    for (
      const [kind, bytes, size] of [
        ["rep-combining", 4096, ["--cols", "400", "--rows", "100"]],
        ["combining-every-cell", 4 << 20, ["--cols", "400", "--rows", "100"]],
        ["ris", 65536, []],
        ["rep", 65536, ["--cols", "1000", "--rows", "1000"]],
      ] as const
    ) {
      const file = join(dir, `${kind}.raw`);
      await Deno.writeFile(file, hostileStream(kind, bytes));
      const out = await new Deno.Command(capped[0], {
        args: [...capped.slice(1), "debug", "screen", file, "--json", ...size],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stderr = new TextDecoder().decode(out.stderr);
      assertEquals(out.code, 0, `${kind}: ${stderr.slice(-500)}`);
      const snap = JSON.parse(new TextDecoder().decode(out.stdout));
      ok(snap.screen.length > 0, kind);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
