#!/usr/bin/env bash
# Installs pnpm and the dependencies, builds, and runs the demo on the in-process limiter (no Redis needed).
# Extra arguments go to the demo, e.g. `bash scripts/demo.sh --help`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-pnpm.sh
pnpm install --frozen-lockfile
pnpm run demo "$@"
