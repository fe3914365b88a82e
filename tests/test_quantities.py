"""The one quantity reader (issue 19, item 1): minutes, seconds, deck sizes and copies, with the
comparison words of both languages, read against the regulation's thresholds at each boundary."""

from __future__ import annotations

import itertools

import pytest

from regulation.cues import THRESHOLDS, read_cues, threshold_range
from regulation.normalize import fold
from regulation.quantities import AFTER, BEFORE, SECONDS_PER_MINUTE, Quantity, bounds
from regulation.search import SearchIndex


def read(query: str) -> tuple[Quantity, ...]:
    return read_cues(fold(query)).quantities


def only(query: str) -> Quantity:
    (quantity,) = read(query)
    return quantity


@pytest.mark.parametrize(
    ("query", "low", "high"),
    [
        ("5分未満の遅刻", 0, 299),
        ("遅刻 5分以内", 0, 300),
        ("5分以下", 0, 300),
        ("5分前", 0, 299),
        ("5分経過前", 0, 299),
        ("10分以上", 600, None),
        ("10分超", 601, None),
        ("10分を超える遅刻", 601, None),
        ("less than 5 minutes late", 0, 299),
        ("under 5 min", 0, 299),
        ("within 5 minutes", 0, 300),
        ("up to 5 minutes", 0, 300),
        ("at least 10 minutes", 600, None),
        ("more than 10 minutes", 601, None),
        ("over ten minutes", 601, None),
        ("10 minutes or more", 600, None),
        ("4分59秒", 299, 299),
        ("４分５９秒", 299, 299),  # full width
        ("4:59", 299, 299),
        ("４：５９", 299, 299),
        ("4 min 59 s", 299, 299),
        ("5:00", 300, 300),
        ("5分0秒", 300, 300),
        ("9:59", 599, 599),
        ("10:00", 600, 600),
        ("30秒", 30, 30),
        ("45 seconds", 45, 45),
    ],
)
def test_minutes_and_seconds_with_comparisons(query: str, low: int, high: int | None) -> None:
    quantity = only(query)
    assert (quantity.kind, quantity.low, quantity.high) == ("minutes", low, high)


@pytest.mark.parametrize(
    ("query", "kind", "low", "high"),
    [
        ("39枚以下", "deck_size", 0, 39),
        ("40枚未満", "deck_size", 0, 39),
        ("fewer than 40 cards", "deck_size", 0, 39),
        ("at most 39 cards", "deck_size", 0, 39),
        ("40枚以上", "deck_size", 40, None),
        ("40枚超", "deck_size", 41, None),
        ("39枚", "deck_size", 39, 39),
        ("40 cards", "deck_size", 40, 40),
        ("4枚以上", "copies", 4, None),
        ("at least 4 copies", "copies", 4, None),
        ("more than three copies", "copies", 4, None),
        ("3枚以下", "copies", 0, 3),
        ("3 copies", "copies", 3, 3),
        ("4 copies", "copies", 4, 4),
    ],
)
def test_cards_and_copies_with_comparisons(
    query: str, kind: str, low: int, high: int | None
) -> None:
    quantity = only(query)
    assert (quantity.kind, quantity.low, quantity.high) == (kind, low, high)


def test_every_comparison_word_is_read_for_every_kind() -> None:
    """One reader: each comparison word means the same before minutes, cards and copies."""
    units = {"minutes": ("分", "minutes", SECONDS_PER_MINUTE), "deck_size": ("枚", "cards", 1)}
    units |= {"copies": ("枚", "copies", 1)}
    for kind, (unit_ja, unit_en, scale) in units.items():
        number = 40 if kind == "deck_size" else 4
        for word, comparison in BEFORE.items():
            quantity = only(f"{word} {number} {unit_en}")
            assert quantity.kind == kind, word
            assert (quantity.low, quantity.high) == bounds(number * scale, comparison), word
        for word, comparison in AFTER.items():
            english = word.isascii()
            text = f"{number} {unit_en} {word}" if english else f"{number}{unit_ja}{word}"
            quantity = only(text)
            assert quantity.kind == kind, word
            assert (quantity.low, quantity.high) == bounds(number * scale, comparison), word


# -- the boundaries, in the search ----------------------------------------------------------

TARDINESS = {"assembly-conditions-not-met", "not-seated-5-minutes", "not-seated-10-minutes"}


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("4分59秒遅れた", "assembly-conditions-not-met"),
        ("4:59 late", "assembly-conditions-not-met"),
        ("5分0秒遅れた", "not-seated-5-minutes"),
        ("5:00 late", "not-seated-5-minutes"),
        ("9分59秒遅れた", "not-seated-5-minutes"),
        ("9:59 late", "not-seated-5-minutes"),
        ("10分0秒遅れた", "not-seated-10-minutes"),
        ("10:00 late", "not-seated-10-minutes"),
        ("5分未満の遅刻", "assembly-conditions-not-met"),
        ("遅刻 5分以内", "assembly-conditions-not-met"),
        ("less than 5 minutes late", "assembly-conditions-not-met"),
        ("late, within 5 minutes", "assembly-conditions-not-met"),
        ("5分以上の遅刻", "not-seated-5-minutes"),
        ("at least 5 minutes late", "not-seated-5-minutes"),
        ("10分以上の遅刻", "not-seated-10-minutes"),
        ("over 10 minutes late", "not-seated-10-minutes"),
        ("デッキが39枚以下", "deck-under-40-cards"),
        ("deck of 39 cards", "deck-under-40-cards"),
        ("同じカード4枚", "four-or-more-copies"),
        ("4 copies of one card", "four-or-more-copies"),
    ],
)
def test_boundary_ranks_its_entry_first(index: SearchIndex, query: str, first: str) -> None:
    hits = index.search(query, limit=3)
    assert hits and hits[0].entry.id == first, [hit.entry.id for hit in hits]


@pytest.mark.parametrize("query", ["10分未満の遅刻", "under 10 minutes late"])
def test_under_ten_minutes_is_never_the_ten_minute_entry(index: SearchIndex, query: str) -> None:
    ids = [hit.entry.id for hit in index.search(query, limit=3)]
    assert ids[0] in {"assembly-conditions-not-met", "not-seated-5-minutes"}, ids
    assert "assembly-conditions-not-met" in ids


@pytest.mark.parametrize(
    ("query", "entry"),
    [
        ("デッキが40枚", "deck-under-40-cards"),
        ("deck of 40 cards", "deck-under-40-cards"),
        ("同じカード3枚", "four-or-more-copies"),
        ("3 copies of one card", "four-or-more-copies"),
    ],
)
def test_just_outside_a_threshold_lowers_its_entry(
    index: SearchIndex, query: str, entry: str
) -> None:
    hit = next(hit for hit in index.search(query) if hit.entry.id == entry)
    assert not any(cue.raised for cue in hit.why.cues), hit.why.cues
    assert hit.why.cues, "the number was read"


def test_thresholds_cover_the_time_without_gaps() -> None:
    ranges = sorted(threshold_range(t) for t in THRESHOLDS if t.kind == "minutes")
    assert ranges[0][0] == 0 and ranges[-1][1] is None
    for (_, high), (low, _) in itertools.pairwise(ranges):
        assert high is not None and low == high + 1
