import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { scriptOutput, timedBytes } from "./script_log.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

Deno.test("a real script log loses its header and trailer, keeps the output", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const r = new Deno.Command("script", {
      args: [
        "-q",
        "-f",
        "-E",
        "never",
        "-O",
        `${dir}/log`,
        "-T",
        `${dir}/timing`,
        "-c",
        "printf 'a\\nb\\033[0m'",
      ],
      stdin: "null",
      stdout: "null",
    }).outputSync();
    assertEquals(r.code, 0);
    const timing = Deno.readTextFileSync(`${dir}/timing`);
    const out = scriptOutput(Deno.readFileSync(`${dir}/log`), timing);
    assertEquals(dec.decode(out), "a\r\nb\x1b[0m");
    assertEquals(timedBytes(timing), out.length);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("bytes without a header are already output; a short log is refused", () => {
  const raw = enc.encode("plain");
  assertEquals(scriptOutput(raw, "0 5\n"), raw);
  throws(() => scriptOutput(enc.encode("Script started on x\nab"), "0 5\n"), RangeError);
});
