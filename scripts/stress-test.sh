#!/usr/bin/env bash
# Runs `npm test` while four busy-loop processes load the machine, as a shared 2-core CI box
# under other jobs does: the suite must pass anyway (no test may assert elapsed time or need a
# timer to fire on time). Pass a count to run it several times in a row (default 1), and any
# further arguments go to vitest:
#
#   bash scripts/stress-test.sh          # once
#   bash scripts/stress-test.sh 3        # three times in a row; stops at the first failure
#
# It heavily loads the machine for as long as it runs.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-1}"
shift || true
busy=4

pids=()
stop_load() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
}
trap stop_load EXIT INT TERM

for _ in $(seq "$busy"); do
  # A pure busy loop: a process that only spins, at normal priority.
  node -e 'for (;;) {}' &
  pids+=("$!")
done
echo "[stress] ${busy} busy-loop processes started ($(nproc) cores)"

for run in $(seq "$runs"); do
  echo "[stress] run ${run} of ${runs}: npm test $*"
  start=$(date +%s)
  if ! npm test -- "$@"; then
    echo "[stress] run ${run} FAILED after $(($(date +%s) - start)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
    exit 1
  fi
  echo "[stress] run ${run} passed in $(($(date +%s) - start)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "[stress] ${runs} run(s) passed under load"
