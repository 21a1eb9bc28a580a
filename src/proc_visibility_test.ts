import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { argvVisibility, readArgvVisibility } from "./proc_visibility.ts";

const ROOT = "21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw";
const proc = (superOptions: string, mountOptions = "rw,nosuid,nodev,noexec,relatime") =>
  `22 21 0:21 / /proc ${mountOptions} shared:12 - proc proc ${superOptions}`;

Deno.test("hidepid on the /proc mount hides other users' arguments; its absence does not", () => {
  for (const value of ["1", "2", "4", "invisible", "noaccess", "ptraceable"]) {
    assertEquals(argvVisibility(`${ROOT}\n${proc(`rw,hidepid=${value}`)}\n`), "hidden", value);
  }
  // Kernels before 5.8 list it with the mount's own options on some systems.
  assertEquals(argvVisibility(`${ROOT}\n${proc("rw", "rw,relatime,hidepid=2")}`), "hidden");
  for (const superOptions of ["rw", "rw,hidepid=0", "rw,hidepid=off", "rw,subset=pid"]) {
    assertEquals(argvVisibility(`${ROOT}\n${proc(superOptions)}`), "visible", superOptions);
  }
  // The mount in effect is the last one over /proc (a container remounting it).
  assertEquals(argvVisibility(`${proc("rw,hidepid=2")}\n${proc("rw")}`), "visible");
  assertEquals(argvVisibility(`${proc("rw")}\n${proc("rw,hidepid=invisible")}`), "hidden");
  // A proc filesystem elsewhere, or none at all, says nothing about /proc.
  assertEquals(argvVisibility(ROOT), "unknown");
  assertEquals(argvVisibility("23 21 0:21 / /mnt/proc rw - proc proc rw,hidepid=2"), "unknown");
  assertEquals(argvVisibility(""), "unknown");
});

Deno.test("this machine's /proc is read", { ignore: Deno.build.os !== "linux" }, () => {
  assertEquals(readArgvVisibility(), argvVisibility(Deno.readTextFileSync("/proc/self/mountinfo")));
  assertEquals(readArgvVisibility() === "unknown", false);
});
