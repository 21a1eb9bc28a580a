/**
 * Writes or checks the expected states of recordings (dev-only; `testdata/README.md`):
 *
 *   deno run -A tools/xterm-oracle/expected.ts FILE.raw…          regenerate each NAME.json
 *   deno run -A tools/xterm-oracle/expected.ts --check FILE.raw…  exit 1 when one differs
 *   deno run -A tools/xterm-oracle/expected.ts --new --cols 120 --rows 40 \
 *     --description "what it shows" --command "the command" FILE.raw   a new recording
 *
 * Regenerating keeps a side file's metadata and checkpoint offsets and recomputes the rest. A new
 * recording gets its checkpoints from its `.timing` file's pauses and its ESU markers; when
 * FILE.raw is still a `script` log, its header and trailer are cut off first (the file is
 * rewritten with the output only).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { basename } from "node:path";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { type SidecarMeta, sidecarText } from "./sidecar.ts";
import { pickCheckpoints } from "./checkpoints.ts";
import { scriptOutput } from "./script_log.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    check: { type: "boolean" },
    new: { type: "boolean" },
    cols: { type: "string" },
    rows: { type: "string" },
    description: { type: "string" },
    command: { type: "string" },
  },
});

if (positionals.length === 0 || !positionals.every((f) => f.endsWith(".raw"))) {
  console.error("usage: expected.ts [--check | --new --cols C --rows R ...] FILE.raw…");
  Deno.exit(2);
}

/** The metadata of a recording that has no side file yet. */
function newMeta(raw: string, bytes: Uint8Array, timing: string | undefined): SidecarMeta {
  const cols = Number(values.cols);
  const rows = Number(values.rows);
  if (!(cols > 0 && rows > 0)) throw new Error("--new needs --cols and --rows");
  const base = raw.slice(0, -4);
  return {
    name: basename(base),
    description: values.description ?? "",
    command: values.command ?? "",
    cols,
    rows,
    term: "xterm-256color",
    lang: "C.UTF-8",
    recorded_with: "util-linux script (-q -f -T) at a fixed size",
    timing_file: timing === undefined ? null : `${basename(base)}.timing`,
    checkpoints: pickCheckpoints(bytes, timing),
  };
}

let differs = 0;
for (const raw of positionals) {
  const json = `${raw.slice(0, -4)}.json`;
  let bytes: Uint8Array = readFileSync(raw);
  const stored = values.new ? undefined : readFileSync(json, "utf8");
  let meta: SidecarMeta;
  if (stored === undefined) {
    if (existsSync(json)) {
      console.error(`${json} exists; regenerate it without --new`);
      Deno.exit(1);
    }
    const timingFile = `${raw.slice(0, -4)}.timing`;
    const timing = existsSync(timingFile) ? readFileSync(timingFile, "utf8") : undefined;
    const output = timing === undefined ? bytes : scriptOutput(bytes, timing);
    if (output !== bytes) writeFileSync(raw, output);
    bytes = output;
    meta = newMeta(raw, bytes, timing);
  } else {
    meta = JSON.parse(stored);
  }
  const text = await sidecarText(meta, bytes);
  if (values.check) {
    if (text !== stored) {
      console.error(`${json}: differs from what the oracle gives`);
      differs++;
    }
  } else if (text !== stored) {
    writeFileSync(json, text);
    console.log(`wrote ${json}`);
  }
}
if (differs) Deno.exit(1);
