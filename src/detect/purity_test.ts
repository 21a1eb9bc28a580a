/**
 * The detection core does no I/O: `src/detect/` and every module it loads (the VT interpreter, the
 * adapters' detectors) use no `node:` module, no `npm:` package, no Deno API, so what it decides
 * depends on its timed inputs alone.
 */
import { dirname } from "node:path";
import { assertPure } from "../_purity_test_util.ts";

Deno.test("src/detect/ and everything it loads do no I/O", () => {
  assertPure(dirname(new URL(import.meta.url).pathname), 3);
});
