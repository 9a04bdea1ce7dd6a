#!/usr/bin/env bash
# Makes `luacheck` available for `pnpm lint` (scripts/lint-lua.mjs), installing Debian's lua-check package when missing.
if command -v luacheck >/dev/null 2>&1; then
  exit 0
fi
echo "luacheck not found: installing Debian's lua-check package" >&2
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2 && $SUDO apt-get install -y -qq --no-install-recommends lua-check >&2 || {
  echo "could not install lua-check; install it (apt-get install lua-check) and run again" >&2
  exit 1
}
command -v luacheck >/dev/null 2>&1 || { echo "luacheck still missing after install" >&2; exit 1; }
