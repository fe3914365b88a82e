"""One device of the sync simulation (tests/test_sync_simulation.py): a process that runs
`main.py` commands on its own data folder ($PENALTY_GUIDE_DATA_DIR) as they come on stdin, one
JSON list of arguments a line, and answers each with one JSON line {"rc", "out", "err"}.

A process per device, not a process per command: starting Python and loading the data takes
about a second here, which would make the simulation take minutes."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import main


def run(argv: list[str]) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main.main(argv)
        except SystemExit as exit_:  # argparse
            rc = int(exit_.code or 0)
    return {"rc": rc, "out": out.getvalue(), "err": err.getvalue()}


def serve() -> None:
    sys.__stdout__.write('{"ready": true}\n')
    sys.__stdout__.flush()
    for line in sys.stdin:
        answer = run(json.loads(line))
        sys.__stdout__.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.__stdout__.flush()


if __name__ == "__main__":
    serve()
