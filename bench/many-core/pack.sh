#!/bin/bash
# Packs the hub for a many-core machine with no network and no Node.js (docs/benchmarks.md,
# "Every core of the box"): .many-core/rt.tar.xz (node, redis-server and their libraries)
# and .many-core/hub.tar.xz (HEAD built, production dependencies, tsx and autocannon for the
# harness). Run from the repository root after `npm ci`; ~2 minutes, ~50 MB. Add
# `/.many-core/` to .git/info/exclude so the pack travels only where it is carried.
# BASE=<commit> adds .many-core/base.tar.xz, that commit built (its source and dist, using
# HEAD's node_modules there: pack a base whose package-lock is HEAD's), for run.sh's A/B.
set -euo pipefail
root=$PWD
out=$root/.many-core
rm -rf "$out" /tmp/mc /tmp/mc-build /tmp/mc-tools
mkdir -p "$out/rt/bin" "$out/rt/lib"
cp "$(command -v node)" "$out/rt/bin/"
cp "$(readlink -f "$(command -v redis-server)")" "$out/rt/bin/redis-server"
for lib in liblzf.so.1 libjemalloc.so.2 libsystemd.so.0 libssl.so.3 libcrypto.so.3 libatomic.so.1 \
  libgcrypt.so.20 libgpg-error.so.0 liblz4.so.1 libzstd.so.1 liblzma.so.5 libcap.so.2; do
  cp -L "/lib/x86_64-linux-gnu/$lib" "$out/rt/lib/" 2>/dev/null || echo "not found: $lib"
done
tar -C "$out/rt" -cf - bin lib | xz -T2 -9 >"$out/rt.tar.xz" && rm -rf "$out/rt"

# HEAD, built with this checkout's dev dependencies; shipped with production ones only.
git clone -q "$root" /tmp/mc-build && ln -s "$root/node_modules" /tmp/mc-build/node_modules
(cd /tmp/mc-build && npm run build >/dev/null)
git clone -q "$root" /tmp/mc && cp -r /tmp/mc-build/dist /tmp/mc/dist
(cd /tmp/mc && npm ci --omit=dev >/dev/null 2>&1)
# The harness's own tools, at the versions package.json names (npm i would skip devDependencies).
mkdir /tmp/mc-tools && echo '{"name":"mc-tools","version":"1.0.0"}' >/tmp/mc-tools/package.json
(cd /tmp/mc-tools && npm i "autocannon@$(node -p "require('$root/package.json').devDependencies.autocannon")" \
  "tsx@$(node -p "require('$root/package.json').devDependencies.tsx")" >/dev/null 2>&1)
cp -rn /tmp/mc-tools/node_modules/. /tmp/mc/node_modules/
# recheck's optional Java and native back ends: the tools use its pure-JS one.
rm -rf /tmp/mc/node_modules/recheck-*
tar -C /tmp --exclude=mc/.git -cf - mc | xz -T2 -6 >"$out/hub.tar.xz"
rm -rf /tmp/mc-build /tmp/mc-tools
if [ -n "${BASE:-}" ]; then
  rm -rf /tmp/mc-base && git clone -q "$root" /tmp/mc-base && git -C /tmp/mc-base checkout -q "$BASE"
  ln -s "$root/node_modules" /tmp/mc-base/node_modules && (cd /tmp/mc-base && npm run build >/dev/null)
  rm /tmp/mc-base/node_modules
  tar -C /tmp --exclude=mc-base/.git -cf - mc-base | xz -T2 -6 >"$out/base.tar.xz"
  rm -rf /tmp/mc-base
fi
du -sh "$out"/*
