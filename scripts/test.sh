#!/usr/bin/env bash
# Runs every test from a clean clone: installs pnpm and the dependencies, makes sure redis-server and luacheck exist,
# builds, typechecks, lints (Biome, the Lua scripts, the packages, the README examples), runs every package's tests
# (unit, property, conformance, Redis standalone and cluster, multi-process safety, emulated venues), then packs
# every package, installs the tarballs with plain npm in a fresh project and runs every README example there.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-pnpm.sh
bash scripts/ensure-redis.sh
bash scripts/ensure-luacheck.sh
export TURBO_TELEMETRY_DISABLED=1
pnpm install --frozen-lockfile
pnpm run build
pnpm run typecheck
pnpm run lint
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
pnpm run test 2>&1 | tee "$log" || status=$?
# The lint step's own tests: it fails on what it must catch.
node --test scripts/lint.test.mjs scripts/check-layout.test.mjs 2>&1 | tee -a "$log" || status=$?
# Packages that install like any other: pnpm pack, plain npm outside the workspace, every README example run.
node --test scripts/pack-install.test.mjs 2>&1 | tee -a "$log" || status=$?
node scripts/test-totals.mjs < "$log"
exit "$status"
