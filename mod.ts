/**
 * uuldana: keeps terminal coding agents working across usage limits. Entry point only.
 *
 * @module
 */
import { main } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
