/**
 * Qwen Code headless: `qwen -o stream-json [args] PROMPT` (positional is one-shot; `-p` is
 * deprecated). Its stream-json follows Claude's event format (`system`, `assistant`, `user`,
 * `result`) [from docs; not recorded in the corpus]. `-p` text is appended to stdin input, so a
 * prompt too long for one argument goes on stdin with a short `-p` pointing at it.
 *
 * @module
 */
import { fitsInArgument, type HeadlessAdapter, STDIN_FOLLOW_UP } from "./event.ts";
import { claudeStreamParser } from "./claude_stream.ts";

/** Qwen Code's structured mode. */
export const qwenHeadless: HeadlessAdapter = {
  name: "qwen",
  promptViaStdin: true,
  launch(bin, prompt, extraArgs, keepOutOfArgv = false) {
    const base = [bin, "-o", "stream-json", ...extraArgs];
    return !keepOutOfArgv && fitsInArgument(prompt)
      ? { argv: [...base, prompt], stdin: null }
      : { argv: [...base, "-p", STDIN_FOLLOW_UP], stdin: prompt };
  },
  newParser: () => claudeStreamParser({ agent: "qwen" }),
};
