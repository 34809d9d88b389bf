#!/usr/bin/env bash
# Installs what the CHEG engine benchmarks and game tests use, and nothing
# the build needs: Debian's `stockfish` package (apt-get, with sudo when not
# root) and PyPI's `chess` (python-chess) in a virtual environment at
# benches/.venv. Safe to run again: it installs only what is missing.
# Usage: bash benches/setup.sh [--python-only]   (prints the python to use
# on its last line; --python-only skips Stockfish, which the tests do not use)
set -euo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" != --python-only ] && ! command -v stockfish >/dev/null && [ ! -x /usr/games/stockfish ]; then
  echo "installing stockfish (Debian package)" >&2
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y stockfish >&2 || { apt-get update >&2 && apt-get install -y stockfish >&2; }
  else
    sudo apt-get install -y stockfish >&2 || { sudo apt-get update >&2 && sudo apt-get install -y stockfish >&2; }
  fi
fi
if [ ! -x .venv/bin/python ]; then
  echo "creating benches/.venv" >&2
  python3 -m venv .venv >&2
fi
if ! .venv/bin/python -c 'import chess' 2>/dev/null; then
  echo "installing python-chess into benches/.venv" >&2
  .venv/bin/pip install --quiet chess >&2
fi
echo "$(pwd)/.venv/bin/python"
