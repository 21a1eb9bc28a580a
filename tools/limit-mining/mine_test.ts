import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import zlib from "node:zlib";
import { bytesOf } from "./_bytes_test_util.ts";
import { tarArchive } from "./_tar_test_util.ts";

const MINE = new URL("./mine.ts", import.meta.url).pathname;
const enc = new TextEncoder();

async function put(path: string, bytes: Uint8Array | string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeFile(path, typeof bytes === "string" ? enc.encode(bytes) : bytes);
}

async function mine(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const r = await new Deno.Command(Deno.execPath(), { args: ["run", "-A", MINE, ...args] })
    .output();
  return {
    code: r.code,
    out: new TextDecoder().decode(r.stdout),
    err: new TextDecoder().decode(r.stderr),
  };
}

interface Mined {
  version: string;
  files: string[];
  candidates: { text: string; file: string; offset: number; code: string }[];
}

const ELF = "\x7fELF\x02\x01\x01\x00";
const NUL = new Uint8Array(16);

Deno.test("one command mines JS, a Bun binary, a Rust binary and an embedded package", async () => {
  const dir = await Deno.makeTempDir({ prefix: "limit-mining-" });
  try {
    const agents = `${dir}/agents`;
    // pi: plain JS files.
    await put(
      `${agents}/pi@1.0.0/node_modules/@mariozechner/pi-ai/dist/codex.js`,
      "const m = `Try again in ~${mins} min.`; x = 'not a topic at all here';",
    );
    // claude: a Bun-compiled binary whose bundle escapes · and ’; the runtime's strings beside it.
    const bundle = "// @bun @bytecode @bun-cjs\n(function(exports){var a=[" +
      '"Your org is out of usage \\xB7 add funds to continue","You\\u2019ve hit your limit \\xB7 resets ${t}"];' +
      "function f(){return 1}".repeat(4000) + "})";
    await put(
      `${agents}/claude@2.0.0/node_modules/@anthropic-ai/claude-code/bin/claude.exe`,
      bytesOf(ELF, NUL, "Vec capacity overflow in the runtime", NUL, bundle, NUL),
    );
    // codex: Rust constants packed side by side.
    await put(
      `${agents}/codex@0.1.0/node_modules/@openai/codex-linux-x64/vendor/bin/codex`,
      bytesOf(
        ELF,
        NUL,
        "Implement this plan?You’re out of credits. Your workspace is out of credits.Request increase?",
        NUL,
      ),
    );
    // copilot: its package as a gzipped tarball inside a Node single executable.
    const tar = tarArchive({
      "package/cli-main.js":
        'log("You\\u2019ve reached your additional usage limit for your plan.")',
      "package/prebuilds/linux-x64/runtime.node": bytesOf(
        ELF,
        NUL,
        "You've used all your Copilot Free chat requests for the month.",
        [0xc0, 0x4d],
        " Upgrade your plan.",
        NUL,
      ),
      "package/plugins/other.js": 'x("rate limit reached in a plugin we do not ship to users")',
    });
    await put(
      `${agents}/copilot@1.0.0/node_modules/@github/copilot-linux-x64/copilot`,
      bytesOf(ELF, NUL, "NODE_SEA_BLOB", zlib.gzipSync(tar), "trailing bytes"),
    );
    const out = `${dir}/out`;
    const r = await mine("--agents-dir", agents, "--out", out, "--data", `${dir}/none`);
    assertEquals(r.code, 0, r.err);
    const read = async (name: string) =>
      JSON.parse(await Deno.readTextFile(`${out}/${name}.json`)) as Mined;
    const texts = async (name: string) => (await read(name)).candidates.map((c) => c.text);

    assertEquals(await texts("pi-1.0.0"), ["Try again in ~${mins} min."]);
    assertEquals(await texts("claude-2.0.0"), [
      "Your org is out of usage · add funds to continue",
      "You’ve hit your limit · resets ${t}",
    ]);
    assertEquals(await texts("codex-0.1.0"), [
      "You’re out of credits. Your workspace is out of credits.",
    ]);
    assertEquals(await texts("copilot-1.0.0"), [
      "You’ve reached your additional usage limit for your plan.",
      "You've used all your Copilot Free chat requests for the month.${…} Upgrade your plan.",
    ]);
    const claude = await read("claude-2.0.0");
    const binary = await Deno.readFile(
      `${agents}/claude@2.0.0/node_modules/@anthropic-ai/claude-code/bin/claude.exe`,
    );
    const first = claude.candidates[0];
    assertEquals(String.fromCharCode(binary[first.offset]), '"');
    ok(first.code.includes("var a=["), first.code);
    assertEquals((await read("copilot-1.0.0")).files, [
      "node_modules/@github/copilot-linux-x64/copilot → package/cli-main.js",
      "node_modules/@github/copilot-linux-x64/copilot → package/prebuilds/linux-x64/runtime.node",
    ]);
    ok(r.out.includes("== pi 1.0.0: 1 candidates from 1 files"), r.out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a new release prints first what changed against the last release and the data", async () => {
  const dir = await Deno.makeTempDir({ prefix: "limit-mining-" });
  try {
    const agents = `${dir}/agents`;
    const js = (body: string) => `var m = [${body}];`;
    const file = "node_modules/@mariozechner/pi-coding-agent/dist/mode.js";
    await put(
      `${agents}/pi@1.0.0/${file}`,
      js(
        `"Retry failed after 3 attempts", "Credit balance too low to continue", "Usage is paused for now"`,
      ),
    );
    await put(
      `${agents}/pi@1.1.0/${file}`,
      js(
        `"Retry failed after 3 attempts", "Credit balance is too low to continue", "Your org is out of usage"`,
      ),
    );
    await put(
      `${dir}/data/pi.json`,
      JSON.stringify({
        agent: "pi",
        messages: [
          {
            id: "paused",
            class: "hard",
            template: "Usage is paused for now",
            match: "^Usage is paused",
          },
        ],
      }),
    );
    const out = `${dir}/out`;
    const common = ["--agents-dir", agents, "--out", out, "--data", `${dir}/data`];
    assertEquals((await mine(...common, "pi@1.0.0")).code, 0);
    const r = await mine(...common, "pi@1.1.0");
    assertEquals(r.code, 0, r.err);
    const lines = r.out.split("\n");
    assertEquals(lines.slice(0, 7), [
      "== pi 1.1.0: 3 candidates from 1 files",
      "-- against pi 1.0.0",
      "new: 1",
      "  Your org is out of usage",
      "changed: 1",
      "  - Credit balance too low to continue",
      "  + Credit balance is too low to continue",
    ]);
    ok(r.out.includes("no longer shipped: 1\n  paused: Usage is paused for now"), r.out);
    ok(r.out.includes("unclassified, new in this release: 2\n"), r.out);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("no agents folder: one line that says what to do, exit 2", async () => {
  const r = await mine("--agents-dir", "/nonexistent/agents");
  assertEquals(r.code, 2);
  assertEquals(r.err.trim().split("\n").length, 1);
  ok(r.err.includes("--agents-dir"), r.err);
  const h = await mine("--help");
  ok(h.out.includes("deno run -A tools/limit-mining/mine.ts --agents-dir /work/agents claude"));
});
