/**
 * The version of this build, from deno.json.
 *
 * @module
 */
import denoJson from "../../deno.json" with { type: "json" };

/** The version of this build. */
export const VERSION: string = denoJson.version;
