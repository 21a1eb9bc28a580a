/**
 * `uuldana completions bash|zsh|fish`: prints a completion script made from the program's own
 * command tree, the agents of the registry and the profiles of the config (a config that does not
 * load adds none: completion never fails on it).
 *
 * @module
 */
import { Argument, Command } from "@commander-js/extra-typings";
import { adapterNames } from "../../adapters/registry.ts";
import { loadCheckedConfig } from "../context.ts";
import { completionTree } from "./completion_tree.ts";
import { completionScript, SHELLS } from "./completion_scripts.ts";

/** The `completions` command. */
export function completionsCommand(): Command<[string], Record<string, never>> {
  return new Command("completions")
    .description("print a shell completion script (commands, options, agent and profile names)")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .addHelpText(
      "after",
      `
Examples:
  source <(uuldana completions bash)                 bash, this shell only (add it to ~/.bashrc)
  uuldana completions bash > ~/.local/share/bash-completion/completions/uuldana
  source <(uuldana completions zsh)                  zsh, after compinit (add it to ~/.zshrc)
  uuldana completions fish > ~/.config/fish/completions/uuldana.fish`,
    )
    .action((shell, _opts, cmd) => {
      let root: Command<unknown[], Record<string, unknown>> = cmd as never;
      while (root.parent) root = root.parent as never;
      const script = completionScript(
        shell as typeof SHELLS[number],
        completionTree(root),
        [...adapterNames(), ..._profileNames()],
      );
      Deno.stdout.writeSync(new TextEncoder().encode(script));
    }) as never;
}

function _profileNames(): string[] {
  try {
    return Object.keys(loadCheckedConfig().profiles);
  } catch {
    return [];
  }
}
