"""Shared fixtures: the real regulation, loaded once per test session."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# Tests never touch the user's penalty log: every app a test starts opens the log
# (views/logbook.py) in this folder, unless the test gives it one of its own.
os.environ["PENALTY_GUIDE_DATA_DIR"] = tempfile.mkdtemp(prefix="penalty-guide-data-")
atexit.register(shutil.rmtree, os.environ["PENALTY_GUIDE_DATA_DIR"], ignore_errors=True)

from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402


@pytest.fixture(scope="session")
def regulation() -> Regulation:
    return load_regulation()
