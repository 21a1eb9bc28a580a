/**
 * The README stays a landing page (under 250 lines, no table cell over 200 characters), every
 * page of `docs/` is linked from it, and every relative link in the README and in `docs/`
 * resolves: the file exists and, for `#anchor` links into Markdown, a heading makes that anchor.
 * Its "Supported agents" table says what `adapters/tested_versions.json` and the adapters say.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { REPO_DIR } from "./_paths.ts";
import { ADAPTERS } from "../adapters/registry.ts";
import { TESTED_VERSIONS, testedState, type TestedVersions } from "../adapters/tested.ts";

/** The most lines the README may have. */
const README_MAX_LINES = 249;
/** The most characters a README table cell may hold. */
const CELL_MAX_CHARS = 200;

/** The cells of every table row of `markdown` (outside code blocks), with their line numbers. */
function tableCells(markdown: string): { line: number; cell: string }[] {
  const out: { line: number; cell: string }[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, i) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced || !/^\s*\|/.test(text)) return;
    // `\|` is a pipe inside a cell, not a border.
    const cells = text.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/);
    for (const cell of cells) out.push({ line: i + 1, cell: cell.trim() });
  });
  return out;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

/** The anchors the headings of `markdown` make (outside code blocks), GitHub's way. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const text of markdown.split("\n")) {
    if (/^\s*```/.test(text)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(text);
    if (!m) continue;
    const base = headingAnchor(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The targets of the Markdown links and images of `markdown`, outside code. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/**
 * What is wrong with the relative links of the Markdown file at `file` (inside `root`): a target
 * that does not exist, or an anchor no heading of the target makes. Web links are not followed.
 */
function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(file, "utf8");
  const problems: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path, anchor] = target.split("#", 2);
    const resolved = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
    const where = `${relative(root, file)}: (${target})`;
    if (!existsSync(resolved)) {
      problems.push(`${where} names a file that does not exist`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && statSync(resolved).isFile()) {
      if (!anchors(readFileSync(resolved, "utf8")).has(anchor)) {
        problems.push(`${where}: no heading of ${relative(root, resolved)} makes #${anchor}`);
      }
    }
  }
  return problems;
}

/** The Markdown pages of `docs/`, as paths relative to the repository. */
function docsPages(root: string): string[] {
  const dir = join(root, "docs");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`);
}

/** What keeps `root`'s README from being the landing page (limits, unlinked pages, bad links). */
function readmeProblems(root: string): string[] {
  const readmeFile = join(root, "README.md");
  const readme = readFileSync(readmeFile, "utf8");
  const problems: string[] = [];
  const lines = readme.replace(/\n$/, "").split("\n").length;
  if (lines > README_MAX_LINES) {
    problems.push(
      `README.md has ${lines} lines; a landing page keeps under 250 (move reference text to docs/)`,
    );
  }
  for (const { line, cell } of tableCells(readme)) {
    if ([...cell].length > CELL_MAX_CHARS) {
      problems.push(
        `README.md:${line}: a table cell of ${
          [...cell].length
        } characters (at most ${CELL_MAX_CHARS})`,
      );
    }
  }
  const linked = new Set(
    linkTargets(readme).map((t) => normalize(t.split("#")[0])).filter((t) => t !== "."),
  );
  for (const page of docsPages(root)) {
    if (!linked.has(page)) problems.push(`${page} is not linked from README.md`);
  }
  for (const file of [readmeFile, ...docsPages(root).map((p) => join(root, p))]) {
    problems.push(...brokenLinks(root, file));
  }
  return problems;
}

Deno.test("the README is a landing page: short, narrow cells, every docs/ page linked, every link resolves", () => {
  assert(docsPages(REPO_DIR).length > 0, "docs/ holds the reference pages");
  assertEquals(readmeProblems(REPO_DIR), []);
});

Deno.test("the README check finds a long README, a wide cell, an unlinked page and broken links", () => {
  const root = Deno.makeTempDirSync({ prefix: "uuldana-readme-" });
  try {
    Deno.mkdirSync(join(root, "docs"));
    Deno.writeTextFileSync(
      join(root, "docs", "a.md"),
      "# A page\n\n## Second part\n\n[back](../README.md)\n",
    );
    Deno.writeTextFileSync(
      join(root, "docs", "b.md"),
      "# B\n\n[gone](c.md) [bad anchor](a.md#third)\n",
    );
    const readme = [
      "# Title",
      "",
      "[A](docs/a.md#second-part) [site](https://example.com) `[not a link](nowhere.md)`",
      "",
      "| what | it |",
      "| --- | --- |",
      `| ${"x".repeat(201)} | ok \\| still one cell ${"y".repeat(170)} |`,
      ...Array.from({ length: 250 }, (_, i) => `line ${i}`),
    ].join("\n");
    Deno.writeTextFileSync(join(root, "README.md"), readme);
    assertEquals(readmeProblems(root), [
      "README.md has 257 lines; a landing page keeps under 250 (move reference text to docs/)",
      "README.md:7: a table cell of 201 characters (at most 200)",
      "docs/b.md is not linked from README.md",
      "docs/b.md: (c.md) names a file that does not exist",
      "docs/b.md: (a.md#third): no heading of docs/a.md makes #third",
    ]);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("heading anchors are GitHub's", () => {
  assertEquals(headingAnchor("PACKAGE.json for `debug compose`"), "packagejson-for-debug-compose");
  assertEquals(
    headingAnchor("What the frame is, and what it is not"),
    "what-the-frame-is-and-what-it-is-not",
  );
  assertEquals(headingAnchor("Limit detection (`adapters/`)"), "limit-detection-adapters");
});

/** The rows of the first table under the heading `## heading` of `markdown`, as trimmed cells. */
function sectionTable(markdown: string, heading: string): string[][] {
  const lines = markdown.split("\n");
  const at = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (at < 0) return [];
  const rows: string[][] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^#{1,2}\s/.test(line)) break;
    if (!/^\s*\|/.test(line)) {
      if (rows.length) break;
      continue;
    }
    rows.push(line.trim().replace(/^\||\|$/g, "").split(/(?<!\\)\|/).map((c) => c.trim()));
  }
  return rows.slice(2); // the header and its rule
}

/** The "tested for real" cell `tested_versions.json` makes for an agent. */
function testedCell(name: string, table: TestedVersions): string {
  const state = testedState(name, null, table);
  switch (state.kind) {
    case "unknown":
    case "tested":
      return state.date ? `${state.tested} (${state.date})` : state.tested;
    case "newer":
      return state.tested;
    case "neverPassed":
      return `none passed yet (${state.ran ?? "?"} ran ${state.date ?? "?"})`;
    case "notRun":
      return "not tested by uuldana";
  }
}

/**
 * What the README's "Supported agents" table gets wrong against the adapters (one row per
 * adapter, by its command; its channel; its roads, the default first) and the matrix's record.
 */
function agentTableProblems(readme: string, table: TestedVersions): string[] {
  const rows = sectionTable(readme, "Supported agents");
  const problems: string[] = [];
  const byCommand = new Map(rows.map((r) => [r[1]?.replace(/`/g, ""), r]));
  for (const a of ADAPTERS) {
    const row = byCommand.get(a.name);
    const want = [
      testedCell(a.name, table),
      a.channel
        ? a.channel.kind + (a.channel.telemetry ? " + telemetry" : "")
        : a.debugLog
        ? "debug log"
        : "none",
      [a.defaultRoad, ...a.roads.filter((r) => r !== a.defaultRoad)].join(", "),
    ];
    if (!row) {
      problems.push(`no row for \`${a.name}\` (${want.join(" | ")})`);
      continue;
    }
    const got = [row[2], row[3], row[4]];
    if (got.join(" | ") !== want.join(" | ")) {
      problems.push(`\`${a.name}\`: the row says ${got.join(" | ")}; want ${want.join(" | ")}`);
    }
  }
  for (const command of byCommand.keys()) {
    if (!ADAPTERS.some((a) => a.name === command)) problems.push(`\`${command}\` has no adapter`);
  }
  return problems;
}

Deno.test("the README's supported agents: the matrix's tested versions, each channel and road", () => {
  const readme = readFileSync(join(REPO_DIR, "README.md"), "utf8");
  assert(sectionTable(readme, "Supported agents").length >= ADAPTERS.length, "the table is there");
  assertEquals(agentTableProblems(readme, TESTED_VERSIONS), []);
});

Deno.test("the supported-agents check finds a stale version, a wrong channel, a missing row", () => {
  const readme = [
    "## Supported agents",
    "",
    "| agent | command | tested for real | channel | roads |",
    "| --- | --- | --- | --- | --- |",
    "| Codex | `codex` | 0.170.0 (2026-11-30) | hooks | prompt, paste |",
    "| Gemini | `gemini` | not tested by uuldana | hooks | prompt, paste |",
    "| Nobody | `nobody` | not tested by uuldana | none | paste |",
    "",
    "## Next",
  ].join("\n");
  const table: TestedVersions = {
    codex: { tested: "0.171.0", date: "2026-12-01" },
    gemini: { tested: null, cells: { sender: { version: "0.61.0", date: "2026-12-02" } } },
  };
  const problems = agentTableProblems(readme, table);
  assertEquals(problems.filter((p) => /^`(codex|gemini)`/.test(p)), [
    "`codex`: the row says 0.170.0 (2026-11-30) | hooks | prompt, paste; want 0.171.0 (2026-12-01) | hooks | prompt, paste",
    "`gemini`: the row says not tested by uuldana | hooks | prompt, paste; want none passed yet (0.61.0 ran 2026-12-02) | debug log | prompt, paste",
  ]);
  assert(
    problems.includes("no row for `claude` (not tested by uuldana | hooks | hook, prompt, paste)"),
  );
  assertEquals(problems.at(-1), "`nobody` has no adapter");
});
