/**
 * Reading one JSON line defensively: anything that is not a JSON object becomes a `malformed`
 * event, and field access never throws on unexpected shapes.
 *
 * @module
 */
import type { HeadlessEvent, HeadlessParser, MalformedEvent } from "./event.ts";

/** A parsed JSON object. */
export type JsonObject = Record<string, unknown>;

/** Longest excerpt of a malformed line kept in the event. */
const _EXCERPT = 500;

/** The outcome of reading one line. */
export type JsonLine =
  | { kind: "blank" }
  | { kind: "object"; value: JsonObject }
  | MalformedEvent;

/** Parses a line as a JSON object; anything else is a malformed event with an excerpt. */
export function parseJsonLine(line: string): JsonLine {
  const trimmed = line.trim();
  if (trimmed === "") return { kind: "blank" };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (e) {
    return { kind: "malformed", line: trimmed.slice(0, _EXCERPT), reason: (e as Error).message };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { kind: "malformed", line: trimmed.slice(0, _EXCERPT), reason: "not a JSON object" };
  }
  return { kind: "object", value: value as JsonObject };
}

/** `v` as an object, or an empty one. */
export function obj(v: unknown): JsonObject {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v as JsonObject : {};
}

/** `v` as an array, or an empty one. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `v` as a string, or "" (numbers and booleans are stringified). */
export function str(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return "";
}

/** A one-line, bounded rendering of tool input for a summary. */
export function brief(v: unknown, max = 120): string {
  let s: string;
  if (typeof v === "string") s = v;
  else {
    try {
      s = JSON.stringify(v) ?? "";
    } catch {
      s = "";
    }
  }
  s = s.replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * A parser for streams whose every line stands alone: blank lines are skipped, malformed ones
 * reported, objects turned into events by `toEvents`.
 */
export function perLineParser(toEvents: (value: JsonObject) => HeadlessEvent[]): HeadlessParser {
  return {
    parse(line: string): HeadlessEvent[] {
      const parsed = parseJsonLine(line);
      if (parsed.kind === "blank") return [];
      if (parsed.kind === "malformed") return [parsed];
      return toEvents(parsed.value);
    },
    finish: () => [],
  };
}
