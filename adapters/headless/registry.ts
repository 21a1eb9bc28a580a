/**
 * Headless adapters by agent name.
 *
 * @module
 */
import type { HeadlessAdapter } from "./event.ts";
import { claudeHeadless } from "./claude.ts";
import { codexHeadless } from "./codex.ts";
import { geminiHeadless } from "./gemini.ts";
import { opencodeHeadless } from "./opencode.ts";
import { qwenHeadless } from "./qwen.ts";
import { copilotHeadless } from "./copilot.ts";

export type { HeadlessAdapter, HeadlessEvent, HeadlessLaunch, HeadlessParser } from "./event.ts";
export { LineSplitter } from "./lines.ts";

/** Every agent with a structured (JSON lines) mode, in the default chain's order. */
export const HEADLESS_ADAPTERS: readonly HeadlessAdapter[] = [
  claudeHeadless,
  codexHeadless,
  geminiHeadless,
  opencodeHeadless,
  qwenHeadless,
  copilotHeadless,
];

/** The headless adapter for an agent name, or null when that agent has no structured mode. */
export function headlessAdapter(name: string): HeadlessAdapter | null {
  return HEADLESS_ADAPTERS.find((a) => a.name === name) ?? null;
}
