/**
 * Reads the option table out of a real CLI's `--help` text, and parses argv with it the way that
 * CLI would (commander, clap or yargs conventions: `<value>`, `[optional]`, `<values...>`,
 * `[string]`, `[array]`). Unknown options are accepted and reported. Pure.
 *
 * @module
 */

/** How an option takes its value. */
export type OptionKind = "flag" | "value" | "optional" | "variadic";

/** An option table: every spelling (`-i`, `--prompt-interactive`) → canonical name and kind. */
export type OptionTable = Map<string, { name: string; kind: OptionKind }>;

/** Which help convention the text follows. */
export type HelpStyle = "commander" | "yargs";

/** The parsed command line. */
export interface ParsedArgv {
  /** Canonical long name (no dashes) → value; flags are `true`; repeated values keep the last. */
  options: Record<string, string | string[] | true>;
  /** Positional arguments in order. */
  positionals: string[];
  /** Options the CLI does not know (accepted leniently, as given). */
  unknown: string[];
}

const _OPTION_LINE = /^\s{1,8}(-{1,2}[A-Za-z0-9][\w-]*(?:, -{1,2}[A-Za-z0-9][\w-]*)*)(?: (\S+))?/;

/** Builds the option table from help lines. */
export function optionTable(lines: readonly string[], style: HelpStyle): OptionTable {
  const table: OptionTable = new Map();
  let last: { spellings: string[]; name: string } | null = null;
  const commit = (kind: OptionKind) => {
    if (!last) return;
    for (const s of last.spellings) table.set(s, { name: last.name, kind });
  };
  let lastKind: OptionKind = "flag";
  for (const line of lines) {
    const m = _OPTION_LINE.exec(line);
    if (m) {
      if (last && style === "yargs") commit(lastKind);
      const spellings = m[1].split(", ");
      const long = spellings.find((s) => s.startsWith("--")) ?? spellings[0];
      last = { spellings, name: long.replace(/^-+/, "") };
      if (style === "commander") {
        commit(_commanderKind(m[2]));
        last = null;
      } else {
        lastKind = _yargsKind(line);
      }
      continue;
    }
    if (last && style === "yargs" && lastKind === "flag") lastKind = _yargsKind(line);
  }
  if (last && style === "yargs") commit(lastKind);
  return table;
}

function _commanderKind(spec: string | undefined): OptionKind {
  if (!spec || !/^[<\[]/.test(spec)) return "flag";
  if (spec.includes("...")) return "variadic";
  return spec.startsWith("[") ? "optional" : "value";
}

function _yargsKind(line: string): OptionKind {
  if (/\[array\]/.test(line)) return "variadic";
  if (/\[(?:string|number|count)\]/.test(line)) return "value";
  return "flag";
}

/** Parses `argv` with `table`; `--` ends the options. */
export function parseArgv(argv: readonly string[], table: OptionTable): ParsedArgv {
  const out: ParsedArgv = { options: {}, positionals: [], unknown: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const spelling = eq > 0 ? arg.slice(0, eq) : arg;
    const known = table.get(spelling);
    if (!known) {
      out.unknown.push(arg);
      continue;
    }
    if (eq > 0) {
      out.options[known.name] = known.kind === "variadic" ? [arg.slice(eq + 1)] : arg.slice(eq + 1);
      continue;
    }
    const next = argv[i + 1];
    switch (known.kind) {
      case "flag":
        out.options[known.name] = true;
        break;
      case "value":
        if (next === undefined) out.options[known.name] = true;
        else out.options[known.name] = argv[++i];
        break;
      case "optional":
        if (next !== undefined && !next.startsWith("-")) out.options[known.name] = argv[++i];
        else out.options[known.name] = true;
        break;
      case "variadic": {
        const values: string[] = [];
        while (i + 1 < argv.length && !argv[i + 1].startsWith("-")) values.push(argv[++i]);
        out.options[known.name] = values;
        break;
      }
    }
  }
  return out;
}

/** The string value of an option, or undefined (a bare flag or a list gives its first value). */
export function stringOption(p: ParsedArgv, name: string): string | undefined {
  const v = p.options[name];
  if (v === undefined || v === true) return undefined;
  return Array.isArray(v) ? v[0] : v;
}
