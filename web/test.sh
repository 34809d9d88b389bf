#!/usr/bin/env bash
# The playground's browser test (web/test.mjs): needs web/dist (web/build.sh),
# the native icp2c (built here when missing), Debian's Chromium (at
# /usr/bin/chromium, or $CHROMIUM) and the npm packages.
set -euo pipefail
cd "$(dirname "$0")"
if [ ! -x ../target/release/icp2c ]; then
  (cd .. && cargo build --release --bin icp2c)
fi
[ -f dist/index.html ] || ./build.sh
node test.mjs --chromium "${CHROMIUM:-/usr/bin/chromium}"
