"""Shared fixtures: the real regulation, loaded once per test session."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from regulation.loader import load_regulation  # noqa: E402
from regulation.model import Regulation  # noqa: E402


@pytest.fixture(scope="session")
def regulation() -> Regulation:
    return load_regulation()
