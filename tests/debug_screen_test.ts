import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { FINAL_KEYS } from "../src/vt/_corpus_test_util.ts";
import { VT_CORPUS_DIR } from "./_paths.ts";

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
