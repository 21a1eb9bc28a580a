import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseLaunch } from "./launch.ts";
import { findPersona, helpText, PERSONA_NAMES } from "./persona.ts";

function launch(name: string, args: string[]) {
  return parseLaunch(findPersona(name)!, args);
}

Deno.test("every persona's help has its proof line, and loses only it without the prompt", () => {
  for (const name of PERSONA_NAMES) {
    const p = findPersona(name)!;
    const full = helpText(p, false).split("\n");
    const without = helpText(p, true).split("\n");
    assertEquals(full.filter((l) => p.proofLine.test(l)).length, 1, name);
    assertEquals(without.filter((l) => p.proofLine.test(l)).length, 0, name);
    assertEquals(full.length - without.length, 1, name);
  }
});

Deno.test("claude: positional prompt after value options, --settings, unknown flags kept", () => {
  const l = launch("claude", ["--settings", "{}", "--model", "x", "--weird", "do it"]);
  assertEquals(l.mode, "tui");
  assertEquals(l.prompt, "do it");
  assertEquals(l.settings, "{}");
  assertEquals(l.unknown, ["--weird"]);
  assertEquals(launch("claude", ["-p", "q"]).mode, "print");
  assertEquals(launch("claude", ["--help"]).mode, "help");
  assertEquals(launch("claude", ["-v"]).mode, "version");
});

Deno.test("codex: positional prompt, --no-daemon recorded, -c takes a value", () => {
  const l = launch("codex", ["--no-daemon", "-c", "model=o3", "fix it"]);
  assertEquals([l.prompt, l.flags], ["fix it", ["--no-daemon"]]);
  assertEquals(launch("codex", ["-V"]).mode, "version");
});

Deno.test("gemini/qwen: -i prompt; qwen's positional prompt is one-shot", () => {
  assertEquals(launch("gemini", ["-i", "hi there", "-m", "pro"]).prompt, "hi there");
  assertEquals(launch("gemini", ["--prompt-interactive=x"]).prompt, "x");
  assertEquals(launch("qwen", ["-i", "q"]).mode, "tui");
  assertEquals(launch("qwen", ["q"]).mode, "print");
});

Deno.test("opencode: --prompt, import FILE, and --prompt dropped together with -s", () => {
  assertEquals(launch("opencode", ["--prompt", "p", "/proj"]).prompt, "p");
  const imp = launch("opencode", ["import", "f.json"]);
  assertEquals([imp.mode, imp.importFile], ["import", "f.json"]);
  const s = launch("opencode", ["-s", "ses_1", "--prompt", "p"]);
  assertEquals([s.sessionId, s.prompt, s.droppedPrompt], ["ses_1", null, "p"]);
});

Deno.test("copilot: -i prompt", () => {
  assertEquals(launch("copilot", ["--yolo", "-i", "go"]).prompt, "go");
});
