#!/usr/bin/env bash
# The LSP end-to-end test: `icp2c lsp` driven by pytest-lsp (tests/lsp/README.md).
# Usage: tests/lsp/run.sh [ICP2C]   (default target/release/icp2c; a relative
# path is taken from the repository's root)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
server="${1:-target/release/icp2c}"
venv="$root/target/lsp-venv"
started=$SECONDS

skip() {
    local reason
    reason="$(printf '%s\n' "$1" | grep -v '^[[:space:]]*$' | tail -n 1 | sed 's/^[[:space:]]*//')"
    echo "skipped: the LSP end-to-end test needs pytest-lsp from PyPI (${reason:-$2})"
    exit 0
}
if [[ ! -x "$venv/bin/python" ]]; then
    log="$(python3 -m venv "$venv" 2>&1)" || skip "$log" "python3 -m venv failed"
fi
# The venv keeps a copy of the requirements it has: pip runs when they change.
if ! cmp -s tests/lsp/requirements.txt "$venv/requirements.txt"; then
    log="$("$venv/bin/python" -m pip install --quiet --disable-pip-version-check --retries 1 \
        -r tests/lsp/requirements.txt 2>&1)" || skip "$log" "pip install failed"
    cp tests/lsp/requirements.txt "$venv/requirements.txt"
fi

status=0
ICP2C="$server" PYTHONDONTWRITEBYTECODE=1 \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/lsp || status=$?
echo "tests/lsp: $((SECONDS - started)) s"
exit "$status"
