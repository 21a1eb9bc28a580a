/**
 * `uuldana debug compose PACKAGE.json --road ROAD [--json]`: prints the handoff text a package
 * would be composed into for one road. Writes nothing unless `--save` is given.
 *
 * @module
 */
import { Command, Option } from "@commander-js/extra-typings";
import { UsageError } from "../errors.ts";
import { ROADS } from "../config/config.ts";
import { dataDir } from "../config/paths.ts";
import { composeFull, composeHandoff, roadCap } from "../handoff/compose.ts";
import { isNonce, newNonce } from "../handoff/frame.ts";
import { parsePackage } from "../handoff/package.ts";
import { handoffPath, newHandoffId, writeHandoffFile } from "../handoff/file.ts";
import { status } from "./style.ts";

async function _readPackage(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (e) {
    throw new UsageError(`cannot read package ${file}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`invalid package ${file}: not valid JSON (${(e as Error).message})`);
  }
}

/** `uuldana debug compose`: compose the handoff text for a package and a road. */
export function debugComposeCommand() {
  return new Command("compose")
    .description("compose the handoff text for a package (JSON) and a delivery road")
    .argument("<package>", "the handoff package, a JSON file")
    .addOption(
      new Option("--road <road>", "the delivery road").choices(ROADS).makeOptionMandatory(),
    )
    .option("--json", "print {text, characters, omitted, redactions, nonce, cut, pointer} as JSON")
    .option("--cap <n>", "a smaller cap than the road's own, in characters")
    .option("--nonce <hex>", "use this boundary nonce (8–64 hex digits) instead of a random one")
    .option("--save", "also write the full handoff file to <data dir>/handoffs/<id>.md")
    .addHelpText(
      "after",
      `
Prints the framed text the next agent would receive. The pointer names where the full handoff
file would be; nothing is written unless --save is given. When the package has no user entry
there is nothing to hand off: nothing is printed (--json prints "text": null).

Examples:
  uuldana debug compose package.json --road hook
  uuldana debug compose package.json --road prompt --cap 4000 --json`,
    )
    .action(async (file, opts) => {
      const pkg = parsePackage(await _readPackage(file), file);
      let cap: number | undefined;
      if (opts.cap !== undefined) {
        cap = Number(opts.cap);
        if (!Number.isInteger(cap) || cap <= 0) {
          throw new UsageError(`--cap must be a positive whole number, got "${opts.cap}"`);
        }
      }
      const nonce = opts.nonce ?? newNonce();
      if (!isNonce(nonce)) {
        throw new UsageError(`--nonce must be 8–64 hex digits, got "${nonce}"`);
      }
      const id = newHandoffId();
      const data = dataDir();
      const pointer = handoffPath(data, id);
      let composed;
      try {
        composed = composeHandoff(pkg, { road: opts.road, cap, pointer, nonce });
      } catch (e) {
        if (e instanceof RangeError) {
          throw new UsageError(
            `${e.message}`,
            `the ${opts.road} road allows ${roadCap(opts.road)}`,
          );
        }
        throw e;
      }
      if (composed && opts.save) {
        const written = writeHandoffFile(data, id, composeFull(pkg, { pointer, nonce }).text);
        status(`wrote the full handoff to ${written}`);
      }
      if (opts.json) {
        const out = composed
          ? { ...composed, pointer }
          : { text: null, characters: 0, omitted: 0, redactions: 0, nonce: null, cut: false };
        console.log(JSON.stringify(out, null, 2));
        return;
      }
      if (!composed) {
        status("no user entry: nothing to hand off; the next agent starts clean");
        return;
      }
      await _writeOut(composed.text + "\n");
    });
}

async function _writeOut(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let off = 0;
  while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
}
