"""Peak memory and time of `main.py log import` on hostile files (issue 21, items 3 and 4).

Each import runs in a child of its own; its peak resident set is the kernel's (wait4's
ru_maxrss), so the figures are the whole process: Python, the regulation data and the import.

    .venv/bin/python bench/bench_hostile_imports.py [--records N]

The valid export of N records (default 100,000) is the comparison: what a real, large
import costs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.records_support import synthetic_export  # noqa: E402

MB = 1024 * 1024


def file_names(folder: Path, records: int) -> dict[str, Path]:
    return {
        "100,000 nested [": folder / "nested.json",
        "50 MB of {}": folder / "braces.json",
        "a 5000-digit round": folder / "digits.json",
        "a lone surrogate in a name": folder / "surrogate.json",
        "/dev/zero": Path("/dev/zero"),
        "a FIFO with no writer": folder / "fifo.json",
        f"a valid export of {records:,} records": folder / "valid.json",
    }


def hostile_files(folder: Path, records: int) -> dict[str, Path]:
    files = {}
    files["100,000 nested ["] = folder / "nested.json"
    files["100,000 nested ["].write_text("[" * 100_000)
    files["50 MB of {}"] = folder / "braces.json"
    files["50 MB of {}"].write_bytes(b"[" + b"{}," * (50 * MB // 3 - 1) + b"{}]")
    export = synthetic_export(3)
    export["records"][0]["round"] = "ROUND"
    files["a 5000-digit round"] = folder / "digits.json"
    files["a 5000-digit round"].write_text(json.dumps(export).replace('"ROUND"', "1" * 5000))
    export["records"][0]["round"] = 1
    export["records"][0]["player"]["name"] = "山田\ud800太郎"
    files["a lone surrogate in a name"] = folder / "surrogate.json"
    files["a lone surrogate in a name"].write_text(json.dumps(export))
    files["/dev/zero"] = Path("/dev/zero")
    files["a FIFO with no writer"] = folder / "fifo.json"
    os.mkfifo(files["a FIFO with no writer"])
    valid = synthetic_export(records)
    files[f"a valid export of {records:,} records"] = folder / "valid.json"
    files[f"a valid export of {records:,} records"].write_text(
        json.dumps(valid, ensure_ascii=False)
    )
    return files


def measure(path: Path, data_dir: Path) -> tuple[int, float, int, str]:
    """(peak KB, seconds, exit status, first line of stderr) of one import in a child."""
    env = dict(os.environ, PENALTY_GUIDE_DATA_DIR=str(data_dir))
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "main.py"), "log", "import", str(path)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None
    stderr = child.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - started
    lines = stderr.strip().splitlines()
    return usage.ru_maxrss, elapsed, child.returncode, lines[0] if lines else "(nothing)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--make", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.make:  # in a process of its own: the measuring one stays small, and its
        # children (forked from it) start small too; ru_maxrss counts from the fork
        hostile_files(Path(args.make), args.records)
        return
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        make = [sys.executable, __file__, "--records", str(args.records), "--make", temporary]
        subprocess.run(make, check=True)
        files = file_names(folder, args.records)
        print("| file | size | peak RSS | time | exit | says |")
        print("|---|---|---|---|---|---|")
        for index, (name, path) in enumerate(files.items()):
            size = path.stat().st_size if path.is_file() else 0
            peak_kb, seconds, status, said = measure(path, folder / f"data{index}")
            line = said
            if len(line) > 90:
                line = line[:87] + "…"
            print(
                f"| {name} | {size / MB:.1f} MB | {peak_kb / 1024:.0f} MB | {seconds:.2f} s "
                f"| {status} | {line} |"
            )


if __name__ == "__main__":
    main()
