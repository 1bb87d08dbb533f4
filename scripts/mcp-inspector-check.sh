#!/usr/bin/env bash
# CI: a published MCP client, the MCP Inspector's CLI (npm registry; it needs Node 22, which
# the registry's `node` package runs), lists the tools of the built server and calls one.
set -euo pipefail
cd "$(dirname "$0")/.."
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
PORT=$port HOST=127.0.0.1 LOG_LEVEL=warn node dist/src/server.js &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
inspect() { npx -y -p node@22 -p @modelcontextprotocol/inspector@2.12.0 -- mcp-inspector --cli "http://127.0.0.1:$port/mcp" --transport http "$@" 2>/dev/null; }
inspect --method tools/list | grep -q '"name": "token-counter"'
inspect --method tools/call --tool-name token-counter --tool-arg text=hello | grep -q '"tokens": 1'
inspect --method resources/list | grep -q 'toolhub://skills/token-counter/SKILL.md'
echo "MCP Inspector CLI: tools/list, tools/call and resources/list answered as expected"
