#!/usr/bin/env bash
# The playground in CI (.ci/run): installs what it needs (the wasm32 target,
# the npm packages, Debian's Chromium), checks the WebAssembly crate, builds
# web/dist and runs the browser test. When an install is refused, it says
# in one line what was missing and skips what needs it: without Chromium
# the page is still built; without the target or the packages it cannot be.
set -uo pipefail
cd "$(dirname "$0")"

missing=()
# Where the browser test finds Chromium (Debian's package installs it there).
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown >/dev/null 2>&1 ||
    missing+=("the wasm32-unknown-unknown target (rustup target add)")
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  missing+=("node and npm")
elif ! npm ci --no-audit --no-fund >/dev/null 2>&1; then
  missing+=("the npm packages (npm ci)")
fi

if [ ! -x "$CHROMIUM" ]; then
  if command -v apt-get >/dev/null; then
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } >/dev/null 2>&1
  fi
  [ -x "$CHROMIUM" ] || missing+=("Debian's chromium (apt-get install chromium)")
fi

can_build=yes
for m in "${missing[@]}"; do
  case "$m" in *chromium*) ;; *) can_build=no ;; esac
done

set -e
if [ "$can_build" = yes ]; then
  echo "== web/wasm: unit tests and formatting"
  (cd wasm && cargo fmt --check && cargo test --quiet)
  echo "== web/build.sh"
  ./build.sh
fi
if [ ${#missing[@]} -gt 0 ]; then
  what=$(IFS=';'; echo "${missing[*]}" | sed 's/;/, /g')
  if [ "$can_build" = yes ]; then
    echo "web/ci.sh: skipped the browser test: missing $what"
  else
    echo "web/ci.sh: skipped the playground's build and browser test: missing $what"
  fi
  exit 0
fi
echo "== web/test.sh (headless Chromium)"
./test.sh
