/**
 * The command tree as completion scripts need it, read from the commander program itself, so a
 * new command or option completes without anyone editing the scripts.
 *
 * @module
 */
import type { Command } from "@commander-js/extra-typings";
import { ROADS } from "../config/config.ts";

/** What a value (of an option or a positional argument) completes to. */
export type ValueKind =
  | { kind: "agent" }
  | { kind: "agents" } // a comma-separated list of agent names
  | { kind: "file" }
  | { kind: "dir" }
  | { kind: "choices"; choices: string[] }
  | { kind: "none" };

/** One option: its spellings, and the kind of value it takes (undefined: a flag). */
export interface CompletionOption {
  flags: string[];
  value?: ValueKind;
}

/** One command: its subcommands, options and what its first positional argument completes to. */
export interface CompletionNode {
  name: string;
  description: string;
  subcommands: CompletionNode[];
  options: CompletionOption[];
  positional: ValueKind;
}

// Option values and arguments that name agents or files, by the names the commands give them.
const AGENT_LISTS = new Set(["then", "agents"]);
const AGENT_ONE = new Set(["to", "agent"]);
const FILE_VALUES = new Set(["file", "package", "delivered"]);
const DIR_VALUES = new Set(["dir", "cwd"]);

/** The kind of a value known by `names` (an option's placeholder and attribute, an argument's name). */
function kindOf(names: string[], choices: readonly string[] | undefined): ValueKind {
  if (choices?.length) return { kind: "choices", choices: [...choices] };
  const is = (set: Set<string>) => names.some((n) => set.has(n));
  if (names.includes("road")) return { kind: "choices", choices: [...ROADS] };
  if (is(AGENT_LISTS)) return { kind: "agents" };
  if (is(AGENT_ONE)) return { kind: "agent" };
  if (is(FILE_VALUES)) return { kind: "file" };
  if (is(DIR_VALUES)) return { kind: "dir" };
  return { kind: "none" };
}

/** A commander command of any arguments and options. */
// deno-lint-ignore no-explicit-any
export type AnyCommand = Command<any, any, any>;

/** The tree below `cmd`, hidden commands and options left out, `-h, --help` on every command. */
export function completionTree(cmd: AnyCommand): CompletionNode {
  const options: CompletionOption[] = cmd.options.filter((o) => !o.hidden).map((o) => {
    const flags = [o.short, o.long].filter((f): f is string => !!f);
    if (!o.required && !o.optional) return { flags };
    const placeholder = /[<[]([^>\]]+)[>\]]/.exec(o.flags)?.[1] ?? "";
    return { flags, value: kindOf([placeholder, o.attributeName()], o.argChoices) };
  });
  options.push({ flags: ["-h", "--help"] });
  // deno-lint-ignore no-explicit-any
  const subcommands = (cmd.commands as AnyCommand[]).filter((c) => !(c as any)._hidden)
    .map(completionTree);
  // `uuldana config --json` runs the default subcommand (`show`): its options work here too.
  // deno-lint-ignore no-explicit-any
  const fallback = subcommands.find((s) => s.name === (cmd as any)._defaultCommandName);
  for (const o of fallback?.options ?? []) {
    if (!options.some((mine) => mine.flags.join() === o.flags.join())) options.push(o);
  }
  const first = cmd.registeredArguments[0];
  return {
    name: cmd.name(),
    description: cmd.summary() || cmd.description().split(/(?<=\.)\s/)[0],
    subcommands,
    options,
    positional: first ? kindOf([first.name()], first.argChoices) : { kind: "none" },
  };
}

/** Every node with the words that lead to it (`[]` for the program, `["debug", "screen"]`…). */
export function nodesByPath(root: CompletionNode): { path: string[]; node: CompletionNode }[] {
  const out: { path: string[]; node: CompletionNode }[] = [];
  const visit = (node: CompletionNode, path: string[]) => {
    out.push({ path, node });
    for (const sub of node.subcommands) visit(sub, [...path, sub.name]);
  };
  visit(root, []);
  return out;
}
