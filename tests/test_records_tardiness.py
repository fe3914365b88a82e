"""Tardiness: minutes late against the regulation's thresholds, to the second."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from records_support import JST

from records.errors import InvalidInput
from records.tardiness import (
    LATE_UNDER_THRESHOLDS,
    TARDINESS_INFRACTION_IDS,
    THRESHOLDS,
    suggest_tardiness,
)
from regulation.model import Regulation

ASSEMBLY = datetime(2026, 11, 28, 13, 0, tzinfo=JST)


def test_thresholds_are_the_regulations_own_minutes(regulation: Regulation) -> None:
    for minutes, infraction_id in THRESHOLDS:
        infraction = regulation.infraction(infraction_id)
        assert infraction is not None, infraction_id
        assert f"指定の集合時間後{minutes}分経過しても" in infraction.title.ja
    under = regulation.infraction(LATE_UNDER_THRESHOLDS)
    assert under is not None and under.title.ja.startswith("指定の集合時間に")
    section = {i.id for i in regulation.infractions_in_section("tardiness")}
    assert set(TARDINESS_INFRACTION_IDS) == section


@pytest.mark.parametrize(
    ("late", "expected", "minutes"),
    [
        (timedelta(minutes=-3), None, 0),
        (timedelta(0), None, 0),
        (timedelta(seconds=1), "assembly-conditions-not-met", 0),
        (timedelta(minutes=4, seconds=59), "assembly-conditions-not-met", 4),
        (timedelta(minutes=4, seconds=59, microseconds=999_999), "assembly-conditions-not-met", 4),
        (timedelta(minutes=5), "not-seated-5-minutes", 5),
        (timedelta(minutes=5, seconds=1), "not-seated-5-minutes", 5),
        (timedelta(minutes=9, seconds=59), "not-seated-5-minutes", 9),
        (timedelta(minutes=10), "not-seated-10-minutes", 10),
        (timedelta(minutes=45), "not-seated-10-minutes", 45),
    ],
)
def test_where_each_arrival_falls(late: timedelta, expected: str | None, minutes: int) -> None:
    suggestion = suggest_tardiness(ASSEMBLY, ASSEMBLY + late)
    assert suggestion.infraction_id == expected
    assert suggestion.minutes_late == minutes
    assert suggestion.late_by == late


def test_arrival_in_another_utc_offset_counts_the_same_instant() -> None:
    arrived = datetime(2026, 11, 28, 4, 12, tzinfo=UTC)  # 13:12 JST
    suggestion = suggest_tardiness(ASSEMBLY, arrived)
    assert (suggestion.minutes_late, suggestion.infraction_id) == (12, "not-seated-10-minutes")


def test_a_time_without_offset_beside_one_with_is_refused() -> None:
    with pytest.raises(InvalidInput, match="UTC offset"):
        suggest_tardiness(ASSEMBLY, datetime(2026, 11, 28, 13, 6))
