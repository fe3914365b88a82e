#!/usr/bin/env bash
# The README's test command: set up (once) and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
# Compiled bytecode is kept (__pycache__, ignored by git) even where the environment asks not
# to: otherwise every worker re-rewrote every test module's assertions and each of the hundreds
# of `main.py` processes the tests start compiled the whole app again.
unset PYTHONDONTWRITEBYTECODE
exec .venv/bin/python -m pytest "$@"
