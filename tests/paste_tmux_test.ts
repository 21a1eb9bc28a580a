/**
 * A big paste through uuldana in a real outer terminal (tmux): the agent gets every byte of it,
 * and uuldana's journal keeps a bounded turn that says it was cut (issue 12: memory bounded, the
 * keyboard path untouched).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { TmuxTerminal } from "./_tmux.ts";
import { REPO_DIR, UULDANA } from "./_paths.ts";
import { TURN_CAP } from "../src/session/line_buffer.ts";

const PASTE_COUNT = join(REPO_DIR, "tests/fixtures/pty_agents/paste_count.ts");
const SIZE = 5_000_000;

/** FNV-1a over bytes, as the fixture computes it. */
function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

Deno.test(
  "a 5 MB paste reaches the agent whole while the recorded turn stays bounded and says it was cut",
  { sanitizeOps: false, sanitizeResources: false },
  async () => {
    const term = new TmuxTerminal();
    const home = Deno.makeTempDirSync({ prefix: "uuldana-paste-" });
    try {
      const lines: string[] = [];
      let n = 0;
      for (let i = 1; n < SIZE; i++) {
        const line = `${i}: the build log says ok ✓\n`;
        lines.push(line);
        n += new TextEncoder().encode(line).length;
      }
      const text = lines.join("");
      const file = join(home, "paste.txt");
      Deno.writeTextFileSync(file, text);
      const agent = join(home, "paste-agent");
      Deno.writeTextFileSync(
        agent,
        `#!/bin/sh\nexec '${Deno.execPath()}' run -A '${PASTE_COUNT}' "$@"\n`,
      );
      Deno.chmodSync(agent, 0o755);
      await term.start([...UULDANA, "run", "qwen"], {
        cols: 100,
        rows: 30,
        env: {
          UULDANA_HOME: home,
          UULDANA_CONFIG: join(home, "config.json"),
          UULDANA_QWEN_BIN: agent,
          TERM: "xterm-256color",
          LANG: "C.UTF-8",
        },
      });
      await term.waitFor("ready");
      await term.pasteFile(file);
      // tmux sends each LF as CR; the agent counts and hashes the bytes between the markers.
      const sent = new TextEncoder().encode(text.replaceAll("\n", "\r"));
      await term.waitFor(`pasted ${sent.length} bytes, fnv1a ${fnv1a(sent)}`, 60_000);
      await term.send("what failed?", true);
      await term.send("Enter");
      await term.send("/quit", true);
      await term.send("Enter");
      await term.waitFor("[exit 7]", 20_000);

      const show = await new Deno.Command(UULDANA[0], {
        args: [...UULDANA.slice(1), "show", "last", "--json"],
        env: { UULDANA_HOME: home, UULDANA_CONFIG: join(home, "config.json") },
      }).output();
      assertEquals(show.code, 0, new TextDecoder().decode(show.stderr));
      const entries: { role: string; text: string; certainty: string | null }[] = JSON.parse(
        new TextDecoder().decode(show.stdout),
      ).entries;
      const turn = entries.find((e) => e.role === "user" && e.text.startsWith("1: the build"));
      assert(turn, JSON.stringify(entries.map((e) => e.text.slice(0, 40))));
      assert(turn.text.length <= TURN_CAP + 200, `recorded ${turn.text.length} code units`);
      assert(/uuldana kept only the start and the end of this paste: [\d,]+ bytes/.test(turn.text));
      assert(turn.text.endsWith(text.slice(-500) + "what failed?"), turn.text.slice(-200));
      assertEquals(turn.certainty, "best-effort");
    } finally {
      await term.close();
      Deno.removeSync(home, { recursive: true });
    }
  },
);
