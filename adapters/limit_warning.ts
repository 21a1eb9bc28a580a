/**
 * Whether a text an agent drew is one of its usage warnings ("You've used 90% of your 5-hour limit
 * · resets 3pm"), with the reset it states: what the limit ledger keeps as *near its limit*
 * (src/chain/limits.ts). The warnings never fire as limits (the detectors veto them); this only
 * names them. They are the `warning` entries of the agents' classified data
 * (`adapters/limits/<agent>.json`), read through its loader; the detectors ask here, so where the
 * answer comes from is this one line.
 *
 * @module
 */
export { type LimitWarning, warningIn } from "./limit_data.ts";
