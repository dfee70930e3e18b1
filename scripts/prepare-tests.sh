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

# The PostgreSQL tests start their own throwaway cluster from Debian's binaries (test/support/postgres-cluster.ts).
# The package would make and start a cluster of its own: it is told not to (no cluster, no service start).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "prepare-tests: PostgreSQL is missing; install it as root: apt-get update && apt-get install -y postgresql" >&2
    exit 1
  fi
  echo "prepare-tests: installing postgresql for the PostgreSQL tests (once)..."
  log=$(mktemp)
  mkdir -p /etc/postgresql-common
  [ -e /etc/postgresql-common/createcluster.conf ] || echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf
  policy=/usr/sbin/policy-rc.d
  own_policy=0
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1; fi
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold postgresql; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    [ "$own_policy" -eq 0 ] || rm -f "$policy"
    echo "prepare-tests: could not install postgresql" >&2
    exit 1
  fi
  rm -f "$log"
  [ "$own_policy" -eq 0 ] || rm -f "$policy"
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
