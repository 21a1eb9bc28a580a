#!/usr/bin/env bash
# Runs the pinned Deno. Uses `deno` from PATH when it is the pinned version, otherwise installs the
# npm package `deno` (which ships the native binary) into .tools/ once. JSR is not needed.
set -euo pipefail
DENO_VERSION="2.9.6"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
local_bin="$root/.tools/node_modules/.bin/deno"

if command -v deno >/dev/null 2>&1 && [[ "$(deno --version 2>/dev/null | head -n1)" == "deno $DENO_VERSION "* ]]; then
  exec deno "$@"
fi
if [[ ! -x "$local_bin" ]] || [[ "$("$local_bin" --version 2>/dev/null | head -n1)" != "deno $DENO_VERSION "* ]]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "tools/deno.sh: Deno $DENO_VERSION is not on PATH and npm is missing to install it." >&2
    echo "Install Node.js (for npm) or Deno $DENO_VERSION, then run this again." >&2
    exit 127
  fi
  echo "tools/deno.sh: installing Deno $DENO_VERSION from npm into .tools/ (once)" >&2
  mkdir -p "$root/.tools"
  npm install --prefix "$root/.tools" --no-audit --no-fund --loglevel=error "deno@$DENO_VERSION" >&2
fi
exec "$local_bin" "$@"
