/**
 * install.sh against a fake release served on 127.0.0.1, under dash, bash and posh. `uname` is a small
 * script on a PATH made of links to exactly the tools the installer may use, so each OS and CPU
 * can be played, and curl can be left out.
 *
 * @module
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { REPO_DIR } from "./_paths.ts";
import { testNeeding } from "./_needs.ts";

const INSTALL_SH = join(REPO_DIR, "install.sh");
const VERSION = "0.1.0";
const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
];
/** What install.sh may run besides `uname` and the downloaders (each is linked into PATH). */
const TOOLS = [
  "awk",
  "cat",
  "chmod",
  "cp",
  "mkdir",
  "mktemp",
  "mv",
  "printf", // a builtin in dash and bash, not in posh
  "rm",
  "sha256sum",
  "shasum",
];
/** dash (Debian's sh), bash, and posh (strict POSIX: what bash 3.2 on macOS must also run). */
const SHELLS = ["dash", "bash", "posh"];

/**
 * A test of install.sh under `shell`: it needs that shell, dash (the fake `uname`'s), curl and
 * `more`; skipped by name without them (tests/_needs.ts).
 */
function installTest(
  shell: string,
  name: string,
  fn: () => Promise<void>,
  more: readonly string[] = [],
): void {
  testNeeding([shell, "dash", "curl", ...more], { name, fn });
}

/** The program `cmd` on this process's PATH (a file, never a shell builtin). */
function which(cmd: string): string {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    const path = join(dir, cmd);
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not in this folder */ }
  }
  throw new Error(`${cmd} is not installed (.ci/run installs it)`);
}

/** The fake binary of a target: a script that says which one it is. */
const fakeBinary = (target: string) => `#!/bin/sh\necho "uuldana ${VERSION} ${target}"\n`;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A release folder served over HTTP; `files` can be changed by a test before it installs. */
class FakeRelease {
  files = new Map<string, string>();
  agents: string[] = [];
  #server: Deno.HttpServer<Deno.NetAddr>;
  constructor() {
    for (const t of TARGETS) this.files.set(`uuldana-${VERSION}-${t}`, fakeBinary(t));
    this.files.set("SHA256SUMS", this.sums());
    this.#server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      this.agents.push(req.headers.get("user-agent") ?? "");
      const body = this.files.get(new URL(req.url).pathname.replace(/^\/release\//, ""));
      return new Response(body ?? "not found", { status: body === undefined ? 404 : 200 });
    });
  }
  /** SHA256SUMS as compile.sh writes it, for the binaries in the release now. */
  sums(): string {
    return [...this.files].filter(([n]) => n.startsWith("uuldana-"))
      .map(([n, body]) => `${sha256(body)}  ${n}\n`).join("");
  }
  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/release`;
  }
  close(): Promise<void> {
    return this.#server.shutdown();
  }
}

/** A PATH of links to the tools, a fake `uname` (and `sysctl`), with or without curl/wget. */
function fakePath(dir: string, os: string, cpu: string, downloaders: string[]): string {
  const bin = join(dir, `bin-${os}-${cpu}-${downloaders.join("-")}`);
  Deno.mkdirSync(bin);
  for (const tool of [...TOOLS, ...downloaders]) Deno.symlinkSync(which(tool), join(bin, tool));
  Deno.writeTextFileSync(
    join(bin, "uname"),
    `#!${which("dash")}\ncase "$1" in -s) echo '${os}' ;; -m) echo '${cpu}' ;; *) exit 1 ;; esac\n`,
  );
  Deno.chmodSync(join(bin, "uname"), 0o755);
  return bin;
}

interface Install {
  code: number;
  stdout: string;
  stderr: string;
  dir: string;
}

async function install(release: FakeRelease, opts: {
  shell: string;
  os?: string;
  cpu?: string;
  downloaders?: string[];
  version?: string | null;
  dir?: string;
  stdin?: boolean;
}): Promise<Install> {
  const tmp = Deno.makeTempDirSync({ prefix: "uuldana-install-" });
  const dir = opts.dir ?? join(tmp, "home", ".local", "bin");
  const env: Record<string, string> = {
    PATH: fakePath(tmp, opts.os ?? "Linux", opts.cpu ?? "x86_64", opts.downloaders ?? ["curl"]),
    HOME: join(tmp, "home"),
    TMPDIR: tmp,
    UULDANA_BASE_URL: release.url,
    UULDANA_INSTALL_DIR: dir,
  };
  if (opts.version !== null) env.UULDANA_VERSION = opts.version ?? VERSION;
  // `curl … | sh` reads the script from stdin; otherwise it is a file argument.
  const child = new Deno.Command(which(opts.shell), {
    args: opts.stdin ? [] : [INSTALL_SH],
    env,
    clearEnv: true,
    stdin: opts.stdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (opts.stdin) {
    const w = child.stdin.getWriter();
    await w.write(Deno.readFileSync(INSTALL_SH));
    await w.close();
  }
  const out = await child.output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr), dir };
}

/** Nothing named uuldana (nor a staged copy) was left in `dir`, if it exists at all. */
function assertNothingInstalled(r: Install): void {
  assert(r.code !== 0, `exit 0:\n${r.stderr}`);
  let left: string[] = [];
  try {
    left = [...Deno.readDirSync(r.dir)].map((e) => e.name);
  } catch { /* the folder was never made */ }
  assertEquals(left, [], r.stderr);
  assertEquals(r.stdout, "");
  assert(r.stderr.trim().split("\n").length <= 2, `more than a short message:\n${r.stderr}`);
}

function assertInstalled(r: Install, target: string): void {
  assertEquals(r.code, 0, r.stderr);
  const bin = join(r.dir, "uuldana");
  assertEquals(r.stdout, `${bin}\n`);
  assertEquals(Deno.readTextFileSync(bin), fakeBinary(target));
  assertEquals(Deno.statSync(bin).mode! & 0o777, 0o755);
  assertEquals([...Deno.readDirSync(r.dir)].map((e) => e.name), ["uuldana"]);
}

for (const shell of SHELLS) {
  installTest(shell, `install.sh (${shell}): each OS and CPU gets its binary`, async () => {
    const release = new FakeRelease();
    try {
      const cases: [string, string, string][] = [
        ["Linux", "x86_64", "x86_64-unknown-linux-gnu"],
        ["Linux", "amd64", "x86_64-unknown-linux-gnu"],
        ["Linux", "aarch64", "aarch64-unknown-linux-gnu"],
        ["Linux", "arm64", "aarch64-unknown-linux-gnu"],
        ["Darwin", "x86_64", "x86_64-apple-darwin"],
        ["Darwin", "arm64", "aarch64-apple-darwin"],
      ];
      for (const [os, cpu, target] of cases) {
        const r = await install(release, { shell, os, cpu });
        assertInstalled(r, target);
        assert(r.stderr.includes("checksum verified"), r.stderr);
        assert(r.stderr.includes("not on your PATH"), "says how to put it on PATH");
      }
      for (const [os, cpu] of [["Linux", "i686"], ["FreeBSD", "amd64"], ["MINGW64_NT", "x86_64"]]) {
        const r = await install(release, { shell, os, cpu });
        assertNothingInstalled(r);
        assert(r.stderr.includes(`no uuldana binary for`), r.stderr);
      }
    } finally {
      await release.close();
    }
  });

  installTest(
    shell,
    `install.sh (${shell}): without a version, the release's SHA256SUMS names the binary; piped to sh`,
    async () => {
      const release = new FakeRelease();
      try {
        assertInstalled(
          await install(release, { shell, version: null, os: "Darwin", cpu: "arm64" }),
          "aarch64-apple-darwin",
        );
        assertInstalled(await install(release, { shell, stdin: true }), "x86_64-unknown-linux-gnu");
      } finally {
        await release.close();
      }
    },
  );

  installTest(
    shell,
    `install.sh (${shell}): a checksum mismatch is refused and leaves an old uuldana alone`,
    async () => {
      const release = new FakeRelease();
      const tmp = Deno.makeTempDirSync();
      try {
        const name = `uuldana-${VERSION}-x86_64-unknown-linux-gnu`;
        release.files.set(name, fakeBinary("x86_64-unknown-linux-gnu") + "# tampered\n");
        const r = await install(release, { shell, dir: join(tmp, "fresh") });
        assertNothingInstalled(r);
        assert(r.stderr.includes("checksum mismatch"), r.stderr);

        Deno.writeTextFileSync(join(tmp, "uuldana"), "old\n");
        const again = await install(release, { shell, dir: tmp });
        assert(again.code !== 0);
        assertEquals(Deno.readTextFileSync(join(tmp, "uuldana")), "old\n");
        assertEquals([...Deno.readDirSync(tmp)].map((e) => e.name), ["uuldana"]);
      } finally {
        await release.close();
      }
    },
  );

  installTest(
    shell,
    `install.sh (${shell}): a missing binary or checksum file installs nothing`,
    async () => {
      const release = new FakeRelease();
      try {
        // Listed in SHA256SUMS, but the file is not there.
        release.files.delete(`uuldana-${VERSION}-aarch64-unknown-linux-gnu`);
        let r = await install(release, { shell, cpu: "aarch64" });
        assertNothingInstalled(r);
        assert(r.stderr.includes("could not download"), r.stderr);
        // Not listed at all (this release was built without it), with and without a version.
        release.files.set("SHA256SUMS", release.sums());
        for (const version of [undefined, null]) {
          r = await install(release, { shell, cpu: "aarch64", version });
          assertNothingInstalled(r);
          assert(r.stderr.includes("no binary for aarch64-unknown-linux-gnu"), r.stderr);
        }
        // A version that was never released: no SHA256SUMS there.
        release.files.delete("SHA256SUMS");
        r = await install(release, { shell });
        assertNothingInstalled(r);
        assert(r.stderr.includes("SHA256SUMS"), r.stderr);
      } finally {
        await release.close();
      }
    },
  );

  installTest(
    shell,
    `install.sh (${shell}): wget when there is no curl; neither is one clear line`,
    async () => {
      const release = new FakeRelease();
      try {
        const r = await install(release, { shell, downloaders: ["wget"] });
        assertInstalled(r, "x86_64-unknown-linux-gnu");
        assert(release.agents.length >= 2 && release.agents.every((a) => /^Wget\//.test(a)));
        release.files.delete(`uuldana-${VERSION}-x86_64-apple-darwin`);
        const missing = await install(release, { shell, downloaders: ["wget"], os: "Darwin" });
        assertNothingInstalled(missing);
        assert(missing.stderr.includes("could not download"), missing.stderr);
        const none = await install(release, { shell, downloaders: [] });
        assertNothingInstalled(none);
        assert(none.stderr.includes("neither curl nor wget"), none.stderr);
      } finally {
        await release.close();
      }
    },
    ["wget"],
  );

  installTest(
    shell,
    `install.sh (${shell}): an install folder that cannot be written installs nothing`,
    async () => {
      const release = new FakeRelease();
      const tmp = Deno.makeTempDirSync();
      try {
        // Below a regular file: no one can create it, root included.
        Deno.writeTextFileSync(join(tmp, "file"), "");
        const r = await install(release, { shell, dir: join(tmp, "file", "bin") });
        assertNothingInstalled(r);
        assert(r.stderr.includes("UULDANA_INSTALL_DIR"), r.stderr);
        // A read-only folder (permission bits do not bind root, so only checked as another user).
        if (Deno.uid() !== 0) {
          const ro = join(tmp, "ro");
          Deno.mkdirSync(ro, { mode: 0o555 });
          const denied = await install(release, { shell, dir: ro });
          assertNothingInstalled(denied);
          assert(denied.stderr.includes("cannot write to"), denied.stderr);
        }
      } finally {
        await release.close();
      }
    },
  );
}
