/**
 * Which release of an agent the real-agent matrix runs: npm's `latest`, by exact version, unless
 * its binary for this platform is not published (then the newest release that has one, said).
 * A release that asks for a newer Node than this machine's is run anyway and the mismatch said.
 * The decisions are pure (`chooseRelease`); `resolveRelease` asks npm through a function the
 * caller passes, so the rules are tested without the registry.
 *
 *   const release = await resolveRelease(spec, npmView, "20.20.2");
 *
 * @module
 */

/** How an agent is published (from agents.json). */
export interface PublishedAs {
  /** The npm package users install (`@kilocode/cli`). */
  package: string;
  /**
   * The package holding the binary for linux-x64 (`@kilocode/cli-linux-x64`) when the agent ships
   * one per platform as an optional dependency; with `binaryOnly` it is what gets installed.
   */
  binaryPackage?: string;
  /** Install `binaryPackage` itself (the main package's own release has no binary for here). */
  binaryOnly?: boolean;
}

/** What npm says about the package (`npm view PKG@VERSION … --json`). */
export interface PackageView {
  version: string;
  engines?: { node?: string };
  optionalDependencies?: Record<string, string>;
}

/** The release the matrix runs, and what to say about it. */
export interface Release {
  /** What to install: `PKG@VERSION` (exact). */
  spec: string;
  /** The version that runs. */
  version: string;
  /** npm's `latest` of the package users install. */
  latest: string;
  /** Why `version` is not `latest`, when it is not. */
  notLatest?: string;
  /** The Node range the release declares when this machine's Node is outside it. */
  needsNode?: string;
}

/** Dotted numeric parts of a version (`2.1.332` → [2, 1, 332]); a pre-release tag is ignored. */
export function versionParts(v: string): number[] {
  return v.replace(/^v/, "").split(/[-+]/)[0].split(".").map((p) => Number(p) || 0);
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Whether Node `node` (`20.20.2`) satisfies an engines range of the forms npm packages use here:
 * `>=22`, `>=20.6.0`, `^20 || >=22`, `>=18 <23`. A form it cannot read counts as satisfied.
 */
export function satisfiesNode(range: string, node: string): boolean {
  return range.split("||").some((alt) =>
    alt.trim().split(/\s+/).filter(Boolean).every((term) => {
      const m = /^(>=|<=|>|<|\^|~|=)?v?(\d+(?:\.\d+){0,2})(?:\.x)?$/.exec(term);
      if (!m) return true;
      const c = compareVersions(node, m[2]);
      const [major] = versionParts(m[2]);
      switch (m[1]) {
        case ">=":
          return c >= 0;
        case ">":
          return c > 0;
        case "<=":
          return c <= 0;
        case "<":
          return c < 0;
        case "^":
          return c >= 0 && versionParts(node)[0] === major;
        case "~":
          return c >= 0 && versionParts(node).slice(0, 2).join(".") ===
              versionParts(m[2]).slice(0, 2).join(".");
        default:
          return c === 0 || (m[2].split(".").length === 1 && versionParts(node)[0] === major);
      }
    })
  );
}

/** The version an optional-dependency spec pins (`7.8.1`, `npm:@openai/codex@0.171.0-linux-x64`). */
function _pinned(spec: string): { name: string | null; version: string } {
  const alias = /^npm:(@?[^@]+)@(.+)$/.exec(spec);
  return alias ? { name: alias[1], version: alias[2] } : { name: null, version: spec };
}

/**
 * The release to run, from what npm said: `latest` (the package's view at its latest), every
 * version of the package, and every version of its binary package (empty when it has none).
 * Pure.
 */
export function chooseRelease(
  pub: PublishedAs,
  latest: PackageView,
  versions: readonly string[],
  binaryVersions: readonly string[],
  node: string,
): Release {
  const stable = (v: string) => !/-/.test(v);
  const needs = (view: PackageView) =>
    view.engines?.node && !satisfiesNode(view.engines.node, node)
      ? { needsNode: view.engines.node }
      : {};
  if (pub.binaryOnly && pub.binaryPackage) {
    const newest = [...binaryVersions].filter(stable).sort(compareVersions).at(-1);
    if (!newest) throw new Error(`npm has no release of ${pub.binaryPackage}`);
    return {
      spec: `${pub.binaryPackage}@${newest}`,
      version: newest,
      latest: latest.version,
      ...(newest !== latest.version
        ? {
          notLatest: `${pub.package}@${latest.version} pins ${pub.binaryPackage}@${
            _pinned(latest.optionalDependencies?.[pub.binaryPackage] ?? latest.version).version
          }, which npm does not have; ${pub.binaryPackage}@${newest} is installed on its own`,
        }
        : {}),
      ...needs(latest),
    };
  }
  const dep = pub.binaryPackage ? latest.optionalDependencies?.[pub.binaryPackage] : undefined;
  if (!pub.binaryPackage || dep === undefined) {
    return {
      spec: `${pub.package}@${latest.version}`,
      version: latest.version,
      latest: latest.version,
      ...needs(latest),
    };
  }
  const want = _pinned(dep).version;
  if (binaryVersions.includes(want)) {
    return {
      spec: `${pub.package}@${latest.version}`,
      version: latest.version,
      latest: latest.version,
      ...needs(latest),
    };
  }
  // The binary package is versioned like the package (or as its alias `VERSION-linux-x64`).
  const suffix = want.startsWith(latest.version) ? want.slice(latest.version.length) : "";
  const has = new Set(binaryVersions);
  const usable = versions.filter((v) => stable(v) && has.has(v + suffix)).sort(compareVersions);
  const newest = usable.at(-1);
  if (!newest) {
    throw new Error(
      `npm latest ${pub.package}@${latest.version} needs ${pub.binaryPackage}@${want}, which is not published, and no release has its binary`,
    );
  }
  const binNewest = [...binaryVersions].filter(stable).sort(compareVersions).at(-1);
  return {
    spec: `${pub.package}@${newest}`,
    version: newest,
    latest: latest.version,
    notLatest:
      `npm latest ${latest.version} needs ${pub.binaryPackage}@${want}, which is not published (it stops at ${binNewest}); ${newest} is the newest release with its binary`,
  };
}

/** Runs `npm view ARGS --json` and returns the parsed answer (null when npm has nothing). */
export type NpmView = (args: string[]) => Promise<unknown>;

/** Asks npm (through `view`) and chooses the release to run on Node `node`. */
export async function resolveRelease(
  pub: PublishedAs,
  view: NpmView,
  node: string,
): Promise<Release> {
  const latest = await view([pub.package, "version", "engines", "optionalDependencies"]) as
    | PackageView
    | string
    | null;
  if (latest === null) throw new Error(`npm has no package ${pub.package}`);
  const head: PackageView = typeof latest === "string" ? { version: latest } : latest;
  if (!pub.binaryPackage) return chooseRelease(pub, head, [head.version], [], node);
  const dep = head.optionalDependencies?.[pub.binaryPackage];
  const binName = (dep && _pinned(dep).name) ?? pub.binaryPackage;
  const binVersions = _list(await view([binName, "versions"]));
  const pinned = dep ? _pinned(dep).version : head.version;
  const versions = pub.binaryOnly || binVersions.includes(pinned)
    ? [head.version]
    : _list(await view([pub.package, "versions"]));
  const release = chooseRelease(pub, head, versions, binVersions, node);
  if (release.version === head.version) return release;
  // An older release may declare another Node range: ask for the one that runs.
  const chosen = await view([`${pub.package}@${release.version}`, "version", "engines"]) as
    | PackageView
    | null;
  const range = chosen && typeof chosen === "object" ? chosen.engines?.node : undefined;
  const { needsNode: _, ...rest } = release;
  return range && !satisfiesNode(range, node) ? { ...rest, needsNode: range } : rest;
}

function _list(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
}
