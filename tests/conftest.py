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


@pytest.fixture
def apps():
    """Starts the real app over the fake client (tests/flet_harness.py), as many times as a
    test asks: `apps(route=…, prefs=…, width=…, locale=…, handlers=…)` (a phone in Japanese by
    default). Every app is stopped after the test, which fails if any of them crashed."""
    try:
        from flet_harness import FakeApp
    except ImportError:  # tests/ as a package
        from tests.flet_harness import FakeApp
    from views.app import main

    started: list[FakeApp] = []

    def start(**options) -> FakeApp:
        options = {"locale": "ja-JP", "prefs": {}, "width": 390, "height": 844, **options}
        app = FakeApp.start(main, **options)
        started.append(app)
        return app

    yield start
    for app in started:
        assert app.crashes == [], app.crashes
        app.stop()
