#!/bin/bash
# The many-core measurement (docs/benchmarks.md, "Every core of the box"), run from the
# repository root on the many-core machine with .many-core/ (bench/many-core/pack.sh) beside
# it: Redis on core 15, the processes under test on cores 0-11, the load generator on 12-14.
# B: N hub processes (HUB_PROCESSES) and bare fastify driven by autocannon with 3 worker
# threads, Redis CPU per answer from /proc; A: the bench's own scaling stage.
# DIRECT="N:threads ..." and BARE="N ..." choose the steps; D the seconds of each; SCALING=0
# skips A. With .many-core/base.tar.xz (pack.sh with BASE=<commit>) each step of B runs on
# that build too, A before B, on the same Redis: the side-by-side of a change on many cores.
set -u
HUBC=${HUBC:-0-11} GENC=${GENC:-12-14} REDC=${REDC:-15} D=${D:-10} RP=6390 OUT=${OUT:-/tmp/out}
M=${PACK:-$PWD/.many-core}
mkdir -p /tmp/rt && tar -C /tmp/rt -xJf "$M/rt.tar.xz" && tar -C /tmp -xJf "$M/hub.tar.xz" || exit 1
TREES=/tmp/mc
if [ -f "$M/base.tar.xz" ]; then
  tar -C /tmp -xJf "$M/base.tar.xz" && ln -sfn /tmp/mc/node_modules /tmp/mc-base/node_modules || exit 1
  TREES="/tmp/mc-base /tmp/mc"
fi
export PATH=/tmp/rt/bin:$PATH LD_LIBRARY_PATH=/tmp/rt/lib
node --version; nproc; lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket|NUMA node\(s\)"
taskset -c $REDC redis-server --daemonize yes --port $RP --save '' --appendonly no --logfile /tmp/redis.log
sleep 0.5; RPID=$(pgrep -f "redis-server.*:$RP"); echo "redis pid $RPID"
cd /tmp/mc
echo '{"tools":{"token-counter":{"limit":100000000,"burst":0,"computeBudgetMs":1e12,"maxInFlight":100000,"maxInFlightPerClient":100000}}}' > /tmp/fast.json
ticks() { awk '{print $14+$15}' /proc/$1/stat; }
# Script calls so far and their execution µs (INFO commandstats): calls per answer say how many
# runs a call carries.
evals() { node -e "const R=require('/tmp/mc/node_modules/ioredis');const r=new R($RP);r.info('commandstats').then(s=>{const m=/cmdstat_evalsha:calls=(\\d+),usec=(\\d+)/.exec(s)||[0,0,0];console.log(m[1]+' '+m[2]);r.disconnect()})"; }
BODY='{"toolId":"token-counter","input":{"a":"Count the tokens of this short sentence."}}'
# B: N hub processes on cores 0-11, autocannon with 3 worker threads on 12-14 (no single-thread ceiling)
direct() { # $1 = processes, $2 = pool threads per process, $3 = the build (a tree)
  (cd "$3" && PORT=$((18000 + $1)) HOST=127.0.0.1 LOG_LEVEL=warn POLICY_FILE=/tmp/fast.json REDIS_URL=redis://127.0.0.1:$RP \
    REDIS_PREFIX="d$1$(basename $3):" HUB_PROCESSES=$1 POOL_THREADS=$2 exec taskset -c $HUBC node dist/src/server.js > /tmp/hub$1.log 2>&1) &
  local hub=$!
  node -e "const u='http://127.0.0.1:$((18000 + $1))/readyz';(async()=>{for(let i=0;i<150;i++){try{if((await fetch(u)).ok)return}catch{}await new Promise(r=>setTimeout(r,200))}console.log('hub not ready')})()"
  taskset -c $GENC node node_modules/autocannon/autocannon.js -w 3 -c 256 -d 3 -m POST -H 'content-type: application/json' -b "$BODY" "http://127.0.0.1:$((18000 + $1))/api/tools/run/" > /dev/null 2>&1
  local e0=($(evals)) r0=$(ticks $RPID)
  taskset -c $GENC node node_modules/autocannon/autocannon.js -j -w 3 -c 256 -d $D -m POST -H 'content-type: application/json' -b "$BODY" "http://127.0.0.1:$((18000 + $1))/api/tools/run/" > /tmp/ac$1.json 2>/dev/null
  local r1=$(ticks $RPID) e1=($(evals))
  node -e "const r=require('/tmp/ac$1.json'); const ok=r['2xx']; console.log('direct $(basename $3) N=$1 pool=$2: ' + (ok/r.duration).toFixed(0) + ' answers/s, non2xx ' + r.non2xx + ', p99 ' + r.latency.p99 + ' ms, Redis ' + (($r1-$r0)*1e4/ok).toFixed(1) + ' us/answer, script calls/answer ' + ((${e1[0]}-${e0[0]})/ok).toFixed(3) + ', ' + ((${e1[1]}-${e0[1]})/Math.max(1,${e1[0]}-${e0[0]})).toFixed(1) + ' us each')"
  kill -TERM $hub; wait $hub
}
bare() { # $1 = processes: bare fastify POST (bench/ref-server.mjs) under the same generator
  REF_PROCESSES=$1 taskset -c $HUBC node bench/ref-server.mjs post > /tmp/ref$1.out 2>&1 &
  local ref=$!
  for i in $(seq 1 100); do grep -q port /tmp/ref$1.out 2>/dev/null && break; sleep 0.1; done
  local port=$(node -e "console.log(JSON.parse(require('fs').readFileSync('/tmp/ref$1.out','utf8').split('\\n')[0]).port)")
  taskset -c $GENC node node_modules/autocannon/autocannon.js -j -w 3 -c 256 -d $D -m POST -H 'content-type: application/json' -b "$BODY" "http://127.0.0.1:$port/" > /tmp/bare$1.json 2>/dev/null
  node -e "const r=require('/tmp/bare$1.json'); console.log('bare fastify N=$1: ' + (r['2xx']/r.duration).toFixed(0) + ' req/s, p99 ' + r.latency.p99 + ' ms')"
  kill -TERM $ref; wait $ref
}
for n in ${BARE:-1 6}; do bare $n; done
for spec in ${DIRECT:-1:4 4:3 6:2 8:1}; do for tree in $TREES; do direct ${spec%:*} ${spec#*:} $tree; done; done
[ "${SCALING:-1}" = 0 ] && { kill $RPID; exit 0; }
# A: the bench's scaling stage (one autocannon thread in the harness: its ceiling shows in the bare column)
REDIS_URL=redis://127.0.0.1:$RP taskset -c $GENC node node_modules/tsx/dist/cli.mjs bench/run.ts --only none --rounds 3 --scaling 1,2,4,6 --duration $((D*6/10)) --connections 256 --cpus $HUBC 2>&1 | tee "$OUT/scaling.txt" | grep -v "^$"
kill $RPID
