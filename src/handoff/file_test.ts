import {
  deepStrictEqual as assertEquals,
  ok as assert,
  throws as assertThrows,
} from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { handoffPath, isHandoffId, newHandoffId, writeHandoffFile } from "./file.ts";

Deno.test("handoff ids sort by time and are safe file names", () => {
  const a = newHandoffId(new Date("2026-11-30T01:33:00.123Z"));
  assert(/^20261130T013300Z-[0-9a-f]{6}$/.test(a), a);
  const b = newHandoffId(new Date("2026-11-30T01:33:01Z"));
  assert(a < b);
  assert(isHandoffId(a) && !isHandoffId("../x") && !isHandoffId(".hidden") && !isHandoffId("a/b"));
  assertThrows(() => handoffPath("/d", "../../etc/passwd"), RangeError);
});

Deno.test("writeHandoffFile: 0600 file in a 0700 directory, exact content, no temp left", () => {
  const data = join(Deno.makeTempDirSync(), "data");
  const id = newHandoffId();
  const text = "----- BEGIN UULDANA HANDOFF 0123456789ab -----\nnaïve 😀\n";
  const path = writeHandoffFile(data, id, text);
  assertEquals(path, join(data, "handoffs", `${id}.md`));
  assertEquals(readFileSync(path, "utf8"), text);
  assertEquals(statSync(path).mode & 0o777, 0o600);
  assertEquals(statSync(join(data, "handoffs")).mode & 0o777, 0o700);
  assertEquals(readdirSync(join(data, "handoffs")), [`${id}.md`]);
});

Deno.test("writeHandoffFile replaces atomically and keeps 0600 under a permissive umask", () => {
  const data = Deno.makeTempDirSync();
  const id = newHandoffId();
  const old = Deno.umask(0o000);
  try {
    writeHandoffFile(data, id, "first");
    const path = writeHandoffFile(data, id, "second");
    assertEquals(readFileSync(path, "utf8"), "second");
    assertEquals(statSync(path).mode & 0o777, 0o600);
    assertEquals(statSync(join(data, "handoffs")).mode & 0o777, 0o700);
    assertEquals(readdirSync(join(data, "handoffs")).length, 1);
  } finally {
    Deno.umask(old);
  }
});

Deno.test("an existing handoffs directory is made private again", () => {
  const data = Deno.makeTempDirSync();
  Deno.mkdirSync(join(data, "handoffs"), { mode: 0o755 });
  Deno.chmodSync(join(data, "handoffs"), 0o755);
  writeHandoffFile(data, newHandoffId(), "x");
  assertEquals(statSync(join(data, "handoffs")).mode & 0o777, 0o700);
});

Deno.test("a failed write leaves no partial target and no temp file", () => {
  const data = Deno.makeTempDirSync();
  const id = newHandoffId();
  // A directory where the target should be makes the rename fail.
  Deno.mkdirSync(join(data, "handoffs", `${id}.md`), { recursive: true });
  writeFileSync(join(data, "handoffs", `${id}.md`, "keep"), "");
  assertThrows(() => writeHandoffFile(data, id, "text"));
  assertEquals(readdirSync(join(data, "handoffs")), [`${id}.md`]);
});
