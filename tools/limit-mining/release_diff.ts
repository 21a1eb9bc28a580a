/**
 * What changed in a release, for the person who classifies it: its candidates against the previous
 * release's (new, changed, removed), and the classified messages of `adapters/limits/<agent>.json`
 * against the release (still shipped, changed wording, no longer shipped).
 *
 * @module
 */
import type { Candidate } from "./candidates.ts";

/** A classified message as far as the diff needs it (the shared format, adapters/limits). */
export interface DataMessage {
  id: string;
  class: string;
  template: string;
  match: string;
  matchFlags?: string;
  source?: { reported?: string; code?: string };
  versions?: string[];
}

/** One text that changed wording between two releases. */
export interface Changed {
  before: string;
  after: string;
}

/** The candidates of two releases compared. */
export interface ReleaseDiff {
  added: string[];
  changed: Changed[];
  removed: string[];
}

/** The classified messages compared with a release's candidates. */
export interface DataDiff {
  /** Messages whose template the release no longer ships, with the candidate that matches instead. */
  changed: { id: string; template: string; now: string }[];
  /** Messages the release neither ships nor matches (and no user reported). */
  removed: { id: string; template: string }[];
  /** Candidates no message's template or match covers. */
  unclassified: string[];
}

/** A text with its fills blanked, so `${H}` and `${time}` compare equal. */
export function shape(text: string): string {
  return text.replace(/\$\{[^}]*\}/g, "${}").replace(/[’‘]/g, "'").trim();
}

function words(text: string): Set<string> {
  return new Set(shape(text).toLowerCase().split(/[^a-z0-9%$']+/).filter((w) => w.length > 1));
}

/** How alike two texts are: shared words over all words (0–1). */
export function likeness(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  const all = wa.size + wb.size - shared;
  return all === 0 ? 0 : shared / all;
}

const ALIKE = 0.6;

/** Compares a release's candidate texts with the previous release's. */
export function diffReleases(previous: readonly string[], current: readonly string[]): ReleaseDiff {
  const before = new Set(previous.map(shape));
  const after = new Set(current.map(shape));
  const added = current.filter((t) => !before.has(shape(t)));
  let removed = previous.filter((t) => !after.has(shape(t)));
  const changed: Changed[] = [];
  const stillAdded: string[] = [];
  for (const t of added) {
    let best = -1;
    let score = ALIKE;
    removed.forEach((r, i) => {
      const s = likeness(r, t);
      if (s >= score) [best, score] = [i, s];
    });
    if (best < 0) stillAdded.push(t);
    else {
      changed.push({ before: removed[best], after: t });
      removed = removed.filter((_, i) => i !== best);
    }
  }
  return { added: stillAdded, changed, removed };
}

function matcher(m: DataMessage): RegExp | null {
  try {
    return new RegExp(m.match, m.matchFlags ?? "");
  } catch {
    return null;
  }
}

/** How much of a literal's start to look for in a message's code (before any `\u2014` escape). */
const PREFIX = 24;

/**
 * True if `candidate` is the text `m` was classified from: the same shape as its template, matched
 * by its pattern, or the literal its source's code shows (templates name their fills for people,
 * `${time}`, where the release has `${H}`).
 */
function ships(m: DataMessage, re: RegExp | null, candidate: string): boolean {
  if (shape(candidate) === shape(m.template) || re?.test(candidate)) return true;
  const code = m.source?.code;
  return code !== undefined && candidate.length >= PREFIX &&
    code.includes(candidate.slice(0, PREFIX));
}

/**
 * Compares the classified messages with a release's candidates. A message whose `versions` name
 * `version` was classified from this release and ships (even when the topic words missed it).
 */
export function diffData(
  messages: readonly DataMessage[],
  candidates: readonly Candidate[],
  version?: string,
): DataDiff {
  const changed: DataDiff["changed"] = [];
  const removed: DataDiff["removed"] = [];
  const covered = new Set<string>();
  for (const m of messages) {
    const re = matcher(m);
    let shipped = false;
    for (const c of candidates) {
      if (!ships(m, re, c.text)) continue;
      covered.add(c.text);
      shipped = true;
    }
    if (shipped || m.source?.reported || (version && m.versions?.includes(version))) continue;
    const now = candidates.find((c) => likeness(c.text, m.template) >= ALIKE);
    if (now) changed.push({ id: m.id, template: m.template, now: now.text });
    else removed.push({ id: m.id, template: m.template });
  }
  const unclassified = candidates.map((c) => c.text).filter((t) => !covered.has(t));
  return { changed, removed, unclassified };
}
