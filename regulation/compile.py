"""Compile every data file: `python -m regulation.compile` (after editing a YAML in assets/).

Each YAML is parsed strictly and checked by the code that builds its model (so a file the app
would refuse is never written), then its compiled twin `X.json` is written beside it; commit
both. `--check` writes nothing and fails when a compiled file is missing or stale (CI's and
tests/test_data.py's question). See regulation/data.py for the format.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .data import COMPILE_COMMAND, Compiled, DataError, compile_data, compiled_path
from .finder import build_finder
from .loader import build_regulation, english_catalog, load_regulation
from .paths import FINDER_PATH, RULES_PATH

# A check builds the model from the freshly parsed data and raises DataError on any fault.
Check = Callable[[Path, Compiled], Any]


def check_regulation(path: Path, compiled: Compiled) -> Any:
    return build_regulation(path, compiled, english_catalog())


def check_finder(path: Path, compiled: Compiled) -> Any:
    """Against the regulation as compiled (the list below compiles the regulation first)."""
    return build_finder(path, compiled, load_regulation(), english_catalog())


# Every data file the app reads, with its check, in an order where a file's check may read
# the files before it. A new data file joins this list.
DATA_FILES: tuple[tuple[Path, Check], ...] = (
    (RULES_PATH, check_regulation),
    (FINDER_PATH, check_finder),
)


def compile_checked(yaml_path: Path, check: Check) -> tuple[bytes, Compiled]:
    """What `yaml_path`'s compiled twin must hold, once `check` accepted it. Raises DataError."""
    content, compiled = compile_data(yaml_path)
    check(yaml_path, compiled)
    return content, compiled


def write_atomically(path: Path, content: bytes) -> None:
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        partial.write_bytes(content)
        partial.replace(path)  # a reader sees the old file or the new one, never half of one
    finally:
        partial.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m regulation.compile", description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if any is stale; write none")
    args = parser.parse_args(argv)
    failures = 0
    for yaml_path, check in DATA_FILES:
        target = compiled_path(yaml_path)
        try:
            content, compiled = compile_checked(yaml_path, check)
        except DataError as exc:
            # The files after this one may be checked against it: one fault, fixed first.
            print(f"error: {exc}", file=sys.stderr)
            return 1
        try:
            current = target.read_bytes()
        except OSError:
            current = None
        if current == content:
            print(f"{target.name}: up to date")
        elif args.check:
            print(f"error: {target}: stale or missing: run {COMPILE_COMMAND}", file=sys.stderr)
            failures += 1
        else:
            try:
                write_atomically(target, content)
            except OSError as exc:
                print(f"error: {target}: {exc.strerror or exc}", file=sys.stderr)
                failures += 1
                continue
            counts = ", ".join(f"{n} {key}" for key, n in compiled.counts.items())
            print(f"{target.name}: compiled from {yaml_path.name} ({counts})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
