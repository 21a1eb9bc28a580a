/**
 * OSC strings the model acts on, by number: the title (0 and 2) and the dynamic colour queries
 * (10, 11, 12). Every other OSC (hyperlinks, the working directory, notifications…) has no effect
 * on the model.
 *
 * @module
 */
import type { Interpreter } from "./interpreter.ts";

/** An OSC handler: `id` and `data` as the parser passes them, `terminator` BEL, ST or ESC. */
export type OscHandler = (vt: Interpreter, id: number, data: string, terminator: number) => void;

/** OSC 0 (icon name and title) and OSC 2 (title): the title (OSC 1, the icon name, is not kept). */
const setTitle: OscHandler = (vt, _id, data) => {
  vt.title = data;
};

/**
 * OSC 10/11/12 (foreground, background, cursor colour): a query for each "?" (a list such as
 * `10;?;?` asks for 10 and 11), answered with the same terminator.
 */
const colorQuery: OscHandler = (vt, id, data, terminator) => {
  const slots = data.split(";");
  for (let k = 0; k < slots.length && id + k <= 12; k++) {
    if (slots[k] !== "?") continue;
    vt.emitQuery({
      kind: "OSC_COLOR",
      osc: (id + k) as 10 | 11 | 12,
      terminator: terminator === 0x07 ? "BEL" : "ST",
    });
  }
};

const _OSC = new Map<number, OscHandler>([
  [0, setTitle],
  [2, setTitle],
  [10, colorQuery],
  [11, colorQuery],
  [12, colorQuery],
]);

/** The handler of OSC `id`, undefined when none. */
export function oscHandler(id: number): OscHandler | undefined {
  return _OSC.get(id);
}
