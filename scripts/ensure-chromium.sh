#!/usr/bin/env bash
# The browser tests use Debian's Chromium (Playwright cannot download its own here), a CJK font so
# Japanese text renders as glyphs, not tofu boxes, in the pages they check, and a font with
# KickLang's channel sign ⫻ (U+2AFB), which no font Chromium brings along has (Symbola, 1.3 MB, does).
set -euo pipefail
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
missing=()
[ -x "$chromium_path" ] || missing+=(chromium)
# Not `grep -q`: it exits at the first match, and pipefail then reports fc-list's broken pipe.
if ! { command -v fc-list >/dev/null && fc-list | grep -i cjk >/dev/null; }; then missing+=(fonts-noto-cjk); fi
if ! { command -v fc-list >/dev/null && [ -n "$(fc-list ':charset=2afb')" ]; }; then missing+=(fonts-symbola); fi
if [ "${#missing[@]}" = 0 ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's ${missing[*]} for the browser tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  exit 0
fi
echo "The browser tests need ${missing[*]}: run 'sudo apt-get install ${missing[*]}'$( [ -x "$chromium_path" ] || echo ", or set CHROMIUM_PATH")." >&2
exit 1
