#!/usr/bin/env bash
# Makes `pnpm` (the version pinned in package.json) available on PATH. Sourced by the other scripts.
# (the root's package.json, wherever this is sourced from: a package's own has no packageManager)
want=$(node -p "require(require('node:path').resolve(process.argv[1], '..', 'package.json')).packageManager.split('@')[1]" "$(dirname "${BASH_SOURCE[0]}")")
[ -n "$want" ] || { echo "no packageManager in the root package.json" >&2; return 1 2>/dev/null || exit 1; }
if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$want" ]; then
  echo "installing pnpm@$want" >&2
  npm install -g --silent "pnpm@$want" >&2 || { echo "could not install pnpm@$want with npm" >&2; exit 1; }
  hash -r
fi
