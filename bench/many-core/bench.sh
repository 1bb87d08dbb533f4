#!/bin/bash
# Side-by-side scenarios of npm run bench on the many-core box (docs/benchmarks.md, "The result
# cache"), from the repository root with .many-core/ (bench/many-core/pack.sh) beside it: Redis
# alone on core 15, the harness and the servers on the others. ONLY, D and C choose the scenarios,
# their seconds and connections.
set -u
M=${PACK:-$PWD/.many-core}
mkdir -p /tmp/rt && tar -C /tmp/rt -xJf "$M/rt.tar.xz" && tar -C /tmp -xJf "$M/hub.tar.xz" || exit 1
export PATH=/tmp/rt/bin:$PATH LD_LIBRARY_PATH=/tmp/rt/lib
taskset -c 15 redis-server --daemonize yes --port 6390 --save '' --appendonly no --logfile /tmp/redis.log
sleep 0.5
cd /tmp/mc
REDIS_URL=redis://127.0.0.1:6390 node node_modules/tsx/dist/cli.mjs bench/run.ts --only ${ONLY:-hub-run-cache-hit,ref-post,hub-run-redis} --rounds 3 --duration ${D:-8} --connections ${C:-64} 2>&1 | tee "${OUT:-/tmp}/bench.txt" | grep -E "^\||ratio|hub-run|ref-post" | head -60
