/**
 * A big paste through uuldana in a real outer terminal (tmux): the agent gets every byte of it,
 * and uuldana's journal keeps a bounded turn that says it was cut (issue 12: memory bounded, the
 * keyboard path untouched).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { World, worldTest } from "./_world.ts";
import { REPO_DIR } from "./_paths.ts";
import { TURN_CAP } from "../src/session/line_buffer.ts";

const PASTE_COUNT = join(REPO_DIR, "tests/fixtures/pty_agents/paste_count.ts");
const SIZE = 5_000_000;

/** FNV-1a over bytes, as the fixture computes it. */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

worldTest(
  "a 5 MB paste reaches the agent whole while the recorded turn stays bounded and says it was cut",
  () => new World(["qwen"]),
  async (w) => {
    const lines: string[] = [];
    let n = 0;
    for (let i = 1; n < SIZE; i++) {
      const line = `${i}: the build log says ok ✓\n`;
      lines.push(line);
      n += new TextEncoder().encode(line).length;
    }
    const text = lines.join("");
    const file = join(w.root, "paste.txt");
    Deno.writeTextFileSync(file, text);
    w.agentProgram("qwen", `exec '${Deno.execPath()}' run -A '${PASTE_COUNT}' "$@"\n`);
    await w.start(["run", "qwen"], { cols: 100, rows: 30 });
    await w.term.waitFor("ready");
    await w.term.pasteFile(file);
    // tmux sends each LF as CR; the agent counts and hashes the bytes between the markers.
    const sent = new TextEncoder().encode(text.replaceAll("\n", "\r"));
    await w.term.waitFor(`pasted ${sent.length} bytes, fnv1a ${fnv1a(sent)}`, 60_000);
    await w.type("what failed?");
    await w.type("/quit");
    await w.term.waitFor("[exit 7]", 20_000);

    const show = await w.uuldana(["show", "last", "--json"]);
    assertEquals(show.code, 0, show.stderr);
    const entries: { role: string; text: string; certainty: string | null }[] =
      JSON.parse(show.stdout).entries;
    const turn = entries.find((e) => e.role === "user" && e.text.startsWith("1: the build"));
    assert(turn, JSON.stringify(entries.map((e) => e.text.slice(0, 40))));
    assert(turn.text.length <= TURN_CAP + 200, `recorded ${turn.text.length} code units`);
    assert(/uuldana kept only the start and the end of this paste: [\d,]+ bytes/.test(turn.text));
    assert(turn.text.endsWith(text.slice(-500) + "what failed?"), turn.text.slice(-200));
    assertEquals(turn.certainty, "best-effort");
  },
);
