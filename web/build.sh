#!/usr/bin/env bash
# Builds the playground into web/dist/: index.html, style.css, main.js and
# worker.js (bundled with esbuild) and icp2c.wasm (web/wasm, the library
# built for wasm32-unknown-unknown, then shrunk by binaryen's wasm-opt).
# Needs rustup, cargo, node and npm; installs the wasm target and the npm
# packages (package-lock.json) itself. Serve the result with any static
# file host:
#   python3 -m http.server -d web/dist
set -euo pipefail
cd "$(dirname "$0")"

MAX_WASM=$((1536 * 1024)) # 1.5 MB: the page downloads it

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "== rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

echo "== npm packages"
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi

echo "== the library for WebAssembly (web/wasm)"
# Panic locations name source files: map the checkout and cargo's home to
# fixed names, so that the module is the same wherever they are.
repo=$(cd .. && pwd)
cargo_home=${CARGO_HOME:-$HOME/.cargo}
(cd wasm && RUSTFLAGS="--remap-path-prefix=$repo=/icp2c --remap-path-prefix=$cargo_home=/cargo" \
  cargo build --release --lib --target wasm32-unknown-unknown)
built=wasm/target/wasm32-unknown-unknown/release/icp2c_web.wasm
rm -rf dist
mkdir -p dist build
# The features rustc's wasm32-unknown-unknown target enables, and no more.
npx --no-install wasm-opt -Oz --enable-bulk-memory --enable-sign-ext \
  --enable-nontrapping-float-to-int --enable-mutable-globals \
  --enable-reference-types --enable-multivalue "$built" -o dist/icp2c.wasm
size=$(wc -c < dist/icp2c.wasm)
echo "icp2c.wasm: $size bytes ($(wc -c < "$built") before wasm-opt)"
if [ "$size" -gt "$MAX_WASM" ]; then
  echo "error: icp2c.wasm is $size bytes, more than $MAX_WASM" >&2
  exit 1
fi

echo "== the page"
node tools/examples.mjs > build/examples.json
cp index.html style.css dist/
npx --no-install esbuild src/main.js src/worker.js --bundle --format=esm --minify \
  --target=es2022 --outdir=dist --log-level=warning
ls -l dist
