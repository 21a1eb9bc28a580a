#!/usr/bin/env bash
# Runs real-agent matrix cells N times beside two busy loops (a loaded 2-core machine) and counts
# the passes per agent × cell. The busy loops are started here and killed (by their ids) at the end.
#
#   /work/coord/real-agents --exclusive tools/real-agents/repeat_cells.sh N \
#     [--agents opencode,kilo] [--cells receiver,paste] [--patience 1] [--out DIR] [--busy 2]
#     [--minutes M]
#
# `--minutes M`: no run starts later than M minutes after the first (an exclusive stretch of the
# shared machine stays short; a run of OpenCode's and Kilo's two cells took 5-9 min at load 7-20).
# Every run's output goes to OUT/run-K.log (its cells' worlds under OUT/run-K/: screen.txt,
# mock.jsonl, the journal in data/); each cell's line is appended to OUT/results.txt, and the
# tally over everything in OUT/results.txt (earlier batches too) is printed at the end. Results
# are not merged into adapters/tested_versions.json (--no-record).
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
n="${1:?usage: repeat_cells.sh N [--agents A,B] [--cells C,D] [--patience P] [--out DIR] [--busy K]}"
shift
agents=opencode,kilo cells=receiver,paste patience=1 out=/tmp/uuldana-repeat busy=2 minutes=0
while [ $# -gt 0 ]; do
  case "$1" in
  --agents) agents="$2"; shift 2 ;;
  --cells) cells="$2"; shift 2 ;;
  --patience) patience="$2"; shift 2 ;;
  --out) out="$2"; shift 2 ;;
  --busy) busy="$2"; shift 2 ;;
  --minutes) minutes="$2"; shift 2 ;;
  *) echo "repeat_cells.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
pids=()
stop_busy() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  pids=()
}
trap 'stop_busy' EXIT
trap 'stop_busy; exit 130' INT TERM
for _ in $(seq 1 "$busy"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "busy loops: ${pids[*]}; load $(cut -d' ' -f1-3 /proc/loadavg)"
k=$(ls "$out" | grep -c '^run-[0-9]*\.log$')
started=$(date +%s)
for i in $(seq 1 "$n"); do
  if [ "$minutes" != 0 ] && [ $(($(date +%s) - started)) -ge $((minutes * 60)) ]; then
    echo "== $minutes min have passed: no more runs in this batch"
    break
  fi
  k=$((k + 1))
  log="$out/run-$k.log"
  echo "== run $k ($i of $n), $(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg)"
  mkdir -p "$out/run-$k"
  (cd "$repo" && tools/deno.sh run -A tools/real-agents/matrix.ts --agents "$agents" \
    --cells "$cells" --agents-dir /work/agents --dir "$out/run-$k" --no-record \
    --patience "$patience") >"$log" 2>&1
  grep -E "^[a-z]+ [0-9][^ ]* [a-z]+: " "$log" | grep -v ' terminal: ' |
    sed "s/^/run-$k $(date +%T) load=$(cut -d' ' -f1 /proc/loadavg) /" | tee -a "$out/results.txt"
done
stop_busy
echo "== tally ($out/results.txt)"
awk '{ key = $4 " " $6; sub(/:$/, "", key); total[key]++; if ($7 ~ /^pass/) ok[key]++ }
  END { for (k in total) printf "%-20s %d/%d\n", k, ok[k] + 0, total[k] }' "$out/results.txt" | sort
