/**
 * The JSON Schema (draft 2020-12) of a {@link Spec}: what editors use to complete and check a
 * settings file. Made from the same description the validator checks against.
 *
 * @module
 */
import { IGNORED_KEYS, type Spec } from "./spec.ts";

/** A JSON Schema document. */
export type JsonSchema = Record<string, unknown>;

/** The schema of one described value. */
function schemaOf(spec: Spec): JsonSchema {
  const base: JsonSchema = { description: spec.description };
  switch (spec.type) {
    case "string":
      return { ...base, type: "string", ...(spec.nonEmpty ? { minLength: 1 } : {}) };
    case "number":
      return {
        ...base,
        type: "number",
        ...(spec.above !== undefined ? { exclusiveMinimum: spec.above } : {}),
        ...(spec.min !== undefined ? { minimum: spec.min } : {}),
        ...(spec.max !== undefined ? { maximum: spec.max } : {}),
        ...(spec.default !== undefined ? { default: spec.default } : {}),
      };
    case "boolean":
      return {
        ...base,
        type: "boolean",
        ...(spec.default !== undefined ? { default: spec.default } : {}),
      };
    case "enum":
      return { ...base, enum: [...spec.values] };
    case "strings":
      return {
        ...base,
        type: "array",
        items: { type: "string", ...(spec.nonEmptyItems ? { minLength: 1 } : {}) },
        ...(spec.default !== undefined ? { default: [...spec.default] } : {}),
      };
    case "stringMap":
      return {
        ...base,
        type: "object",
        additionalProperties: { type: "string" },
        ...(spec.default !== undefined ? { default: { ...spec.default } } : {}),
      };
    case "object":
      return {
        ...base,
        type: "object",
        properties: {
          ...Object.fromEntries(
            IGNORED_KEYS.map((
              k,
            ) => [k, { description: "The schema of this file, for editors.", type: "string" }]),
          ),
          ...Object.fromEntries(Object.entries(spec.properties).map(([k, v]) => [k, schemaOf(v)])),
        },
        ...(spec.required?.length ? { required: [...spec.required] } : {}),
        additionalProperties: false,
      };
    case "map":
      return {
        ...base,
        type: "object",
        additionalProperties: schemaOf(spec.values),
        ...(spec.default !== undefined ? { default: { ...spec.default } } : {}),
      };
  }
}

/** The whole schema document for a settings file described by `spec`. */
export function jsonSchema(spec: Spec, opts: { id?: string; title: string }): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    ...(opts.id ? { $id: opts.id } : {}),
    title: opts.title,
    ...schemaOf(spec),
  };
}
