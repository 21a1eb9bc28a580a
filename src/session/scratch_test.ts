import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { newScratchDir, SCRATCH_DIR, sweepScratch } from "./scratch.ts";

async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

Deno.test("a scratch directory is private and named after this uuldana", () => {
  const data = Deno.makeTempDirSync();
  const dir = newScratchDir(data, "claude");
  assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
  assert(basename(dir).startsWith(`p${Deno.pid}-`), dir);
  assert(basename(dir).endsWith("-claude"), dir);
});

Deno.test("where the data directory refuses it, the scratch directory goes to the temp dir", () => {
  const data = Deno.makeTempDirSync();
  writeFileSync(join(data, SCRATCH_DIR), "a file where the folder would go");
  const dir = newScratchDir(data, "opencode");
  try {
    assert(dir.startsWith(join(tmpdir(), `uuldana-scratch-${Deno.pid}-`)), dir);
    assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
  } finally {
    Deno.removeSync(dir);
  }
});

Deno.test("the sweep removes what dead uuldanas left and nothing of the living", async () => {
  const data = Deno.makeTempDirSync();
  const base = join(data, SCRATCH_DIR);
  const dead = await deadPid();
  const names = [`p${dead}-1-opencode`, `p${Deno.pid}-2-claude`, "123-old", "456-fresh"];
  for (const n of names) mkdirSync(join(base, n), { recursive: true });
  writeFileSync(join(base, `p${dead}-1-opencode`, "import.json"), "handoff text");
  const dayAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
  utimesSync(join(base, "123-old"), dayAgo, dayAgo);
  const tmpDead = Deno.makeTempDirSync({ prefix: `uuldana-scratch-${dead}-` });
  const tmpMine = Deno.makeTempDirSync({ prefix: `uuldana-scratch-${Deno.pid}-` });
  try {
    assert(sweepScratch(data) >= 3);
    assertEquals(readdirSync(base).sort(), [`p${Deno.pid}-2-claude`, "456-fresh"].sort());
    assertEquals([existsSync(tmpDead), existsSync(tmpMine)], [false, true]);
  } finally {
    Deno.removeSync(tmpMine);
  }
});
