#!/usr/bin/env bash
# The README's test command: set up (once) and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
exec .venv/bin/python -m pytest "$@"
