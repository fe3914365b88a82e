#!/usr/bin/env bash
# The README's run command: set up (once) and start the app. Arguments go to main.py,
# e.g. `scripts/run.sh --web --port 8550` or `scripts/run.sh search "slow play"`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
exec .venv/bin/python main.py "$@"
