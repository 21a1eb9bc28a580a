/**
 * A small declarative description of a JSON settings file, and its validator. One description
 * gives both the checks with their one-line messages (here) and the JSON Schema editors use
 * (`json_schema.ts`), so the two cannot drift apart.
 *
 * @module
 */

/** A described value. `expected` overrides the "must be …" wording of its error message. */
export type Spec =
  | { type: "string"; description: string; nonEmpty?: boolean; expected?: string }
  | {
    type: "number";
    description: string;
    /** Greater than this (0: a positive number). */
    above?: number;
    /** At least / at most these (inclusive). */
    min?: number;
    max?: number;
    /** What the number counts, named in messages ("seconds"). */
    unit?: string;
    default?: number;
    expected?: string;
  }
  | { type: "boolean"; description: string; default?: boolean; expected?: string }
  | { type: "enum"; description: string; values: readonly string[]; expected?: string }
  | {
    type: "strings";
    description: string;
    /** Items must be non-empty. */
    nonEmptyItems?: boolean;
    default?: readonly string[];
    expected?: string;
  }
  | {
    type: "stringMap";
    description: string;
    default?: Readonly<Record<string, string>>;
    expected?: string;
  }
  | {
    type: "object";
    description: string;
    properties: Record<string, Spec>;
    /** Keys that must be present. */
    required?: readonly string[];
    expected?: string;
  }
  | {
    type: "map";
    description: string;
    values: Spec;
    default?: Readonly<Record<string, never>>;
    expected?: string;
  };

/** Keys any object may carry and that mean nothing to us (`$schema` points editors at the schema). */
export const IGNORED_KEYS: readonly string[] = ["$schema"];

/** A validation failure: the dotted key, the wording of what it must be, and what it was. */
export class SpecError extends Error {
  constructor(
    readonly key: string,
    readonly expected: string,
    readonly got: string,
    /** For an unknown key: the keys that are known there. */
    readonly known?: readonly string[],
  ) {
    super(known ? `unknown key "${key}"` : `"${key}" must be ${expected}, got ${got}`);
  }
}

/** The JSON type name of a value, as messages say it. */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** What a value of `spec` must be, in the words of an error message. */
export function expectedOf(spec: Spec): string {
  if (spec.expected) return spec.expected;
  switch (spec.type) {
    case "string":
      return spec.nonEmpty ? "a non-empty string" : "a string";
    case "number":
      if (spec.min !== undefined && spec.max !== undefined) {
        return `a number from ${spec.min} to ${spec.max}${spec.unit ? ` (${spec.unit})` : ""}`;
      }
      if (spec.above === 0) return "a positive number";
      if (spec.above !== undefined) return `a number above ${spec.above}`;
      return "a number";
    case "boolean":
      return "true or false";
    case "enum":
      return `one of ${spec.values.map((v) => `"${v}"`).join(", ")}`;
    case "strings":
      return "an array of strings";
    case "stringMap":
      return "an object of string values";
    case "object":
    case "map":
      return "an object";
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return jsonTypeOf(v) === "object";
}

function fits(spec: Spec, v: unknown): boolean {
  switch (spec.type) {
    case "string":
      return typeof v === "string" && !(spec.nonEmpty && v === "");
    case "number":
      return typeof v === "number" && Number.isFinite(v) &&
        !(spec.above !== undefined && !(v > spec.above)) &&
        !(spec.min !== undefined && v < spec.min) && !(spec.max !== undefined && v > spec.max);
    case "boolean":
      return typeof v === "boolean";
    case "enum":
      return typeof v === "string" && spec.values.includes(v);
    case "strings":
      return Array.isArray(v) &&
        v.every((x) => typeof x === "string" && !(spec.nonEmptyItems && x === ""));
    case "stringMap":
      return isObject(v) && Object.values(v).every((x) => typeof x === "string");
    case "object":
    case "map":
      return isObject(v);
  }
}

/**
 * Checks `value` against `spec` and returns it with the defaults of absent keys filled in.
 * Throws {@link SpecError} for the first problem, naming its dotted key (`key` is the root's).
 */
export function validate(spec: Spec, value: unknown, key: string): unknown {
  if (!fits(spec, value)) {
    // A number out of range is shown as it was read (1e999 is Infinity), anything else by its type.
    const got = spec.type === "number" && typeof value === "number"
      ? String(value)
      : jsonTypeOf(value);
    throw new SpecError(key, expectedOf(spec), got);
  }
  const at = (k: string) => (key === "(top level)" ? k : `${key}.${k}`);
  if (spec.type === "object") {
    const obj = value as Record<string, unknown>;
    const known = Object.keys(spec.properties);
    for (const k of Object.keys(obj)) {
      if (!known.includes(k) && !IGNORED_KEYS.includes(k)) {
        throw new SpecError(at(k), "", "", known);
      }
    }
    const missing = spec.required?.find((k) => !(k in obj));
    if (missing !== undefined) {
      throw new SpecError(at(missing), expectedOf(spec.properties[missing]), "nothing");
    }
    const out: Record<string, unknown> = {};
    for (const [k, sub] of Object.entries(spec.properties)) {
      if (k in obj) out[k] = validate(sub, obj[k], at(k));
      else if ("default" in sub && sub.default !== undefined) out[k] = structuredClone(sub.default);
    }
    return out;
  }
  if (spec.type === "map") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = validate(spec.values, v, at(k));
    }
    return out;
  }
  return value;
}

/** The `[min, max]` of every number with both, by its key (the last part of its path). */
export function numberRanges(spec: Spec): Record<string, readonly [number, number]> {
  const out: Record<string, readonly [number, number]> = {};
  const visit = (s: Spec, key: string) => {
    if (s.type === "number" && s.min !== undefined && s.max !== undefined) {
      out[key] = [s.min, s.max];
    }
    if (s.type === "object") { for (const [k, sub] of Object.entries(s.properties)) visit(sub, k); }
    if (s.type === "map") visit(s.values, key);
  };
  visit(spec, "");
  return out;
}
