#!/usr/bin/env bash
# Starts Debian's chromium with every --disable-features switch merged into one: chromium reads only the
# last one, and Playwright passes its own list before ours (browser.ts adds the features to turn off).
set -euo pipefail
features=()
args=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) features+=("${arg#--disable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
if [ ${#features[@]} -gt 0 ]; then
  joined=$(IFS=,; echo "${features[*]}")
  args+=("--disable-features=$joined")
fi
exec "${PORTICO_CHROMIUM_BINARY:-/usr/bin/chromium}" "${args[@]}"
