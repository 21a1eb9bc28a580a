#!/usr/bin/env bash
# Builds the single-file uuldana binaries into dist/ with SHA256SUMS.
#
#   ./compile.sh                 all targets
#   ./compile.sh x86_64-unknown-linux-gnu
#   DENORT_BIN=/path/to/denort ./compile.sh    use a local runtime for the HOST target (offline)
#   OUT_DIR=/some/dir ./compile.sh               write there instead of dist/
#
# `deno compile` downloads the `denort` runtime for each target from Deno's servers. Without that
# network access only the host target can be built, and only with DENORT_BIN.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$root"
deno="$root/tools/deno.sh"

all_targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-apple-darwin aarch64-apple-darwin)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")

# The least the tool needs: read/write its config, data dir and the workspace; run `script`,
# `stty`, `ps`, `git` and the agents; read the environment (config paths, agent env). No network:
# uuldana itself never talks to any server. Anything else fails at once: a permission prompt in the
# middle of an agent's raw terminal would be unreadable.
permissions=(--allow-read --allow-write --allow-run --allow-env --allow-sys=hostname,osRelease,uid,gid
  --no-prompt)

host="$("$deno" eval -q 'console.log(Deno.build.target)')"
version="$("$deno" eval -q 'console.log(JSON.parse(Deno.readTextFileSync("deno.json")).version)')"
# The V8 flags of `deno task start`: a 1 MB young generation (peak RSS on a 100 MB burst 74 MB
# instead of 83, at no cost in throughput; bench/run_bench.ts), and an old generation that grows
# by 10% between full collections, sized for memory (a long run's RSS ~90 MB flat instead of ~130:
# the garbage V8 let pile up held native memory; bench/soak_bench.ts, docs/measured.md). Tests and
# benchmarks read them from the same place.
v8_flags="$("$deno" eval -q 'console.log(/--v8-flags=\S+/.exec(JSON.parse(Deno.readTextFileSync("deno.json")).tasks.start)?.[0] ?? "")')"
[[ -n "$v8_flags" ]] || { echo "compile.sh: deno.json's start task names no --v8-flags" >&2; exit 2; }
# Every target is checked before anything is built.
for target in "${targets[@]}"; do
  case " ${all_targets[*]} " in *" $target "*) ;; *)
    echo "compile.sh: unknown target '$target' (known: ${all_targets[*]})" >&2; exit 2 ;;
  esac
done

# The commit `uuldana --version` reports, embedded as an environment entry of the binary (uuldana
# reads it once and removes it, so agents never inherit it). "-dirty" when the tree has changes.
commit="$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
if [[ "$commit" != unknown && -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
  commit="$commit-dirty"
fi
build_env="$(mktemp)"
trap 'rm -f "$build_env"' EXIT
printf 'UULDANA_BUILD_COMMIT=%s\n' "$commit" > "$build_env"

out_dir="${OUT_DIR:-dist}"
mkdir -p "$out_dir"
failed=()
for target in "${targets[@]}"; do
  out="$out_dir/uuldana-$version-$target"
  # A binary left by an earlier build must not be checksummed as this one when this one fails.
  rm -f "$out"
  # Never empty: bash 3.2 (macOS) treats "${empty[@]}" as unbound under `set -u`. env's options
  # come before its assignments.
  runner=(env)
  if [[ -n "${DENORT_BIN:-}" && "$target" != "$host" ]]; then
    # DENORT_BIN is a runtime for the host only; never build another target with it.
    runner+=(-u DENORT_BIN)
  fi
  runner+=(NO_COLOR=1)
  echo "compile.sh: building $out" >&2
  if ! log="$("${runner[@]}" "$deno" compile --quiet "${permissions[@]}" "$v8_flags" --env-file="$build_env" \
      --target "$target" --output "$out" mod.ts 2>&1)"; then
    echo "compile.sh: could not build $target." >&2
    # The error and its causes, without the backtrace (awk limits itself: no SIGPIPE under pipefail).
    printf '%s\n' "$log" | awk '/^Stack backtrace/ { exit } NF && n++ < 6 { print "  " $0 }' >&2
    if [[ "$target" == "$host" && -n "${DENORT_BIN:-}" ]]; then
      echo "  check DENORT_BIN=$DENORT_BIN: it must be the denort of this Deno for $target." >&2
    elif [[ "$target" == "$host" ]]; then
      echo "  deno compile needs the denort runtime for $target; offline, set DENORT_BIN=/path/to/denort." >&2
    else
      echo "  deno compile downloads the denort runtime for $target; this needs network access to Deno's servers." >&2
    fi
    failed+=("$target")
    continue
  fi
done

built=("$out_dir"/uuldana-"$version"-*)
if [[ -e "${built[0]}" ]]; then
  sha256=(sha256sum)
  command -v sha256sum >/dev/null 2>&1 || sha256=(shasum -a 256) # macOS
  (cd "$out_dir" && "${sha256[@]}" uuldana-"$version"-* > SHA256SUMS)
  echo "compile.sh: wrote $out_dir/SHA256SUMS" >&2
fi
if ((${#failed[@]})); then
  echo "compile.sh: failed: ${failed[*]}" >&2
  exit 1
fi
