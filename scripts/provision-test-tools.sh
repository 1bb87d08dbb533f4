#!/usr/bin/env bash
# `npm test`'s first step (package.json "pretest"): the two system tools the suite needs
# and npm cannot install (README, "Development"), provisioned from Debian's packages.
#
# - promtool (the /metrics scrape, the alert rules and their unit tests, test/deploy.test.ts):
#   taken out of Debian's `prometheus` package into $TEST_TOOLS_DIR/bin, where the tests look
#   when it is not on PATH (test/promtool.ts). Installing that package would start a
#   Prometheus server on machines whose init lets it; one binary is all the tests need.
# - prometheus_client (the reference OpenMetrics parser, for the exemplars of /metrics,
#   test/tracing.test.ts): taken out of Debian's `python3-prometheus-client` into
#   $TEST_TOOLS_DIR/python, which test/openmetrics.ts puts on python3's path.
# - chromium (the tool pages in a browser, test/pages-browser.test.ts): Debian's `chromium`,
#   installed with apt-get as root; playwright-core drives it (never a downloaded build).
#
# Present tools cost nothing. When something is missing and cannot be provisioned here
# (not root, no apt-get), one line says what to install and the script fails.
set -euo pipefail
cd "$(dirname "$0")/.."
tools_dir=${TEST_TOOLS_DIR:-node_modules/.cache/test-tools}
# Where Debian's package puts chromium (test/provision-test-tools.test.ts points it elsewhere).
debian_chromium=${DEBIAN_CHROMIUM:-/usr/bin/chromium}
chromium=${CHROMIUM_PATH:-$debian_chromium}
is_root=false
[ "$(id -u)" = 0 ] && is_root=true
has_apt=false
command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 && has_apt=true
updated=false
apt_update() {
  $updated || apt-get update -qq >/dev/null
  updated=true
}

missing=()
if ! command -v promtool >/dev/null 2>&1 && [ ! -x "$tools_dir/bin/promtool" ] && $has_apt; then
  work=$(mktemp -d)
  # Without a package list (a fresh machine), only root can fetch one.
  fetch() { (cd "$work" && apt-get download -qq prometheus >/dev/null 2>&1); }
  fetch || { $is_root && apt_update && fetch; } || true
  deb=$(find "$work" -maxdepth 1 -name 'prometheus_*.deb' -print -quit)
  if [ -n "$deb" ]; then
    dpkg-deb -x "$deb" "$work/root"
    mkdir -p "$tools_dir/bin"
    cp "$work/root/usr/bin/promtool" "$tools_dir/bin/promtool"
    chmod 755 "$tools_dir/bin/promtool"
    echo "provision-test-tools: promtool taken from Debian's package prometheus into $tools_dir/bin" >&2
  fi
  rm -rf "$work"
fi
command -v promtool >/dev/null 2>&1 || [ -x "$tools_dir/bin/promtool" ] || missing+=(prometheus)

om_parser="$tools_dir/python/prometheus_client/openmetrics/parser.py"
if [ ! -f "$om_parser" ] && $has_apt; then
  work=$(mktemp -d)
  fetch() { (cd "$work" && apt-get download -qq python3-prometheus-client >/dev/null 2>&1); }
  fetch || { $is_root && apt_update && fetch; } || true
  deb=$(find "$work" -maxdepth 1 -name 'python3-prometheus-client_*.deb' -print -quit)
  if [ -n "$deb" ]; then
    dpkg-deb -x "$deb" "$work/root"
    mkdir -p "$tools_dir/python"
    cp -r "$work/root/usr/lib/python3/dist-packages/prometheus_client" "$tools_dir/python/"
    echo "provision-test-tools: prometheus_client taken from Debian's package python3-prometheus-client into $tools_dir/python" >&2
  fi
  rm -rf "$work"
fi
[ -f "$om_parser" ] || missing+=(python3-prometheus-client)

# A CHROMIUM_PATH of the user's own is theirs to fix: Debian's package would not land there.
if [ ! -x "$chromium" ] && [ -z "${CHROMIUM_PATH:-}" ] && $is_root && $has_apt; then
  apt_update
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "provision-test-tools: installed Debian's chromium" >&2
fi
note=''
if [ ! -x "$chromium" ]; then
  missing+=(chromium)
  [ -z "${CHROMIUM_PATH:-}" ] || note="; CHROMIUM_PATH=$chromium is not an executable: unset it or point it at one"
fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "provision-test-tools: npm test needs Debian's packages ${missing[*]}: run 'apt-get install -y ${missing[*]}' as root (npm test run as root does it)$note" >&2
  exit 1
fi
