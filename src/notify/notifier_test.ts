import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { join } from "node:path";
import { Notifier } from "./notifier.ts";
import type { NotifyConfig } from "../config/config.ts";

const sw = { kind: "switch", from: "claude", to: "codex", why: "limit" } as const;

function notifier(config: Partial<NotifyConfig>, timeoutMs?: number) {
  const written: string[] = [];
  const status: string[] = [];
  const n = new Notifier({
    config: { bell: true, desktop: true, command: null, ...config },
    terminal: (t) => written.push(t),
    status: (l) => status.push(l),
    env: () => undefined,
    timeoutMs,
  });
  return { n, written, status };
}

Deno.test("the notify command gets the event as JSON on stdin", async () => {
  const out = join(Deno.makeTempDirSync(), "event.json");
  const { n, written, status } = notifier({ command: ["sh", "-c", `cat > ${out}`] });
  n.notify(sw);
  await n.settled();
  const event = JSON.parse(Deno.readTextFileSync(out));
  assertEquals([event.kind, event.from, event.to, event.text], [
    "switch",
    "claude",
    "codex",
    "claude → codex: limit",
  ]);
  assertEquals(written.length, 1);
  assertEquals(status, []);
});

Deno.test("a failing command is reported once; a slow one is stopped; keys never wait", async () => {
  const failing = notifier({ command: ["false"] });
  failing.n.notify(sw);
  failing.n.notify(sw);
  await failing.n.settled();
  assertEquals(failing.status.length, 1);
  assertMatch(failing.status[0], /the notify command "false" failed \(it exited with code 1\)/);

  const slow = notifier({ command: ["sleep", "30"] }, 300);
  const started = performance.now();
  slow.n.notify(sw);
  assertEquals(performance.now() - started < 100, true, "notify returns at once");
  await slow.n.settled();
  assertEquals(performance.now() - started < 5_000, true);
  assertMatch(slow.status[0], /ran longer than 0.3 s and was stopped/);

  const missing = notifier({ command: ["/nonexistent/notify"] });
  missing.n.notify(sw);
  await missing.n.settled();
  assertEquals(missing.status.length, 1);
});

Deno.test("off switches: no bell, no desktop, no terminal at all", () => {
  const off = notifier({ bell: false, desktop: false });
  off.n.notify(sw);
  assertEquals(off.written, []);
  const quiet = new Notifier({
    config: { bell: true, desktop: true, command: null },
    terminal: null, // stdout is not a terminal
    status: () => {},
  });
  quiet.notify(sw); // nothing to write to, nothing thrown
});
