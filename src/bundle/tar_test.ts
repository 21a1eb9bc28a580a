import { deepStrictEqual as assertEquals, throws as assertThrows } from "node:assert/strict";
import { tarArchive } from "./tar.ts";

const enc = new TextEncoder();

Deno.test("the system's tar lists and extracts the archive exactly", async () => {
  const big = new Uint8Array(70_000).map((_, i) => i % 251);
  const archive = tarArchive([
    { name: "bundle/", mtime: 1_700_000_000 },
    { name: "bundle/README.txt", data: enc.encode("hello\n"), mtime: 1_700_000_000 },
    { name: "bundle/empty.json", data: new Uint8Array(0), mtime: 1_700_000_000 },
    { name: "bundle/big.bin", data: big, mode: 0o644, mtime: 1_700_000_000 },
  ]);
  assertEquals(archive.length % 512, 0);
  const dir = await Deno.makeTempDir({ prefix: "uuldana-tar-" });
  try {
    await Deno.writeFile(`${dir}/a.tar`, archive);
    const list = await new Deno.Command("tar", { args: ["-tvf", `${dir}/a.tar`], stdout: "piped" })
      .output();
    assertEquals(list.code, 0);
    const rows = new TextDecoder().decode(list.stdout).trim().split("\n");
    assertEquals(rows.map((r) => r.split(/\s+/).at(-1)), [
      "bundle/",
      "bundle/README.txt",
      "bundle/empty.json",
      "bundle/big.bin",
    ]);
    assertEquals(rows.map((r) => r.slice(0, 10)), [
      "drwx------",
      "-rw-------",
      "-rw-------",
      "-rw-r--r--",
    ]);
    const x = await new Deno.Command("tar", { args: ["-xf", `${dir}/a.tar`, "-C", dir] }).output();
    assertEquals(x.code, 0);
    assertEquals(await Deno.readTextFile(`${dir}/bundle/README.txt`), "hello\n");
    assertEquals(await Deno.readFile(`${dir}/bundle/big.bin`), big);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("names tar cannot take safely are refused", () => {
  assertThrows(
    () => tarArchive([{ name: "../x", data: new Uint8Array(1), mtime: 0 }]),
    /unsupported name/,
  );
  assertThrows(() => tarArchive([{ name: "é", mtime: 0 }]), /unsupported name/);
  assertThrows(() => tarArchive([{ name: "x".repeat(101), mtime: 0 }]), /unsupported name/);
});
