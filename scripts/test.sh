#!/usr/bin/env bash
# Every test: unit tests beside the code (vitest), then the browser tests (Playwright in Debian's
# Chromium) against a fresh production build. Both run even when the first fails; the last line
# sums both runners' JSON reports: "N passed, N failed" (", N skipped" when any). Exits 1 when
# anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
reports="$(mktemp -d "${TMPDIR:-/tmp}/mailroom-test-reports-XXXXXX")"
trap 'rm -rf "$reports"' EXIT
not_run=()

node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile.json="$reports/vitest.json"

if ! bash scripts/ensure-chromium.sh; then
  not_run+=("browser tests: no Chromium")
elif ! node_modules/.bin/next build; then
  not_run+=("browser tests: next build failed")
else
  PLAYWRIGHT_JSON_OUTPUT_FILE="$reports/playwright.json" node_modules/.bin/playwright test --reporter=list,json
fi

echo
node scripts/test-summary.mjs "$reports/vitest.json" "$reports/playwright.json" "${not_run[@]}"
