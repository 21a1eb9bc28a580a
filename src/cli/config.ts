/**
 * `uuldana config` (the file in use and the effective values), `config init` (a starter file with
 * the agents found on the user's machine) and `config schema` (the JSON Schema editors use).
 *
 * @module
 */
import { Command } from "@commander-js/extra-typings";
import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { loadCheckedConfig } from "../context.ts";
import { configPath } from "../config/paths.ts";
import { configSchemaText } from "../config/config_schema.ts";
import { SCHEMA_FILE, starterConfig } from "../config/starter.ts";
import { UuldanaError } from "../errors.ts";
import { agentStatuses } from "./agents.ts";
import { dim } from "./style.ts";

function showCommand() {
  return new Command("show")
    .description("show the config file in use and the effective values (the default command)")
    .option("--json", "print {path, exists, effective} as JSON")
    .addHelpText(
      "after",
      `
Examples:
  uuldana config                  the file in use and its values (defaults when there is none)
  uuldana config show --json | jq .effective.chain`,
    )
    .action((opts) => {
      const { path, exists, ...effective } = loadCheckedConfig();
      if (opts.json) {
        console.log(JSON.stringify({ path, exists, effective }, null, 2));
        return;
      }
      console.log(
        `config file: ${path}${exists ? "" : dim("  (not found: these are the defaults)")}`,
      );
      console.log(JSON.stringify(effective, null, 2));
    });
}

function initCommand() {
  return new Command("init")
    .description("write a starter config with the chain of agents found on your machine")
    .addHelpText(
      "after",
      `
Examples:
  uuldana config init
  UULDANA_CONFIG=./uuldana.json uuldana config init   a config for this project only`,
    )
    .action(async () => {
      // Not parsed: a file that is there, valid or not, is the user's and stays as it is.
      const path = configPath();
      if (existsSync(path)) {
        throw new UuldanaError(
          `${path} already exists; it was not changed`,
          1,
          "edit it (see `uuldana config`), or move it away and run `uuldana config init` again",
        );
      }
      const found = (await agentStatuses())
        .filter((s) => s.found && s.proof?.accepted && !s.disabled).map((s) => s.name);
      try {
        Deno.mkdirSync(dirname(path), { recursive: true });
        // createNew: never overwrite, even a file made since the check above.
        Deno.writeTextFileSync(path, starterConfig(found), { createNew: true });
        Deno.writeTextFileSync(join(dirname(path), SCHEMA_FILE), configSchemaText());
      } catch (e) {
        if (e instanceof Deno.errors.AlreadyExists) {
          throw new UuldanaError(`${path} already exists; it was not changed`, 1);
        }
        throw new UuldanaError(
          `cannot write ${path}: ${(e as Error).message}`,
          1,
          "set UULDANA_CONFIG to a file in a folder you can write",
        );
      }
      console.log(`wrote ${path}`);
      console.log(
        found.length
          ? `chain: ${found.join(", ")} (found on your machine, in that order; edit to taste)`
          : "no agent that takes a handoff was found on your machine (`uuldana agents` says why); " +
            "the chain is the default one",
      );
      console.log(dim(`editors complete and check it with ${join(dirname(path), SCHEMA_FILE)}`));
    });
}

function schemaCommand() {
  return new Command("schema")
    .description("print the config's JSON Schema (generated from the rules that check the file)")
    .addHelpText(
      "after",
      `
Examples:
  uuldana config schema > ~/.config/uuldana/config.schema.json`,
    )
    .action(() => {
      Deno.stdout.writeSync(new TextEncoder().encode(configSchemaText()));
    });
}

/** The `config` command and its subcommands (`show` is the default). */
export function configCommand() {
  return new Command("config")
    .description("show the config in use, write a starter one, or print its JSON Schema")
    .addCommand(showCommand(), { isDefault: true })
    .addCommand(initCommand())
    .addCommand(schemaCommand())
    .addHelpText(
      "after",
      `
Examples:
  uuldana config                 the file in use ($UULDANA_CONFIG or ~/.config/uuldana/config.json) and its values
  uuldana config --json          the same as JSON
  uuldana config init            a starter file with the agents found on your machine (never overwrites)
  uuldana config schema > config.schema.json`,
    );
}
