#!/usr/bin/env bash
# The README's test command: set up (once) and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test]"
fi
exec .venv/bin/python -m pytest "$@"
