import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";

const WORLD = join(import.meta.dirname!, "script_world.sh");
const REPO = join(import.meta.dirname!, "..", "..");

// A script as the real-agent scripts are: its tmux socket, a mock, its own cleanup, then `body`.
// It notes the scratch folder and the Deno the world gave it.
async function runScript(body: string) {
  const work = await Deno.makeTempDir({ prefix: "uuldana-script-world-" });
  const sock = `uuldana-sw-${crypto.randomUUID().slice(0, 8)}`;
  const script = `set -euo pipefail
sock=${sock}
more_socks=${sock}-2
cleanup_more() { touch "${work}/cleaned"; }
repo=${REPO}
source "${WORLD}" uuldana-sw-test
echo "$work $deno" > "${work}/given"
tmux -L "$sock" -f /dev/null new-session -d -x 40 -y 5 "echo the pane says hi; sleep 60"
tmux -L "$sock-2" -f /dev/null new-session -d "sleep 60"
sleep 60 & mock_pid=$!
echo "$mock_pid" > "${work}/mock"
sleep 0.3
${body}`;
  const out = await new Deno.Command("bash", {
    args: ["-c", script],
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const mock = Number(await Deno.readTextFile(join(work, "mock")));
  const [scratch, deno] = (await Deno.readTextFile(join(work, "given"))).trim().split(" ");
  const alive = (s: string) =>
    new Deno.Command("tmux", { args: ["-L", s, "has-session"], stderr: "null" }).outputSync()
      .success;
  const result = {
    code: out.code,
    scratch: /\/uuldana-sw-test-\w{6}$/.test(scratch) && Deno.statSync(scratch).isDirectory,
    deno: deno === join(REPO, "tools", "deno.sh"),
    stderr: new TextDecoder().decode(out.stderr),
    cleaned: existsSync(join(work, "cleaned")),
    tmuxLeft: alive(sock) || alive(`${sock}-2`),
    mockLeft: existsSync(`/proc/${mock}`) &&
      !(await Deno.readTextFile(`/proc/${mock}/stat`).catch(() => "")).includes(") Z"),
  };
  await Deno.remove(work, { recursive: true });
  await Deno.remove(scratch, { recursive: true });
  return result;
}

Deno.test("fail says why, shows the pane, exits 1; the world is cleaned up on the way out", async () => {
  const r = await runScript(`fail "no limit screen"`);
  assertEquals(r.code, 1);
  assert(r.stderr.includes("FAIL: no limit screen"), r.stderr);
  assert(r.stderr.includes("the pane says hi"), r.stderr);
  assertEquals([r.cleaned, r.tmuxLeft, r.mockLeft], [true, false, false]);
  // The world made its scratch folder by its name and kept the socket the script named.
  assertEquals([r.scratch, r.deno], [true, true]);
});

Deno.test("a script's own exit status stays; the world is cleaned up after success too", async () => {
  assertEquals((await runScript("exit 3")).code, 3);
  const ok = await runScript("true");
  assertEquals([ok.code, ok.cleaned, ok.tmuxLeft, ok.mockLeft], [0, true, false, false]);
});
