"""Typical situations: every infraction and principle has a few, in both languages, and they
stay the app's own words (never regulation text, which tests/test_source_fidelity.py guards)."""

from __future__ import annotations

import pytest

from regulation.model import Infraction, Principle, Regulation
from regulation.paths import ROOT

SOURCE = ROOT / "regulation" / "source" / "penalty_guidelines_ja.txt"
MAX_CHARS = 60  # short: what a judge reads at a glance


def entries(regulation: Regulation) -> list[Infraction | Principle]:
    return [*regulation.infractions, *regulation.principles]


def test_every_infraction_and_principle_has_four_to_ten(regulation: Regulation) -> None:
    counts = {entry.id: len(entry.situations) for entry in entries(regulation)}
    assert all(4 <= count <= 10 for count in counts.values()), counts


def test_situations_are_short_and_translated(regulation: Regulation) -> None:
    for entry in entries(regulation):
        for situation in entry.situations:
            assert 0 < len(situation.ja) <= MAX_CHARS, situation.ja
            assert situation.en and situation.en != situation.ja, situation.ja


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_situation_repeats_across_entries(regulation: Regulation, lang: str) -> None:
    seen: dict[str, str] = {}
    for entry in entries(regulation):
        for situation in entry.situations:
            assert seen.setdefault(situation[lang], entry.id) == entry.id, situation[lang]


def test_situations_are_not_regulation_text(regulation: Regulation) -> None:
    source = SOURCE.read_text(encoding="utf-8")
    for entry in entries(regulation):
        for situation in entry.situations:
            assert situation.ja not in source, situation.ja
            assert situation.ja not in regulation.body(entry, "ja")
