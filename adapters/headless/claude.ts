/**
 * Claude Code headless: `claude -p --output-format stream-json --verbose [args] -- PROMPT`
 * (PROVIDERS.md §1.4; recorded in corpus/headless/claude-*.jsonl). With `-p` and no prompt
 * argument Claude reads the prompt from stdin [from docs], used when the prompt is too long for
 * one argument.
 *
 * @module
 */
import { fitsInArgument, type HeadlessAdapter } from "./event.ts";
import { claudeStreamParser } from "./claude_stream.ts";

/** Claude Code's structured mode. */
export const claudeHeadless: HeadlessAdapter = {
  name: "claude",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "-p", "--output-format", "stream-json", "--verbose", ...extraArgs];
    return !keepOutOfArgv && fitsInArgument(prompt)
      ? { argv: [...base, "--", prompt], stdin: null }
      : { argv: base, stdin: prompt };
  },
  newParser: () => claudeStreamParser({ agent: "claude" }),
};
