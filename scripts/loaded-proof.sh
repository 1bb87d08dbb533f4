#!/usr/bin/env bash
# The whole suite N times in a row (default 3) beside a CPU-heavy neighbour: the benchmark in
# quick mode, looping, in a process group of its own that is killed by its id at the end.
# README, "Proven on a loaded machine". Usage: bash scripts/loaded-proof.sh [N]
set -u
cd "$(dirname "$0")/.."
runs=${1:-3}
npm run build >/dev/null || exit 1
setsid bash -c 'while true; do npx tsx bench/run.ts --quick >/dev/null 2>&1; done' &
neighbour=$!
stop() { kill -TERM -- "-$neighbour" 2>/dev/null; sleep 2; kill -KILL -- "-$neighbour" 2>/dev/null; }
trap stop EXIT
sleep 20 # the neighbour's first servers are up and loading the cores
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date -u +%FT%TZ)
  npx vitest run >"/tmp/loaded-proof-$i.log" 2>&1
  rc=$?
  [ "$rc" -eq 0 ] || failed=1
  summary=$(sed 's/\x1b\[[0-9;]*m//g' "/tmp/loaded-proof-$i.log" | grep -E '^ +Tests ' | tr -s ' ')
  echo "run $i: $start to $(date -u +%TZ), exit $rc, load $(cut -d' ' -f1-3 /proc/loadavg);$summary"
done
exit "$failed"
