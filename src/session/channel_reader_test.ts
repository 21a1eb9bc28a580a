import {
  deepStrictEqual as assertEquals,
  ok as assert,
  throws as assertThrows,
} from "node:assert/strict";
import {
  appendFileSync,
  existsSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { CHANNEL_INDEX } from "../../adapters/channel.ts";
import { RELAY_FILE, relayScript } from "../../adapters/channels/relay.ts";
import { ChannelReader, MAX_RECORDS_PER_LOOK } from "./channel_reader.ts";
import { openChannelDir } from "./channel_dir.ts";

const enc = new TextEncoder();

// Runs the real relay script as a hook does: `sh -c COMMAND` with the payload on stdin.
async function relay(
  command: string,
  payload: string | Uint8Array,
): Promise<{ code: number; out: string; ms: number }> {
  const t0 = performance.now();
  const child = new Deno.Command("/bin/sh", {
    args: ["-c", command],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(typeof payload === "string" ? enc.encode(payload) : payload).catch(() => {});
  await w.close().catch(() => {});
  const r = await child.output();
  const out = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
  return { code: r.code, out, ms: performance.now() - t0 };
}

const home = Deno.makeTempDirSync();

function channel(): { dir: string; command: (e: string) => string } {
  return openChannelDir(Deno.makeTempDirSync(), home);
}

Deno.test("the channel folder and the relay are private; the relay's command carries no text", () => {
  const ch = channel();
  assertEquals(statSync(ch.dir).mode & 0o777, 0o700);
  assertEquals(statSync(join(home, RELAY_FILE)).mode & 0o777, 0o700);
  const cmd = ch.command("UserPromptSubmit");
  assertEquals(cmd, `/bin/sh '${join(home, RELAY_FILE)}' '${ch.dir}' UserPromptSubmit`);
});

Deno.test("a relayed record reaches the reader once, in order, and its payload file is removed", async () => {
  const ch = channel();
  const reader = new ChannelReader(ch.dir);
  assertEquals(reader.look(), { records: [], drops: [], more: false });
  const r1 = await relay(ch.command("UserPromptSubmit"), '{"prompt":"fix the parser\\nplease"}');
  const r2 = await relay(ch.command("Stop"), '{"last_assistant_message":"done"}');
  assertEquals([r1.code, r1.out, r2.code, r2.out], [0, "", 0, ""]);
  assertEquals(statSync(join(ch.dir, CHANNEL_INDEX)).mode & 0o777, 0o600);
  const look = reader.look();
  assertEquals(look.records, [
    { name: "UserPromptSubmit", data: { prompt: "fix the parser\nplease" } },
    { name: "Stop", data: { last_assistant_message: "done" } },
  ]);
  assertEquals(look.drops, []);
  assertEquals(readdirSync(ch.dir), [CHANNEL_INDEX]);
  assertEquals(reader.look().records, []);
});

Deno.test("many hooks at once, with big payloads, never interleave or lose a record", async () => {
  const ch = channel();
  const reader = new ChannelReader(ch.dir);
  const n = 60;
  // Every third payload is 300 KiB: far more than a pipe or a single write carries.
  const payloads = Array.from(
    { length: n },
    (_, i) => JSON.stringify({ i, text: (i % 3 === 0 ? "x".repeat(300 * 1024) : "short ") + i }),
  );
  const results = await Promise.all(payloads.map((p) => relay(ch.command("Stop"), p)));
  assert(results.every((r) => r.code === 0 && r.out === ""));
  const got: unknown[] = [];
  for (let looks = 0; looks < 10 && got.length < n; looks++) {
    const look = reader.look();
    assertEquals(look.drops, []);
    got.push(...look.records.map((r) => r.data));
  }
  assertEquals(got.length, n);
  const byIndex = new Map(got.map((d) => [(d as { i: number }).i, d]));
  for (const [i, p] of payloads.entries()) assertEquals(byIndex.get(i), JSON.parse(p));
});

Deno.test("with the run's folder gone, the relay drains its stdin, exits 0 and prints nothing", async () => {
  const ch = channel();
  rmSync(ch.dir, { recursive: true });
  const r = await relay(ch.command("Stop"), "x".repeat(200_000));
  assertEquals([r.code, r.out], [0, ""]);
  assert(!existsSync(ch.dir));
});

Deno.test("a bad event name or a relative folder is not recorded", async () => {
  const ch = channel();
  const bad = ch.command("Stop").replace(/Stop$/, "'a b/../x'");
  const relative = ch.command("Stop").replace(/'[^']*' Stop$/, "channel Stop");
  for (const cmd of [bad, relative]) {
    const r = await relay(cmd, "{}");
    assertEquals([r.code, r.out], [0, ""]);
  }
  assert(!existsSync(join(ch.dir, CHANNEL_INDEX)));
  assertThrows(() => ch.command("Stop; rm -rf ~"));
});

Deno.test("a relay being replaced is never read half-written; an unchanged one is left alone", () => {
  const before = statSync(join(home, RELAY_FILE)).mtimeMs;
  channel();
  assertEquals(statSync(join(home, RELAY_FILE)).mtimeMs, before);
  writeFileSync(join(home, RELAY_FILE), "# an older relay\n");
  channel();
  assertEquals(Deno.readTextFileSync(join(home, RELAY_FILE)), relayScript());
  assertEquals(readdirSync(home), [RELAY_FILE]);
});

Deno.test("where the data directory refuses the relay, it goes into the run's scratch", () => {
  const scratch = Deno.makeTempDirSync();
  const ch = openChannelDir(scratch, join(scratch, "no", "such", "dir"));
  assert(ch.command("Stop").startsWith(`/bin/sh '${join(scratch, RELAY_FILE)}'`));
});

Deno.test("malformed, oversized, missing and forged records are dropped and said", async () => {
  const ch = channel();
  const reader = new ChannelReader(ch.dir, { maxRecord: 1000 });
  await relay(ch.command("Stop"), "not json");
  await relay(ch.command("Stop"), JSON.stringify({ big: "y".repeat(2000) }));
  const index = join(ch.dir, CHANNEL_INDEX);
  appendFileSync(index, "Stop r.999999.0\n"); // names a payload that is not there
  appendFileSync(index, "Stop ../../etc/passwd\n"); // a path, not a file of the folder
  appendFileSync(index, "just garbage\n");
  symlinkSync("/etc/hostname", join(ch.dir, "r.7.0"));
  appendFileSync(index, "Stop r.7.0\n"); // a link, not a plain file
  appendFileSync(index, "z".repeat(5000) + "\n"); // a line far too long
  await relay(ch.command("SessionEnd"), '{"reason":"exit"}');
  const look = reader.look();
  assertEquals(look.records, [{ name: "SessionEnd", data: { reason: "exit" } }]);
  assertEquals(look.drops.map((d) => d.reason), [
    "malformed",
    "oversized",
    "missing",
    "malformed",
    "malformed",
    "missing",
    "malformed",
  ]);
  assertEquals(readdirSync(ch.dir), [CHANNEL_INDEX]);
});

Deno.test("a look is bounded: a flood of records is read over several looks, in order", () => {
  const ch = channel();
  const reader = new ChannelReader(ch.dir);
  const n = MAX_RECORDS_PER_LOOK * 2 + 5;
  let index = "";
  for (let i = 0; i < n; i++) {
    writeFileSync(join(ch.dir, `r.1.${i}`), JSON.stringify({ i }));
    index += `Stop r.1.${i}\n`;
  }
  writeFileSync(join(ch.dir, CHANNEL_INDEX), index);
  const seen: number[] = [];
  let looks = 0;
  for (;;) {
    const look = reader.look();
    looks++;
    assert(look.records.length <= MAX_RECORDS_PER_LOOK);
    seen.push(...look.records.map((r) => (r.data as { i: number }).i));
    if (!look.more) break;
  }
  assertEquals(seen, Array.from({ length: n }, (_, i) => i));
  assertEquals(looks, 3);
});

Deno.test("an index line written in two parts is read once whole", () => {
  const ch = channel();
  const reader = new ChannelReader(ch.dir);
  writeFileSync(join(ch.dir, "r.5.0"), '{"a":1}');
  const index = join(ch.dir, CHANNEL_INDEX);
  writeFileSync(index, "Sto");
  assertEquals(reader.look().records, []);
  appendFileSync(index, "p r.5.0\n");
  assertEquals(reader.look().records, [{ name: "Stop", data: { a: 1 } }]);
});
