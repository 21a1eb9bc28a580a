import { deepStrictEqual as assertEquals } from "node:assert/strict";
import zlib from "node:zlib";
import { embeddedFiles, tarFiles } from "./embedded_archives.ts";
import { tarArchive } from "./_tar_test_util.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

Deno.test("tar files are listed with their paths and contents", () => {
  const tar = tarArchive({ "package/cli-main.js": "x='a'", "package/README.md": "# hi" });
  assertEquals(
    tarFiles(tar).map((f) => [f.name, dec.decode(f.bytes)]),
    [["package/cli-main.js", "x='a'"], ["package/README.md", "# hi"]],
  );
});

Deno.test("a gzipped tarball inside a binary is found and read, whatever follows it", () => {
  const tar = tarArchive({ "package/cli-main.js": 'm("You’ve reached your limit")' });
  const gz = zlib.gzipSync(tar);
  const before = enc.encode("\x7fELF\x00\x1f\x8b junk \x1f\x8b\x08\xff");
  const after = enc.encode("NODE_SEA trailing bytes \x1f\x8b\x08\x00 broken");
  const binary = new Uint8Array(before.length + gz.length + after.length);
  binary.set(before);
  binary.set(gz, before.length);
  binary.set(after, before.length + gz.length);
  const files = embeddedFiles(binary);
  assertEquals(files.map((f) => [f.name, dec.decode(f.bytes)]), [
    ["package/cli-main.js", 'm("You’ve reached your limit")'],
  ]);
});
