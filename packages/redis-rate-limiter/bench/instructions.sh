#!/usr/bin/env bash
# Server instructions per FCALL of the limiter's workloads, counted by valgrind's callgrind inside Redis's
# fcallCommand (evalShaCommand for the bare script) only: deterministic, so a change to the Lua library can be weighed to a few hundred instructions
# on a busy machine where timings swing by 2x. The workloads (instructions-workload.mjs) are perf-probe's, on a
# manual clock that moves 20 us per call. Needs valgrind and redis-server; starts its own server on PORT.
#
#   bash bench/instructions.sh tb,admitAll,fill,probeFull,book,binanceOrder   (after pnpm build)
#   bash bench/instructions.sh bare,tb   perf-probe's bare one-key GCRA script (EVALSHA) against the token bucket
#   bash bench/instructions.sh tb,steady,steadyBook   windows whose every slot holds cost, as in a long run
#   (each after an uncounted run of its own flow), with the target's ratios to the token bucket
#   SHRINK=4 ... runs a quarter of each workload's calls; PRE=fill,... runs workloads first, uncounted.
set -euo pipefail
cd "$(dirname "$0")"
PORT=${PORT:-6406}
IFS=, read -ra CASES <<< "${1:-tb,admitAll,fill,probeFull,book,binanceOrder}"
declare -A COUNTS
for c in "${CASES[@]}"; do
  out=$(mktemp)
  valgrind --tool=callgrind --toggle-collect=fcallCommand --toggle-collect=evalShaCommand --callgrind-out-file="$out" \
    redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no >/dev/null 2>&1 &
  for _ in $(seq 1 100); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.2; done
  pre=""
  [ "$c" = probeFull ] && pre="fill"
  # a window whose every slot holds cost: a run of the same flow first
  [ "$c" = steady ] || [ "$c" = steadyBook ] && pre="$c"
  [ -n "${PRE:-}" ] && pre="$PRE"
  calls=$(PORT=$PORT node instructions-workload.mjs "${pre}:$c" | tail -1 | awk '{ print $2 }')
  redis-cli -p "$PORT" shutdown nosave >/dev/null 2>&1 || true
  wait
  ir=$(grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}')
  per=$((ir / calls))
  echo "$c${pre:+ (after $pre)}: $per instructions per FCALL over $calls calls"
  COUNTS[$c]=$per
  if [ -n "${KEEP:-}" ]; then cp "$out" "/tmp/cg.$c.out"; fi
  rm -f "$out"
done
# issue 28's target, as written: a window limit's server CPU per call at most 2x a token bucket's in the same run
if [ -n "${COUNTS[tb]:-}" ]; then
  for c in "${CASES[@]}"; do
    case "$c" in tb | bare | three) continue ;; esac
    ratio=$(awk -v w="${COUNTS[$c]}" -v t="${COUNTS[tb]}" 'BEGIN { printf "%.2f", w / t }')
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r <= 2 ? "met" : "MISSED") }')
    echo "target: $c's server instructions per call at most 2x a token bucket's: ${ratio}x ($verdict)"
  done
fi
