import { deepStrictEqual as assertEquals, notStrictEqual } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENT_CORPUS_DIR, VT_CORPUS_DIR, WIDTH_TABLE_FILE } from "../../tests/_paths.ts";
import { sidecarText } from "./sidecar.ts";
import { widthTableText } from "./width_table.ts";

const recordings = [VT_CORPUS_DIR, AGENT_CORPUS_DIR].flatMap((dir) =>
  readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((f) => join(dir, f.slice(0, -5)))
);

Deno.test("the oracle regenerates every stored side file byte for byte", async () => {
  assertEquals(recordings.length, 54);
  for (const base of recordings) {
    const stored = readFileSync(`${base}.json`, "utf8");
    const text = await sidecarText(JSON.parse(stored), readFileSync(`${base}.raw`));
    if (text !== stored) assertEquals(text.split("\n"), stored.split("\n"), base);
  }
});

Deno.test("a changed byte changes the side file (the check can fail)", async () => {
  const base = join(VT_CORPUS_DIR, "python-repl");
  const stored = readFileSync(`${base}.json`, "utf8");
  const bytes = readFileSync(`${base}.raw`);
  bytes[bytes.indexOf(0x3e)] = 0x3c; // the prompt's first '>' becomes '<'
  notStrictEqual(await sidecarText(JSON.parse(stored), bytes), stored);
});

Deno.test("the width table charWidth is built from is xterm.js' own widths", () => {
  const stored = readFileSync(WIDTH_TABLE_FILE, "utf8");
  const text = widthTableText();
  if (text !== stored) assertEquals(text.split("\n"), stored.split("\n"));
});
