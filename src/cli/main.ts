/**
 * The command-line program: commands, options, and the mapping of failures to exit codes.
 *
 * @module
 */
import { Command, CommanderError } from "@commander-js/extra-typings";
import { ExitCode, UuldanaError } from "../errors.ts";
import { red } from "./style.ts";
import { join } from "node:path";
import { dataDir } from "../config/paths.ts";
import { JOURNAL_FILE, journalProblem } from "../journal/journal.ts";
import { isSqliteError } from "../journal/sqlite_failure.ts";
import { buildInfo, versionLine } from "./version.ts";
import type { AnyCommand } from "./completion_tree.ts";

/**
 * The commands in the order `--help` lists them, each loaded only when it is built: a run that
 * lasts hours then holds none of the other commands' code (~5 MB of RSS, bench/soak_bench.ts).
 */
const _COMMANDS: readonly {
  name: string;
  load: () => Promise<AnyCommand>;
  hidden?: true;
  /** It walks the whole program (`completions` writes its script from it). */
  needsAll?: true;
}[] = [
  { name: "run", load: async () => (await import("./run.ts")).runCommand() },
  { name: "exec", load: async () => (await import("./exec.ts")).execCommand() },
  { name: "agents", load: async () => (await import("./agents.ts")).agentsCommand() },
  { name: "limits", load: async () => (await import("./limits.ts")).limitsCommand() },
  { name: "runs", load: async () => (await import("./inspect.ts")).runsCommand() },
  { name: "show", load: async () => (await import("./inspect.ts")).showCommand() },
  { name: "export", load: async () => (await import("./inspect.ts")).exportCommand() },
  { name: "handoff", load: async () => (await import("./handoff.ts")).handoffCommand() },
  { name: "demo", load: async () => (await import("./demo.ts")).demoCommand() },
  { name: "config", load: async () => (await import("./config.ts")).configCommand() },
  { name: "doctor", load: async () => (await import("./doctor.ts")).doctorCommand() },
  { name: "debug", load: async () => (await import("./debug.ts")).debugCommand() },
  {
    name: "completions",
    load: async () => (await import("./completions.ts")).completionsCommand(),
    needsAll: true,
  },
  {
    name: "sim-agent",
    load: async () => (await import("./sim_agent.ts")).simAgentCommand(),
    hidden: true,
  },
];

/**
 * Builds the program. When `args` begins with a command's name, only that command is built (its
 * `--help`, options and errors are the same); otherwise, as for `--help` or a mistyped command
 * that deserves a suggestion, all of them are.
 */
export async function buildProgram(args: readonly string[] = []): Promise<Command> {
  const program = new Command("uuldana")
    .description(
      "Keeps your coding agent's work going. Runs Claude Code, Codex, Gemini, OpenCode, Qwen, " +
        "Copilot… untouched in a pseudo-terminal; when one hits its usage limit, hands the " +
        "conversation (framed as untrusted evidence) to the next agent of your chain.",
    )
    // The line is made only when asked: from source it runs `git rev-parse`.
    .option("-V, --version", "print the version, Deno version, target and commit")
    .on("option:version", () => {
      console.log(versionLine(buildInfo()));
      throw new CommanderError(0, "commander.version", "");
    })
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    // Subcommands own the options after their name (`sim-agent` passes them through untouched).
    .enablePositionalOptions()
    .configureHelp({ sortSubcommands: false })
    .addHelpText(
      "after",
      `
Examples:
  uuldana run                     run the first installed agent of your chain
  uuldana run claude --then codex,gemini
  uuldana exec "fix the failing test" --agents claude,codex   (CI, no terminal)
  uuldana agents                  which agents are installed and how they take a handoff
  uuldana limits                  who is limited or near it, until when (clear: limits clear NAME)
  uuldana runs                    what the journal recorded
  uuldana demo                    see a switch happen with two simulated agents

Inside a run, type /agent NAME and Enter to switch by hand (/agent alone lists agents).
Config: $UULDANA_CONFIG or ~/.config/uuldana/config.json. Data: $UULDANA_HOME or ~/.local/share/uuldana.`,
    );
  const named = _COMMANDS.find((c) => c.name === args[0] && !c.needsAll);
  const wanted = named ? [named] : _COMMANDS;
  const built = await Promise.all(wanted.map((c) => c.load()));
  wanted.forEach((c, i) => program.addCommand(built[i], { hidden: c.hidden ?? false }));
  _failOnUsageErrors(program);
  return program;
}

// Every command (nested too) reports usage errors as one line + hint and exit code 2.
function _failOnUsageErrors(cmd: Command<unknown[], Record<string, unknown>>): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeErr: (s) => Deno.stderr.writeSync(new TextEncoder().encode(s)),
    outputError: (s, write) => write(red(s.trimEnd()) + "\n"),
  });
  for (const sub of cmd.commands) {
    _failOnUsageErrors(sub as Command<unknown[], Record<string, unknown>>);
  }
}

/** Runs the program with `args` (without the executable); returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const program = await buildProgram(args);
  try {
    await program.parseAsync(args, { from: "user" });
    return ExitCode.ok;
  } catch (e) {
    return _exitCodeFor(e, program);
  }
}

function _exitCodeFor(e: unknown, program: Command): number {
  // A journal that fails while a command reads it (locked, damaged…) is the user's to fix: say
  // which file and what to do, not "internal error".
  if (isSqliteError(e)) e = journalProblem(join(dataDir(), JOURNAL_FILE), e);
  // `uuldana runs | head`: the reader left; that is not an error worth a word.
  if (e instanceof Deno.errors.BrokenPipe) return 141;
  if (e instanceof CommanderError) {
    if (
      e.code === "commander.helpDisplayed" || e.code === "commander.version" ||
      e.code === "commander.help"
    ) {
      return ExitCode.ok;
    }
    // Commander already printed the error line; add the hint.
    console.error(
      `Run '${program.name()} --help' (or '${program.name()} COMMAND --help') for usage.`,
    );
    return ExitCode.usage;
  }
  if (e instanceof UuldanaError) {
    if (e.message === "") return e.code;
    console.error(`${red("uuldana:")} ${e.message}`);
    if (e.hint) console.error(`  ${e.hint}`);
    if (Deno.env.get("UULDANA_DEBUG") === "1") console.error(e.stack);
    return e.code;
  }
  console.error(`${red("uuldana: internal error:")} ${(e as Error)?.message ?? String(e)}`);
  if (Deno.env.get("UULDANA_DEBUG") === "1") console.error((e as Error)?.stack);
  else console.error("  run again with UULDANA_DEBUG=1 for details, and please report it");
  return ExitCode.failure;
}
