/**
 * Handoffs: the package a run recorded, composed into framed, sanitised, redacted text for a
 * delivery road, and the private file that holds the full text. Everything here is pure except
 * `workspace.ts` (runs git) and `file.ts` (writes the handoff file).
 *
 * @module
 */
export * from "./package.ts";
export * from "./compose.ts";
export * from "./frame.ts";
export * from "./sanitize.ts";
export * from "./redact.ts";
export * from "./workspace.ts";
export * from "./file.ts";
