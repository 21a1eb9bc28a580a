/**
 * The VT interpreter does no I/O: every module of `src/vt/` (tests and `_` test helpers aside) and
 * all it loads use no `node:` module, no `npm:` package, no Deno API; its data (the widths, the
 * charsets) comes in as JSON modules.
 */
import { dirname } from "node:path";
import { assertPure } from "../_purity_test_util.ts";

Deno.test("src/vt/ and everything it loads do no I/O", () => {
  assertPure(dirname(new URL(import.meta.url).pathname), 25);
});
