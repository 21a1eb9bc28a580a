/**
 * Every agent uuldana knows, in the order `uuldana agents` lists them.
 *
 * @module
 */
import type { Adapter } from "./adapter.ts";
import { aider } from "./aider.ts";
import { auggie } from "./auggie.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { copilot } from "./copilot.ts";
import { crush } from "./crush.ts";
import { gemini } from "./gemini.ts";
import { kilo } from "./kilo.ts";
import { opencode } from "./opencode.ts";
import { pi } from "./pi.ts";
import { qwen } from "./qwen.ts";

/** All adapters: the fully supported ones first, then the ones their CLIs limit. */
export const ADAPTERS: readonly Adapter[] = Object.freeze([
  claude,
  codex,
  gemini,
  opencode,
  qwen,
  copilot,
  kilo,
  pi,
  auggie,
  crush,
  aider,
]);

/** The adapter called `name`, or undefined. */
export function adapterByName(name: string): Adapter | undefined {
  return ADAPTERS.find((a) => a.name === name);
}

/** The names of all adapters, in registry order. */
export function adapterNames(): string[] {
  return ADAPTERS.map((a) => a.name);
}
