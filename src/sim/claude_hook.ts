/**
 * Claude Code's hooks as the simulated `claude` runs them (PROVIDERS.md §2.1; the payloads real
 * Claude 2.1.332 sends are in testdata/channels/): read `--settings` (inline JSON or a file) and
 * the user's own `~/.claude/settings.json`, whose hook arrays Claude concatenates; pick an event's
 * hooks (SessionStart's by the `startup` matcher), run each with the documented stdin JSON, and
 * take `hookSpecificOutput.additionalContext` (or plain stdout) as context.
 *
 * @module
 */

/** One hook command from the settings. */
export interface HookCommand {
  /** Shell command (run with `/bin/sh -c`), or the program when `args` is set. */
  command: string;
  /** Exec form: arguments, no shell. */
  args?: string[];
  /** Seconds before the hook is killed (Claude's default is 60). */
  timeout: number;
}

/** What one hook produced. */
export interface HookResult {
  command: string;
  exitCode: number;
  /** The context text the hook gave (empty when none or on failure). */
  additionalContext: string;
  stderr: string;
}

/** Claude's inline limit for hook context; above it the model gets a notice and a preview. */
export const HOOK_CONTEXT_LIMIT = 10_000;

/** Reads `--settings`: JSON text when it starts with `{`, else a file path. Throws on bad JSON. */
export function readSettings(value: string): unknown {
  const text = value.trimStart().startsWith("{") ? value : Deno.readTextFileSync(value);
  return JSON.parse(text);
}

/** The SessionStart hooks whose matcher accepts `source` (empty/absent/`*` match everything). */
export function sessionStartHooks(settings: unknown, source = "startup"): HookCommand[] {
  return eventHooks(settings, "SessionStart", source);
}

/**
 * The hooks of `event` in `settings`, in order; with `match` (SessionStart's source), only the
 * groups whose matcher accepts it (empty/absent/`*` match everything).
 */
export function eventHooks(settings: unknown, event: string, match?: string): HookCommand[] {
  const groups = (settings as { hooks?: Record<string, unknown> })?.hooks?.[event];
  if (!Array.isArray(groups)) return [];
  const out: HookCommand[] = [];
  for (const g of groups) {
    const matcher = typeof g?.matcher === "string" ? g.matcher : "";
    if (
      match !== undefined && matcher && matcher !== "*" &&
      !new RegExp(`^(?:${matcher})$`).test(match)
    ) continue;
    for (const h of Array.isArray(g?.hooks) ? g.hooks : []) {
      if (h?.type !== "command" || typeof h.command !== "string") continue;
      out.push({
        command: h.command,
        args: Array.isArray(h.args) ? h.args.map(String) : undefined,
        timeout: typeof h.timeout === "number" ? h.timeout : 60,
      });
    }
  }
  return out;
}

/** The context in a hook's stdout: the JSON `additionalContext`, or the plain text. */
export function contextFromStdout(stdout: string): string {
  const t = stdout.trim();
  if (!t) return "";
  try {
    const j = JSON.parse(t);
    const ctx = j?.hookSpecificOutput?.additionalContext;
    if (typeof ctx === "string") return ctx;
    if (j && typeof j === "object") return "";
  } catch {
    // not JSON: plain stdout is context
  }
  return t;
}

/** What the model receives for `context` (a notice with a preview when over the limit). */
export function modelContext(context: string): string {
  const n = [...context].length;
  if (n <= HOOK_CONTEXT_LIMIT) return `SessionStart hook additional context: ${context}`;
  const preview = [...context].slice(0, 2000).join("");
  return `<persisted-output>Output too large (${n} characters). Full output saved to a file.\n` +
    `Preview (first 2KB):\n${preview}\n...\n</persisted-output>`;
}

/** Runs one hook with the SessionStart stdin JSON. */
export async function runHook(
  hook: HookCommand,
  input: Record<string, unknown>,
  cwd: string,
): Promise<HookResult> {
  const cmd = hook.args
    ? new Deno.Command(hook.command, {
      args: hook.args,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    })
    : new Deno.Command("/bin/sh", {
      args: ["-c", hook.command],
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { CLAUDE_PROJECT_DIR: cwd },
    });
  let child: Deno.ChildProcess;
  try {
    child = cmd.spawn();
  } catch (e) {
    return { command: hook.command, exitCode: 127, additionalContext: "", stderr: String(e) };
  }
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(JSON.stringify(input))).catch(() => {});
  await w.close().catch(() => {});
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }, hook.timeout * 1000);
  const out = await child.output();
  clearTimeout(timer);
  const stdout = new TextDecoder().decode(out.stdout);
  return {
    command: hook.command,
    exitCode: out.code,
    additionalContext: out.code === 0 ? contextFromStdout(stdout) : "",
    stderr: new TextDecoder().decode(out.stderr),
  };
}
