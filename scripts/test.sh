#!/usr/bin/env bash
# Every test: unit tests beside the code (vitest), then the browser tests (Playwright in
# Debian's Chromium) against a fresh production build.
set -euo pipefail
cd "$(dirname "$0")/.."
node_modules/.bin/vitest run
bash scripts/ensure-chromium.sh
node_modules/.bin/next build
node_modules/.bin/playwright test
