#!/usr/bin/env bash
# Installs what the tests need from Debian's packages when missing: Chromium for Playwright
# (browsers cannot be downloaded here), a PostgreSQL server for the server-database run and HAProxy
# for the cluster test.
set -euo pipefail

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || need+=(postgresql)
# The cluster test's load balancer (scripts/cluster.js).
[ -x /usr/sbin/haproxy ] || need+=(haproxy)

if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "Installing from Debian: ${need[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
