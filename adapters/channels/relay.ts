/**
 * The relay: the one small command every hook of every agent runs. A POSIX `sh` script uuldana
 * writes once into its data directory (a Deno process could not start within a hook's budget of
 * a few milliseconds). It copies the hook's stdin into a new payload file and publishes it with one
 * index line (the record format in `../channel.ts`); it prints nothing, always exits 0, never waits
 * on uuldana (plain files: no FIFO a dead reader would block on) and takes nothing from its command
 * line but the run's channel folder and the event's name. Pure: this module only makes the
 * script's text and the hook command.
 *
 * @module
 */
import { CHANNEL_EVENT_NAME, CHANNEL_INDEX, type ChannelRelay, shellQuote } from "../channel.ts";

/**
 * The relay script's file name. Versioned: a running agent keeps calling the script it was started
 * with, so a later uuldana with another record format writes a new name beside it.
 */
export const RELAY_FILE = "relay-v1.sh";

/**
 * The relay script, the same for every run: its arguments are the run's channel folder and the
 * event's name. Without the folder (the run is over, its scratch removed) it drains its stdin and
 * exits 0.
 */
export function relayScript(): string {
  return `#!/bin/sh
# uuldana's channel relay. It keeps a hook's stdin as one record for uuldana to read: it prints
# nothing, always exits 0 and never waits for uuldana. Arguments: the run's channel folder, the
# agent's event name.
exec >/dev/null 2>&1
umask 077
d=$1
case "$2" in ''|*[!A-Za-z0-9_.-]*) cat; exit 0 ;; esac
case "$d" in /*) ;; *) cat; exit 0 ;; esac
[ -d "$d" ] || { cat; exit 0; }
# A new payload file of its own: noclobber makes '>' fail on an existing name.
set -C
i=0
until : >"$d/r.$$.$i"; do
  i=$((i + 1))
  [ "$i" -lt 16 ] || { cat; exit 0; }
done
cat >|"$d/r.$$.$i" || { rm -f "$d/r.$$.$i"; exit 0; }
# One small write publishes the record.
printf '%s r.%s.%s\\n' "$2" "$$" "$i" >>"$d/${CHANNEL_INDEX}" || rm -f "$d/r.$$.$i"
exit 0
`;
}

/** The relay for the channel folder `dir`, with the relay script at `script`. */
export function relayAt(script: string, dir: string): ChannelRelay {
  // `sh FILE`, not FILE: a data directory on a noexec mount still runs it.
  const prefix = `/bin/sh ${shellQuote(script)} ${shellQuote(dir)} `;
  return {
    dir,
    command: (event) => {
      if (!CHANNEL_EVENT_NAME.test(event)) throw new Error(`not an event name: ${event}`);
      return prefix + event;
    },
  };
}
