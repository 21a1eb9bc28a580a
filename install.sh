#!/bin/sh
# Installs the uuldana binary of a release, after checking it against the release's SHA256SUMS.
#
#   curl -fsSL https://github.com/uuldana/uuldana/releases/latest/download/install.sh | sh
#
# Environment (all optional):
#   UULDANA_VERSION      a release such as 0.1.0 (default: the latest)
#   UULDANA_INSTALL_DIR  where the binary goes (default: ~/.local/bin)
#   UULDANA_BASE_URL     the folder holding one release's files (binaries named as compile.sh
#                        names them, uuldana-VERSION-TARGET, and SHA256SUMS) instead of GitHub's
#
# On success it prints the installed path and exits 0. On any failure it exits non-zero and
# installs nothing. POSIX sh: runs under dash, busybox sh and macOS's bash 3.2.
set -eu

REPO_URL="https://github.com/uuldana/uuldana"

say() { printf 'uuldana install: %s\n' "$*" >&2; }
fail() {
  say "$*"
  exit 1
}

# The target triple compile.sh builds for this OS and CPU.
detect_target() {
  os="$(uname -s)"
  cpu="$(uname -m)"
  case "$os" in
    Linux) os_part="unknown-linux-gnu" ;;
    Darwin) os_part="apple-darwin" ;;
    *) fail "no uuldana binary for $os: it runs on Linux and macOS (Windows: use WSL)" ;;
  esac
  case "$cpu" in
    x86_64 | amd64) cpu_part="x86_64" ;;
    aarch64 | arm64) cpu_part="aarch64" ;;
    *) fail "no uuldana binary for a $cpu CPU on $os: there are builds for x86_64 and arm64" ;;
  esac
  # A shell under Rosetta reports x86_64 on an Apple Silicon Mac; the native build is better.
  if [ "$os" = Darwin ] && [ "$cpu_part" = x86_64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    cpu_part="aarch64"
  fi
  echo "$cpu_part-$os_part"
}

# fetch URL FILE: curl, else wget; on an HTTP or network error, one line with the tool's reason.
fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 -o "$2" "$1" 2>"$tmp/fetch.err" && return 0
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1" 2>"$tmp/fetch.err" && return 0
    [ -s "$tmp/fetch.err" ] || echo "wget: the server refused it (HTTP error)" >"$tmp/fetch.err"
  else
    fail "neither curl nor wget is installed; install one of them and run this again"
  fi
  fail "could not download $1 ($(awk 'NF { last = $0 } END { print last }' "$tmp/fetch.err"))"
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{ print $1 }'
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | awk '{ print $1 }'
  else
    fail "neither sha256sum nor shasum is installed, so the download cannot be checked"
  fi
}

target="$(detect_target)"
version="${UULDANA_VERSION:-}"
version="${version#v}"
if [ -n "${UULDANA_BASE_URL:-}" ]; then
  base="${UULDANA_BASE_URL%/}"
elif [ -n "$version" ]; then
  base="$REPO_URL/releases/download/v$version"
else
  base="$REPO_URL/releases/latest/download"
fi
install_dir="${UULDANA_INSTALL_DIR:-${HOME:?HOME is not set; set UULDANA_INSTALL_DIR}/.local/bin}"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/uuldana-install.XXXXXX")" || fail "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS"
# The binary's name: given the version, as compile.sh names it; for the latest, the one
# SHA256SUMS lists for this target.
if [ -n "$version" ]; then
  name="uuldana-$version-$target"
else
  name="$(awk -v t="$target" '{ n = $2; sub(/^\*/, "", n) }
    n ~ ("^uuldana-[^/]+-" t "$") { print n; exit }' "$tmp/SHA256SUMS")"
  [ -n "$name" ] || fail "the release at $base has no binary for $target"
fi
expected="$(awk -v n="$name" '{ f = $2; sub(/^\*/, "", f) } f == n { print $1; exit }' \
  "$tmp/SHA256SUMS")"
[ -n "$expected" ] || fail "$base/SHA256SUMS lists no $name: that release has no binary for $target"

say "downloading $name"
fetch "$base/$name" "$tmp/$name"
actual="$(sha256_of "$tmp/$name")"
if [ "$actual" != "$expected" ]; then
  fail "checksum mismatch for $name (expected $expected, got $actual): refusing to install it"
fi

mkdir -p "$install_dir" 2>/dev/null || fail "cannot create $install_dir; set UULDANA_INSTALL_DIR to a folder you can write"
# Copied beside the target first and renamed over it, so a running uuldana is never half-replaced.
staged="$install_dir/.uuldana.install.$$"
if ! { cp "$tmp/$name" "$staged" && chmod 755 "$staged" && mv -f "$staged" "$install_dir/uuldana"; } 2>/dev/null; then
  rm -f "$staged" 2>/dev/null || true
  fail "cannot write to $install_dir; set UULDANA_INSTALL_DIR to a folder you can write"
fi

say "installed $install_dir/uuldana ($name, checksum verified)"
case ":${PATH:-}:" in
  *":$install_dir:"*) ;;
  *)
    case "${SHELL:-}" in
      */zsh) rc="~/.zshrc" ;;
      */bash) rc="~/.bashrc" ;;
      *) rc="~/.profile" ;;
    esac
    case "${SHELL:-}" in
      */fish) say "$install_dir is not on your PATH; add it with: fish_add_path $install_dir" ;;
      *) say "$install_dir is not on your PATH; add it with: echo 'export PATH=\"$install_dir:\$PATH\"' >> $rc" ;;
    esac
    ;;
esac
echo "$install_dir/uuldana"
