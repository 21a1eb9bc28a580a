/**
 * Whether other local users can read this machine's process arguments. On Linux anyone reads
 * `/proc/PID/cmdline` of every process unless `/proc` is mounted with `hidepid` (1/noaccess,
 * 2/invisible, 4/ptraceable); on macOS and the BSDs `ps` shows every process's arguments. Used by
 * `uuldana doctor` to say whether a handoff in an agent's command line is private.
 *
 * @module
 */

/** Whether other users can read process arguments. */
export type ArgvVisibility = "hidden" | "visible" | "unknown";

/**
 * Reads `/proc/self/mountinfo` text: "hidden" when the `/proc` mount in effect (the last one
 * listed) has a `hidepid` other than 0/off, "visible" when it has none, "unknown" without a
 * `/proc` mount. Pure.
 */
export function argvVisibility(mountinfo: string): ArgvVisibility {
  let options: string[] | null = null;
  for (const line of mountinfo.split("\n")) {
    // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL…] - FSTYPE SOURCE SUPEROPTIONS
    const fields = line.split(" ");
    const dash = fields.indexOf("-", 6);
    if (dash < 0 || fields[4] !== "/proc" || fields[dash + 1] !== "proc") continue;
    options = [...fields[5].split(","), ...(fields[dash + 3] ?? "").split(",")];
  }
  if (options === null) return "unknown";
  const hidepid = options.find((o) => o.startsWith("hidepid="))?.slice("hidepid=".length);
  return hidepid === undefined || hidepid === "0" || hidepid === "off" ? "visible" : "hidden";
}

/** The visibility on this machine (reads `/proc/self/mountinfo` on Linux). */
export function readArgvVisibility(): ArgvVisibility {
  if (Deno.build.os !== "linux") return Deno.build.os === "windows" ? "unknown" : "visible";
  try {
    return argvVisibility(Deno.readTextFileSync("/proc/self/mountinfo"));
  } catch {
    return "unknown";
  }
}
