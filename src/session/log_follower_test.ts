import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { appendFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOG_MAX_LINE, LOG_MAX_READ, LogFollower } from "./log_follower.ts";

function withDir(fn: (dir: string) => void): void {
  const dir = Deno.makeTempDirSync({ prefix: "log-follower-" });
  try {
    fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("the follower reads each appended line once, and a partial line once it is complete", () => {
  withDir((dir) => {
    const file = join(dir, "agent.log");
    const f = new LogFollower(file);
    assertEquals(f.look(), { lines: [], more: false }, "no file yet");
    writeFileSync(file, "[t] [WARN] one\n[t] [WARN] tw");
    assertEquals(f.look().lines, ["[t] [WARN] one"]);
    appendFileSync(file, "o\n");
    assertEquals(f.look().lines, ["[t] [WARN] two"]);
    assertEquals(f.look().lines, []);
    f.close();
  });
});

Deno.test("a look is bounded; a long line is cut; the file is emptied past its cap", () => {
  withDir((dir) => {
    const file = join(dir, "agent.log");
    const f = new LogFollower(file, { maxFile: 100_000 });
    writeFileSync(file, ("x".repeat(99) + "\n").repeat(1500)); // 150,000 bytes
    const first = f.look();
    assert(first.more && first.lines.length <= LOG_MAX_READ / 100 + 1);
    let lines = first.lines.length;
    for (let i = 0; i < 10; i++) lines += f.look().lines.length;
    assertEquals(lines, 1500);
    // Past its 100,000-byte cap, once read, the file was emptied; what comes next is read from
    // its start.
    assertEquals(statSync(file).size, 0);
    appendFileSync(file, "y".repeat(LOG_MAX_LINE * 3) + "\nafter\n");
    let got: string[] = [];
    for (let i = 0; i < 10; i++) got = got.concat(f.look().lines);
    assertEquals(got.map((l) => l.length), [LOG_MAX_LINE, 5]);
    f.close();
  });
});

Deno.test("a link is never followed", () => {
  withDir((dir) => {
    writeFileSync(join(dir, "secret"), "not yours\n");
    symlinkSync(join(dir, "secret"), join(dir, "agent.log"));
    assertEquals(new LogFollower(join(dir, "agent.log")).look().lines, []);
  });
});
