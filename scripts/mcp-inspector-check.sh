#!/usr/bin/env bash
# CI (after npm test, which builds dist/): published MCP clients, the MCP Inspector's CLI 2.x
# (npm registry; it needs Node 22, which the registry's `node` package runs) and 0.x, against two
# built servers (the second gives color-palette a limit of 1 run an hour): every tool with its
# basic example, and the refusals an agent must read (scripts/mcp-inspector-check.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# start_server VAR [NAME=VALUE...]: starts dist/src/server.js on a free port, sets VAR to its /mcp URL.
start_server() {
  local var=$1 port
  shift
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  # `env` execs node: the PID is the server's own.
  env PORT="$port" HOST=127.0.0.1 LOG_LEVEL=warn "$@" node dist/src/server.js &
  pids+=("$!")
  for _ in $(seq 1 150); do
    if curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; then
      printf -v "$var" 'http://127.0.0.1:%s/mcp' "$port"
      return
    fi
    sleep 0.2
  done
  echo "mcp-inspector-check: FAILED: the server on port $port did not become ready" >&2
  exit 1
}

echo '{"tools": {"color-palette": {"limit": 1, "burst": 0, "windowSec": 3600}}}' >"$tmp/policy.json"
start_server url
start_server limited_url POLICY_FILE="$tmp/policy.json"
# In the background, so that a signal runs the trap at once (tsx passes it on to its child).
node_modules/.bin/tsx scripts/mcp-inspector-check.ts "$url" "$limited_url" &
pids+=("$!")
wait "$!"
