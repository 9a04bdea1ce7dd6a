#!/usr/bin/env bash
# Makes `pnpm` (the version pinned in package.json) available on PATH. Sourced by the other scripts.
want=$(node -p "require('./package.json').packageManager.split('@')[1]")
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
  echo "installing pnpm@$want" >&2
  npm install -g --silent "pnpm@$want" >&2 || { echo "could not install pnpm@$want with npm" >&2; exit 1; }
  hash -r
fi
