"""What the command line's tests share (tests/test_records_cli.py, test_mutation_cli*.py)."""

from __future__ import annotations

import pytest

from main import main


def log(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`main.py log …` run in-process: its exit status, its output and its errors."""
    code = main(["log", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err
