#!/usr/bin/env bash
# The VS Code extension in CI: installs the locked npm packages, runs the
# grammar tests and the node tests, builds icp2c-0.1.0.vsix and checks what
# it holds: the manifest, the client, the grammars and the language
# configurations, and of node_modules only the language client and what it
# needs at run time (no devDependency, no package-lock, no tests). Ends
# with one summary line.
set -euo pipefail
cd "$(dirname "$0")"
start=$SECONDS
vsix=icp2c-0.1.0.vsix

echo "== editors/vscode: npm ci"
npm ci --no-audit --no-fund --loglevel=error

echo "== editors/vscode: grammar tests (vscode-tmgrammar-test)"
grammar_out=$(npm run --silent test:grammar 2>&1) || { echo "$grammar_out"; exit 1; }
echo "$grammar_out"
grammar_files=$(grep -c 'run successfuly' <<<"$grammar_out" || true)

echo "== editors/vscode: node tests (examples and references, the client)"
node_out=$(node --test tests/ 2>&1) || { echo "$node_out"; exit 1; }
grep -E '^(not )?ok |^# (tests|pass|fail)' <<<"$node_out"
node_pass=$(sed -n 's/^# pass //p' <<<"$node_out")

echo "== editors/vscode: vsce package"
rm -f "$vsix"
npm run --silent package
[ -s "$vsix" ] || { echo "ci.sh: $vsix was not built" >&2; exit 1; }

echo "== editors/vscode: what $vsix holds"
listing=$(mktemp)
unpacked=$(mktemp -d)
trap 'rm -rf "$listing" "$unpacked"' EXIT
unzip -Z1 "$vsix" > "$listing"
for f in extension/package.json extension/extension.js extension/LICENSE.txt extension/readme.md \
  extension/syntaxes/infchesspro.tmLanguage.json extension/syntaxes/finvara.tmLanguage.json \
  extension/syntaxes/cheg.tmLanguage.json extension/language-configuration/infchesspro.json \
  extension/language-configuration/finvara.json extension/language-configuration/cheg.json \
  extension/node_modules/vscode-languageclient/node.js; do
  grep -qxF "$f" "$listing" || { echo "ci.sh: $vsix lacks $f" >&2; exit 1; }
done
# The top-level packages under node_modules/ must be exactly the production
# dependency tree (`npm ls --omit=dev`): the client and its dependencies.
shipped=$(sed -n 's|^extension/node_modules/\(@[^/]*/[^/]*\)/.*|\1|p; s|^extension/node_modules/\([^@/][^/]*\)/.*|\1|p' "$listing" | sort -u)
wanted=$(npm ls --omit=dev --all --parseable 2>/dev/null | sed -n 's|^.*/editors/vscode/node_modules/\([^/]*\)$|\1|p; s|^.*/editors/vscode/node_modules/\(@[^/]*/[^/]*\)$|\1|p' | sort -u)
if [ "$shipped" != "$wanted" ]; then
  echo "ci.sh: $vsix ships node_modules packages other than the client's tree:" >&2
  diff <(echo "$wanted") <(echo "$shipped") >&2 || true
  exit 1
fi
for bad in '^extension/tests/' '^extension/ci\.sh$' '^extension/package-lock\.json$' '\.vsix$' \
  '^extension/node_modules/(@vscode/vsce|vscode-tmgrammar-test|vscode-textmate|vscode-oniguruma)/'; do
  if grep -Eq "$bad" "$listing"; then
    echo "ci.sh: $vsix holds what it should not: $(grep -E "$bad" "$listing" | head -n 3 | tr '\n' ' ')" >&2
    exit 1
  fi
done
# The packaged client loads with the packaged language client (only the
# `vscode` module, which VS Code provides, is a stand-in).
unzip -q "$vsix" -d "$unpacked"
node -e '
const Module = require("module");
const load = Module._load;
const stub = { get: (t, k) => (k in t ? t[k] : (t[k] = new Proxy(function () {}, stub))) };
Module._load = function (request, ...rest) {
  return request === "vscode" ? new Proxy(function () {}, stub) : load.call(this, request, ...rest);
};
const ext = require(process.argv[1] + "/extension/extension.js");
if (typeof ext.activate !== "function" || typeof ext.deactivate !== "function") throw new Error("no activate/deactivate");
' "$unpacked"

files=$(wc -l < "$listing")
size=$(wc -c < "$vsix")
echo "editors/vscode: ${grammar_files} grammar test files passed, ${node_pass} node tests passed, $vsix built ($((size / 1024)) KiB, ${files} files) in $((SECONDS - start))s"
