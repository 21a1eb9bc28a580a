import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { adapterByName, ADAPTERS } from "./registry.ts";
import { topHelp } from "../tests/fixtures/fake_agents/help.ts";

const EXPECTED: Record<string, string> = {
  claude: "Usage: claude [options] [command] [prompt]",
  codex: "Usage: codex [OPTIONS] [PROMPT]",
  gemini:
    "-i, --prompt-interactive        Execute the provided prompt and continue in interactive mode  [string]",
  opencode:
    "--prompt        prompt to use                                                         [string]",
  kilo:
    "--prompt        prompt to use                                                         [string]",
  qwen:
    "-i, --prompt-interactive              Execute the provided prompt and continue in interactive mode  [string]",
  copilot: "-i, --interactive <prompt>",
  pi: "pi [options] [@files...] [messages...]",
  auggie: "-if, --instruction-file <p>  Instruction file (mutually exclusive with --instruction)",
};

Deno.test("real help texts prove the initial prompt with the documented line", () => {
  for (const [name, line] of Object.entries(EXPECTED)) {
    const proof = adapterByName(name)!.proveInitialPrompt(topHelp(name));
    assertEquals(proof, { accepted: true, line }, name);
  }
});

Deno.test("help texts with the flag removed or changed are refused", () => {
  for (const name of Object.keys(EXPECTED)) {
    const adapter = adapterByName(name)!;
    const proven = adapter.proveInitialPrompt(topHelp(name)).line!;
    const firstToken = proven.split(/\s+/)[0];
    const without = topHelp(name).split("\n").filter((l) => !l.includes(proven)).join("\n");
    const refused = adapter.proveInitialPrompt(without);
    assertEquals(refused.accepted, false, name);
    assertEquals(refused.line, null);
    assert(refused.reason?.includes("--help"), name);
    // A renamed flag (same line, different spelling) is refused too.
    const renamed = topHelp(name).replace(proven, proven.replace(firstToken, `${firstToken}X`));
    assertEquals(adapter.proveInitialPrompt(renamed).accepted, false, `${name} renamed`);
  }
});

Deno.test("another agent's help, a wrapper's help or an empty text prove nothing", () => {
  const wrapper = "usage: run-agent [-h] [--verbose] ARGS...\nA wrapper script.\n";
  for (const adapter of ADAPTERS) {
    assertEquals(adapter.proveInitialPrompt(wrapper).accepted, false, adapter.name);
    assertEquals(adapter.proveInitialPrompt("").accepted, false, adapter.name);
  }
  // Codex's `-i` is --image and OpenCode's `run -i` is a mode: not Gemini's initial prompt.
  assertEquals(adapterByName("gemini")!.proveInitialPrompt(topHelp("codex")).accepted, false);
  assertEquals(adapterByName("qwen")!.proveInitialPrompt(topHelp("opencode")).accepted, false);
  assertEquals(adapterByName("copilot")!.proveInitialPrompt(topHelp("kilo")).accepted, false);
});

Deno.test("colourised help still proves", () => {
  const help = "\x1b[1mUsage:\x1b[22m codex [OPTIONS] [PROMPT]\n";
  assertEquals(adapterByName("codex")!.proveInitialPrompt(help).accepted, true);
});

Deno.test("crush and aider have no initial prompt: paste road only", () => {
  for (const name of ["crush", "aider"]) {
    const adapter = adapterByName(name)!;
    assertEquals(adapter.proveInitialPrompt("anything --prompt").accepted, false);
    assertEquals([...adapter.roads], ["paste"]);
  }
});
