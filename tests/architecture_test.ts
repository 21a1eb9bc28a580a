/**
 * The layering, as docs/architecture.md draws it:
 *
 * - the CLI sits on top: nothing in the product (mod.ts, src/, adapters/) imports `src/cli/`
 *   except mod.ts and the CLI's own files (tests may test the CLI);
 * - the pure cores (`src/vt/`, `src/chain/`, `src/handoff/` but its named I/O shell, `src/capture/`,
 *   `src/detect/`) and everything they load do no I/O, keep no timer and read no clock;
 * - the agents live in `adapters/` behind the one `Adapter` interface: no agent's name in the
 *   code of `src/session/`, no module outside `adapters/` loads one agent's adapter, channel or
 *   headless parser, and every agent's structured channel is reached through the registry.
 */
import { ok as assert } from "node:assert/strict";
import { join, relative, resolve } from "node:path";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { REPO_DIR } from "./_paths.ts";
import { assertPure, valueImports } from "../src/_purity_test_util.ts";
import { ADAPTERS } from "../adapters/registry.ts";

function _files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return _files(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The product's modules below `dir` (tests and test helpers aside). */
function _modules(dir: string): string[] {
  return _files(join(REPO_DIR, dir)).filter((f) => !/(_test|_test_util)\.ts$/.test(f));
}

/** Where each relative import of `file` (values and types) resolves. */
function _imports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)]
    .map((m) => m[1])
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolve(file, "..", spec));
}

/** The code of a module without its comments (a name in a comment explains; it does not couple). */
function _code(file: string): string {
  return readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
}

Deno.test("nothing but mod.ts (and the CLI itself) imports src/cli/", () => {
  const cli = resolve(REPO_DIR, "src", "cli");
  const files = [..._files(join(REPO_DIR, "src")), ..._files(join(REPO_DIR, "adapters"))];
  assert(files.length > 50, "the product's files were found");
  const offenders: string[] = [];
  for (const file of files) {
    if (file.startsWith(cli + "/")) continue;
    for (const target of _imports(file)) {
      if (target.startsWith(cli + "/")) offenders.push(`${relative(REPO_DIR, file)} → ${target}`);
    }
  }
  assert(offenders.length === 0, `imports of src/cli/ below the CLI:\n${offenders.join("\n")}`);
});

/** Each pure core, and the files of its folder that are its I/O shell. */
const PURE_CORES: { dir: string; modules: number; shell?: string[] }[] = [
  { dir: "src/vt", modules: 20 },
  { dir: "src/chain", modules: 5 },
  // The shell: saving (prepare.ts, file.ts), running git (workspace.ts), and mod.ts re-exporting
  // them with the core.
  { dir: "src/handoff", modules: 6, shell: ["prepare.ts", "file.ts", "workspace.ts", "mod.ts"] },
  { dir: "src/detect", modules: 3 },
  // What a submit sent and the channel conversation: decided here, carried out in src/session.
  { dir: "src/capture", modules: 2 },
];

for (const core of PURE_CORES) {
  Deno.test(`${core.dir}/ and everything it loads do no I/O`, () => {
    assertPure(join(REPO_DIR, core.dir), core.modules, core.shell);
  });
}

Deno.test("the pure cores' shells are real: each named shell file does I/O or loads what does", () => {
  // A shell file that became pure belongs to the core: the list above must not hide anything.
  for (const core of PURE_CORES) {
    for (const name of core.shell ?? []) {
      const file = join(REPO_DIR, core.dir, name);
      const io = (f: string) =>
        valueImports(readFileSync(f, "utf8")).some((s) => s.startsWith("node:")) ||
        /\bDeno\./.test(_code(f));
      const loaded = valueImports(readFileSync(file, "utf8"))
        .filter((s) => s.startsWith("."))
        .map((s) => resolve(file, "..", s));
      assert(
        io(file) || loaded.some(io),
        `${core.dir}/${name} does no I/O: it is part of the core`,
      );
    }
  }
});

/** The agent a module is named after (`claude.ts`, `opencode_limit.ts`), or null. */
function _agentOf(path: string): string | null {
  const base = path.split("/").at(-1)!.replace(/\.ts$/, "");
  return ADAPTERS.find((a) => base === a.name || base.startsWith(`${a.name}_`))?.name ?? null;
}

/** Words that name an agent: its adapter's name and its display name. */
const AGENT_WORDS = ADAPTERS.flatMap((a) => [a.name, a.displayName]);

Deno.test("no agent is named in the code of src/session/ (its knowledge is in adapters/)", () => {
  const names = new RegExp(
    `\\b(?:${AGENT_WORDS.map((w) => w.replace(/\W/g, "\\$&")).join("|")})\\b`,
  );
  const files = _modules("src/session");
  assert(files.length > 10, "src/session/ was found");
  const offenders = files.flatMap((file) => {
    const hit = names.exec(_code(file));
    return hit ? [`${relative(REPO_DIR, file)}: "${hit[0]}"`] : [];
  });
  assert(offenders.length === 0, `agent names in src/session/:\n${offenders.join("\n")}`);
});

Deno.test("outside adapters/ no module loads one agent's adapter, channel or headless parser", () => {
  // adapters/<agent>…ts, adapters/channels/<agent>…ts, adapters/headless/<agent>…ts
  const agentModule = (path: string) =>
    !relative(join(REPO_DIR, "adapters"), path).startsWith("..") && _agentOf(path) !== null;
  const offenders = [..._modules("src"), join(REPO_DIR, "mod.ts")].flatMap((file) =>
    _imports(file).filter(agentModule).map((t) =>
      `${relative(REPO_DIR, file)} → ${relative(REPO_DIR, t)}`
    )
  );
  assert(
    offenders.length === 0,
    `agent modules loaded outside adapters/:\n${offenders.join("\n")}`,
  );
});

Deno.test("every agent's structured channel is reached through the adapter registry", () => {
  // adapters/channels/<agent>…ts; what every channel shares (the relay) is not one agent's.
  const channels = _modules("adapters/channels").filter((f) => _agentOf(f) !== null);
  assert(channels.length >= 2, "adapters/channels/ was found");
  const reached = new Set<string>();
  const todo = [join(REPO_DIR, "adapters", "registry.ts")];
  while (todo.length) {
    const file = todo.pop()!;
    if (reached.has(file) || !file.endsWith(".ts")) continue;
    reached.add(file);
    todo.push(..._imports(file));
  }
  const loose = channels.filter((f) => !reached.has(f)).map((f) => relative(REPO_DIR, f));
  assert(loose.length === 0, `channel modules no adapter uses:\n${loose.join("\n")}`);
});
