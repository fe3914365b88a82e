"""The committed readings (assets/readings.json) are what the analyzer gives for today's data.

scripts/build_readings.py runs SudachiPy (a test dependency, never needed at run time) over
every Japanese string the search indexes; this test runs it again in memory and compares.
"""

from __future__ import annotations

import importlib.util
import json

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
