# Shared by the real-agent shell scripts (sourced, not run, once $repo is set):
#
#   source "$repo/tools/real-agents/script_world.sh" NAME
#
# sets $deno (the pinned Deno), $work (a new scratch folder, NAME-XXXXXX under $TMPDIR or /tmp)
# and $sock (the tmux socket their agent runs in, NAME-PID, unless already set).
# `fail MESSAGE` says why, shows that pane and exits 1; on exit, every Claude
# process of the script's world stops (`stop_claudes`, once claude_world.sh is loaded), the tmux
# servers of $sock and of the names in $more_socks end, the mock ($mock_pid) ends, and then the
# script's own `cleanup_more` runs when it defines one. Sets the EXIT trap.

deno="$repo/tools/deno.sh"
work="$(mktemp -d "${TMPDIR:-/tmp}/$1-XXXXXX")"
sock="${sock:-$1-$$}"

fail() { echo "FAIL: $*" >&2; tmux -L "$sock" capture-pane -p >&2 2>/dev/null || true; exit 1; }

_world_exit() {
  if declare -F stop_claudes >/dev/null; then stop_claudes 2>/dev/null || true; fi
  local s
  for s in "$sock" ${more_socks:-}; do tmux -L "$s" kill-server 2>/dev/null || true; done
  kill "${mock_pid:-0}" 2>/dev/null || true
  if declare -F cleanup_more >/dev/null; then cleanup_more; fi
}
trap _world_exit EXIT
