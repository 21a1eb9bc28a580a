/**
 * The config's JSON Schema document, as `uuldana config schema` prints it and the repository ships
 * it (`config.schema.json`).
 *
 * @module
 */
import { CONFIG_SPEC } from "./config.ts";
import { jsonSchema } from "./json_schema.ts";

/** The schema's text (two-space JSON, final newline). */
export function configSchemaText(): string {
  return JSON.stringify(jsonSchema(CONFIG_SPEC, { title: "uuldana config" }), null, 2) + "\n";
}
