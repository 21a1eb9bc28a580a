/**
 * compile.sh, as far as it can run offline: `deno compile` needs the `denort` runtime, a download.
 * The full `deno` binary stands in for it as DENORT_BIN: the result does not start as uuldana, but
 * it carries the metadata compile.sh asked `deno compile` to embed (permissions, V8 flags, the
 * commit), and
 * the script's own work (names, checksums, errors) is real.
 *
 * @module
 */
import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  ok as assert,
} from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { REPO_DIR, V8_FLAGS } from "./_paths.ts";

async function compile(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(join(REPO_DIR, "compile.sh"), {
    args,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

/** The JSON value that follows `"key":` in the binary's embedded metadata. */
function embedded(binary: Buffer, key: string): unknown {
  const at = binary.indexOf(`"${key}":`);
  assert(at >= 0, `no "${key}" in the binary`);
  const open = at + key.length + 3;
  const close = binary.indexOf(binary[open] === 0x5b ? "]" : "}", open);
  return JSON.parse(binary.subarray(open, close + 1).toString("utf8"));
}

Deno.test("compile.sh builds the host target with the shipped V8 flags, least permissions, no prompt, the commit, and its checksum", async () => {
  const host = Deno.build.target;
  const outDir = Deno.makeTempDirSync({ prefix: "uuldana-dist-" });
  try {
    const r = await compile([host], { DENORT_BIN: Deno.execPath(), OUT_DIR: outDir });
    assertEquals(r.code, 0, r.stderr);
    const version = JSON.parse(Deno.readTextFileSync(join(REPO_DIR, "deno.json"))).version;
    const name = `uuldana-${version}-${host}`;
    const binary = Buffer.from(Deno.readFileSync(join(outDir, name)));
    assert((Deno.statSync(join(outDir, name)).mode! & 0o111) !== 0, "not executable");
    const sum = createHash("sha256").update(binary).digest("hex");
    assertEquals(Deno.readTextFileSync(join(outDir, "SHA256SUMS")), `${sum}  ${name}\n`);

    const v8 = embedded(binary, "v8_flags") as string[];
    const shipped = V8_FLAGS.slice("--v8-flags=".length).split(",");
    assertEquals(v8.slice(-shipped.length), shipped, `v8_flags: ${v8}`);
    const p = embedded(binary, "permissions") as Record<string, unknown>;
    assertEquals([p.allow_net, p.allow_ffi, p.prompt], [null, null, false]);
    assertEquals(p.allow_sys, ["hostname", "osRelease", "uid", "gid"]);
    for (const k of ["allow_read", "allow_write", "allow_run", "allow_env"]) {
      assertEquals(p[k], [], `${k}: everything`);
    }
    // The commit `--version` reports (compile.sh marks a tree with changes "-dirty").
    const head = new TextDecoder().decode(
      new Deno.Command("git", { args: ["rev-parse", "--short=12", "HEAD"], cwd: REPO_DIR })
        .outputSync().stdout,
    ).trim();
    const env = embedded(binary, "env_vars_from_env_file") as Record<string, string>;
    assertMatch(env.UULDANA_BUILD_COMMIT, new RegExp(`^${head}(-dirty)?$`));
    // The simulated agents (`uuldana demo`) print help that is a JSON module: it is in the binary.
    const help = JSON.parse(Deno.readTextFileSync(join(REPO_DIR, "src/sim/help_texts.json")));
    assert(
      binary.includes(JSON.stringify(help.claude).slice(1, 80)),
      "help_texts.json not embedded",
    );
  } finally {
    Deno.removeSync(outDir, { recursive: true });
  }
});

Deno.test("compile.sh refuses an unknown target before building anything", async () => {
  const outDir = Deno.makeTempDirSync({ prefix: "uuldana-dist-" });
  try {
    const r = await compile(["x86_64-pc-windows-msvc"], { OUT_DIR: outDir });
    assertEquals(r.code, 2);
    assert(r.stderr.includes("unknown target 'x86_64-pc-windows-msvc'"), r.stderr);
    assertEquals([...Deno.readDirSync(outDir)], []);
  } finally {
    Deno.removeSync(outDir, { recursive: true });
  }
});
