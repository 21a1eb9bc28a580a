/**
 * The files of an installed agent package that the miner reads: its JS bundles, its native or
 * Bun-compiled binaries and addons, and the files of a package tarball shipped inside a binary,
 * each named by its path inside the install folder. Which folders belong to an agent is data
 * (`agents.json`).
 *
 * @module
 */
import { embeddedFiles } from "./embedded_archives.ts";
import type { SourceKind } from "./candidates.ts";
import type { FillMarker } from "./raw_strings.ts";

/** Where an agent's shipped code lives inside `NAME@VERSION/`. */
export interface AgentLayout {
  /** The npm package users install. */
  package: string;
  /** Folders (relative to the install folder) whose files are mined. */
  roots: string[];
  /** Path fragments of files not to mine (resources, bundled third-party tools). */
  skip?: string[];
  /** Paths inside a binary's embedded package tarball to mine instead of the binary's own text. */
  embedded?: string[];
  /** The byte its binaries' format strings mark a fill with (Copilot's runtime: 192, 0xC0). */
  fillMarker?: FillMarker;
}

/** One file to mine. */
export interface Source {
  /** Its path inside the install folder (or `binary → path inside its archive`). */
  file: string;
  kind: SourceKind;
  bytes: Uint8Array;
  /** The layout's fill marker, for a binary. */
  fill?: FillMarker;
}

const JS = /\.(?:js|mjs|cjs)$/;

function kindOf(name: string, head: Uint8Array): SourceKind | null {
  if (/\.(?:map|d\.ts)$/.test(name)) return null;
  if (JS.test(name)) return "js";
  const elf = head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46;
  return elf ? "binary" : null;
}

async function* walk(dir: string): AsyncGenerator<string> {
  let entries: Deno.DirEntry[];
  try {
    entries = [];
    for await (const e of Deno.readDir(dir)) entries.push(e);
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* walk(path);
    else if (e.isFile) yield path;
  }
}

async function head(path: string): Promise<Uint8Array> {
  const f = await Deno.open(path);
  try {
    const buf = new Uint8Array(4);
    await f.read(buf);
    return buf;
  } finally {
    f.close();
  }
}

/**
 * Calls `use` with each file of the agent installed at `installDir` (one at a time, so only one
 * large binary is in memory). Hard links (Claude's two copies of its binary) are read once.
 */
export async function forEachSource(
  installDir: string,
  layout: AgentLayout,
  use: (source: Source) => void,
): Promise<void> {
  const seen = new Set<string>();
  for (const root of layout.roots) {
    for await (const path of walk(`${installDir}/${root}`)) {
      const file = path.slice(installDir.length + 1);
      if (layout.skip?.some((s) => file.includes(s))) continue;
      const kind = kindOf(file, await head(path));
      if (!kind) continue;
      const stat = await Deno.stat(path);
      const id = `${stat.dev}:${stat.ino}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const bytes = await Deno.readFile(path);
      if (kind === "binary" && layout.embedded) {
        for (const inner of embeddedFiles(bytes)) {
          if (!layout.embedded.some((e) => inner.name === e)) continue;
          const innerKind = JS.test(inner.name) ? "js" : "binary";
          use({
            file: `${file} → ${inner.name}`,
            kind: innerKind,
            bytes: inner.bytes,
            fill: layout.fillMarker,
          });
        }
        continue;
      }
      use({ file, kind, bytes, fill: layout.fillMarker });
    }
  }
}
