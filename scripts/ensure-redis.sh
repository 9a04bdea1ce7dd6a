#!/usr/bin/env bash
# Makes `redis-server` and `redis-cli` available for the tests, installing Debian's package when missing.
# The tests start their own servers on free loopback ports; this script never starts, stops or touches one.
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  exit 0
fi
echo "redis-server not found: installing Debian's redis-server package" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 && $SUDO apt-get install -y -qq --no-install-recommends redis-server >&2 || {
  echo "could not install redis-server; install it (apt-get install redis-server) and run again" >&2
  exit 1
}
command -v redis-server >/dev/null 2>&1 || { echo "redis-server still missing after install" >&2; exit 1; }
