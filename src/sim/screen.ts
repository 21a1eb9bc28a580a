/**
 * Turns view states into terminal output the way the real TUIs paint: inline agents print
 * finished transcript items into the scrollback and redraw only the live region below them
 * (cursor up + erase, like Ink); alternate-screen agents repaint a whole frame inside a
 * synchronized update. Pure: returns the bytes to write.
 *
 * @module
 */
import { type Item, renderItem, renderLive, type ViewState } from "./view.ts";

const CSI = "\x1b[";

/** Tracks what an inline agent already printed, to produce the next update. */
export class InlineScreen {
  #printed = 0;
  #liveRows = 0;

  /** Output that brings the terminal from the last update to `s`. */
  update(s: ViewState): string {
    let out = "\r";
    if (this.#liveRows > 1) out += `${CSI}${this.#liveRows - 1}A`;
    out += `${CSI}J`;
    for (const item of s.items.slice(this.#printed)) out += _rows(s, item).join("\r\n") + "\r\n";
    this.#printed = s.items.length;
    const live = renderLive(s).slice(-Math.max(1, s.rows - 1));
    out += live.join("\r\n");
    this.#liveRows = live.length;
    return out;
  }

  /** Output that clears screen and scrollback and prints everything again (after a resize). */
  redraw(s: ViewState): string {
    this.#printed = 0;
    this.#liveRows = 0;
    return `${CSI}H${CSI}2J${CSI}3J` + this.update(s);
  }
}

/** A whole alternate-screen frame for `s`: transcript tail at the top, live region at the bottom. */
export function altFrame(s: ViewState): string {
  const live = renderLive(s).slice(-Math.max(1, s.rows - 1));
  const room = Math.max(0, s.rows - live.length);
  const transcript = s.items.flatMap((item) => _rows(s, item));
  const shown = transcript.slice(Math.max(0, transcript.length - room));
  const rows = [...shown, ...Array(room - shown.length).fill(""), ...live];
  let out = `${CSI}?2026h`;
  rows.forEach((r, i) => out += `${CSI}${i + 1};1H${r}\x1b[0m${CSI}K`);
  return out + `${CSI}?2026l`;
}

function _rows(s: ViewState, item: Item): string[] {
  return renderItem(s, item);
}
