#!/usr/bin/env bash
# Installs the system programs the test suite drives, when a fresh machine lacks them:
# Debian's Chromium (the browser tests; no browser is ever downloaded) and poppler's pdftoppm
# (the sign tests rasterise every PDF with it, an independent PDF reader).
set -euo pipefail

say() { printf 'test-deps: %s\n' "$*" >&2; }

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v pdftoppm >/dev/null || missing+=(poppler-utils)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { say "installing ${missing[*]} needs root (or sudo)"; exit 1; }
  sudo="sudo"
fi
say "installing ${missing[*]} from Debian's packages"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
