/**
 * End-to-end: what the agent did reaches the next agent. The simulated Claude reports each tool
 * call through its PostToolUse/PostToolUseFailure hooks (the fields real Claude 2.1.332 sends,
 * testdata/channels/claude-2.1.332-tools); uuldana journals them and the handoff's "What was done"
 * lists them in order, with the workspace's changes since the run started. Real `script`, tmux as
 * the user's terminal, the real SQLite journal, a real git repository.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { join } from "node:path";
import { framedBody, World, worldTest } from "./_world.ts";

const CALLS = [
  { tool: "Read", input: { file_path: "deploy.sh" } },
  { tool: "Edit", input: { file_path: "deploy.sh", old_string: "a", new_string: "b" } },
  { tool: "Bash", input: { command: "sh test.sh --turn {turn}" }, error: "Exit code 1\nFAIL" },
];

function git(dir: string, ...args: string[]): void {
  const r = new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  if (!r.success) throw new Error(new TextDecoder().decode(r.stderr));
}

worldTest(
  "the handoff says what was done: every tool call from the channel, in order, and the changes since the start",
  () =>
    new World(["claude", "codex"], {
      claude: { SIM_LIMIT_AFTER: "3", SIM_TOOL_CALLS: JSON.stringify(CALLS) },
    }),
  async (w) => {
    Deno.writeTextFileSync(join(w.workspace, "deploy.sh"), "echo deploy\n");
    git(w.workspace, "init", "-q", "-b", "main");
    git(w.workspace, "add", ".");
    git(w.workspace, "commit", "-q", "-m", "base");
    await w.start(["run"]);
    await w.ask("claude", "Add a --dry-run flag to deploy.sh");
    await w.waitForEvent("claude", "reply");
    // The agent's edit, as it lands in the workspace.
    Deno.writeTextFileSync(join(w.workspace, "deploy.sh"), 'echo deploy\n[ "$1" = -n ] && exit\n');
    await w.ask("claude", "and a test for it");
    await w.waitForEvent("claude", "reply", 2);
    await w.ask("claude", "run it");
    const [start] = await w.waitForEvent("codex", "start");
    const framed = framedBody(String(start.prompt));
    assert(framed, String(start.prompt).slice(0, 400));
    const done = framed.body.slice(framed.body.indexOf("What was done"));
    const lines = done.split("\n").slice(1).filter((l) => l.startsWith("- "));
    // Turns 1 and 2 made their three calls each, in order; the limited turn may have made its own.
    assertEquals(lines.slice(0, 6), [
      "- read deploy.sh",
      "- edited deploy.sh",
      "- ran `sh test.sh --turn 1` → exit 1",
      "- read deploy.sh",
      "- edited deploy.sh",
      "- ran `sh test.sh --turn 2` → exit 1",
    ]);
    assert(framed.body.indexOf("What was done") < framed.body.indexOf("Conversation so far"));
    assert(
      /Changed since the work started \(git diff --stat [0-9a-f]{12}\):\n {2}deploy\.sh \| 1 \+\n {2}1 file changed, 1 insertion\(\+\)/
        .test(framed.body),
      framed.body.slice(0, 1500),
    );
    assertEquals(await w.quit(), 0);
    const shown = await w.uuldana(["show", "1"]);
    assert(/what was done \((6|9) tool calls from its channel\)/.test(shown.stdout), shown.stdout);
    assert(shown.stdout.includes("ran `sh test.sh --turn 2` → exit 1"), shown.stdout);
  },
);
