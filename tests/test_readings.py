"""The committed readings (assets/readings.json) are what the analyzer gives for today's data.

scripts/build_readings.py runs SudachiPy (a test dependency, never needed at run time) over
every Japanese string the search indexes; this test runs it again in memory and compares.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from regulation.model import Regulation
from regulation.paths import READINGS_PATH, ROOT


def build_readings_module():
    spec = importlib.util.spec_from_file_location(
        "build_readings", ROOT / "scripts" / "build_readings.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_readings_are_regenerated_identically(regulation: Regulation) -> None:
    script = build_readings_module()
    fresh = script.render(script.build(regulation))
    committed = READINGS_PATH.read_text(encoding="utf-8")
    assert committed == fresh, "run: .venv/bin/python scripts/build_readings.py"


def test_readings_cover_the_data_and_read_kanji_as_kana(regulation: Regulation) -> None:
    readings = json.loads(READINGS_PATH.read_text(encoding="utf-8"))
    drew = regulation.infraction("drew-extra-cards")
    assert drew is not None
    assert readings["strings"][drew.title.ja] == "こいではなく、かじょうにカードをひいた"
    assert readings["strings"]["遅刻"] == "ちこく"
    situation = "相手の反応を見るため、わざと手札を相手に見せた"
    assert (
        readings["strings"][situation] == "あいてのはんのうをみるため、わざとてふだをあいてにみせた"
    )
    assert all(text in readings["strings"] for text in ("10分遅刻", "デッキが40枚未満である"))


KANA_QUERY = "ちこくした".encode("unicode_escape").decode("ascii")


@pytest.mark.process
def test_the_readings_load_whatever_the_locale_encoding() -> None:
    """A venue laptop's locale may not be UTF-8 (cp932, or ASCII here): the readings still
    load, and ちこくした still finds 遅刻."""
    # The command line itself is ASCII there: the query goes as escapes.
    code = (
        "import locale\n"
        "from regulation.loader import load_regulation\n"
        "from regulation.readings import load_readings\n"
        "from regulation.search import SearchIndex\n"
        f"hits = SearchIndex.build(load_regulation()).search('{KANA_QUERY}', limit=1)\n"
        "print(locale.getpreferredencoding(False), len(load_readings().strings) > 0,"
        " hits[0].entry.id)\n"
    )
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0"}
    env["PYTHONCOERCECLOCALE"] = "0"  # keep the C locale's ASCII, as a legacy system has
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    encoding, loaded, first = done.stdout.split()
    assert encoding.lower() not in ("utf-8", "utf8"), "the test needs a non-UTF-8 locale"
    assert (loaded, first) == ("True", "not-seated-5-minutes")
