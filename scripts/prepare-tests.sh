#!/usr/bin/env bash
# Everything the tests need that npm install does not bring. Idempotent and quiet when ready.
set -euo pipefail

# The browser tests drive Debian's Chromium through playwright-core (never a browser downloaded by npm).
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "prepare-tests: /usr/bin/chromium is missing; install it as root: apt-get update && apt-get install -y chromium" >&2
    exit 1
  fi
  echo "prepare-tests: installing chromium for the browser tests (once)..."
  log=$(mktemp)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "prepare-tests: could not install chromium" >&2
    exit 1
  fi
  rm -f "$log"
fi

# Caddy and nginx run in front of dist/parley with the shipped deploy/ files (test/deploy/);
# Prometheus (promtool and the server) reads /metrics (test/metrics/); sqlite3 loads the
# previous release's database for the upgrade test (test/upgrade/). Debian's packages, once.
wanted=()
command -v caddy >/dev/null || wanted+=(caddy)
command -v nginx >/dev/null || wanted+=(nginx)
command -v promtool >/dev/null || wanted+=(prometheus)
command -v sqlite3 >/dev/null || wanted+=(sqlite3)
if [ "${#wanted[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "prepare-tests: ${wanted[*]} missing; install as root: apt-get update && apt-get install -y --no-install-recommends ${wanted[*]}" >&2
    exit 1
  fi
  echo "prepare-tests: installing ${wanted[*]} for the deploy, metrics and upgrade tests (once)..."
  log=$(mktemp)
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${wanted[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    echo "prepare-tests: could not install ${wanted[*]}" >&2
    exit 1
  fi
  rm -f "$log"
fi
exit 0
