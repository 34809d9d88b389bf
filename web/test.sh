#!/usr/bin/env bash
# The playground's browser test (web/test.mjs): needs web/dist (web/build.sh),
# the native icp2c (built here, or brought up to date), Debian's Chromium (at
# /usr/bin/chromium, or $CHROMIUM) and the npm packages.
set -euo pipefail
cd "$(dirname "$0")"
# The page is compared with this build of icp2c: make sure it is current.
(cd .. && cargo build --release --bin icp2c --quiet)
[ -f dist/index.html ] || ./build.sh
node test.mjs --chromium "${CHROMIUM:-/usr/bin/chromium}"
