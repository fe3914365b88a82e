"""Tardiness (records/tardiness.py), what mutation testing found unasserted: the suggestion
carries the two times it was made from, and the refusal of a mixed pair is its whole line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from records_support import JST

from records.errors import InvalidInput
from records.tardiness import suggest_tardiness

ASSEMBLY = datetime(2026, 11, 28, 13, 0, tzinfo=JST)


def test_the_suggestion_keeps_the_times_it_was_made_from() -> None:
    arrived = datetime(2026, 11, 28, 4, 6, 30, tzinfo=UTC)
    suggestion = suggest_tardiness(ASSEMBLY, arrived)
    assert suggestion.assembly_at is ASSEMBLY
    assert suggestion.arrived_at is arrived
    assert (suggestion.late_by, suggestion.minutes_late) == (timedelta(minutes=6, seconds=30), 6)
    assert suggestion.infraction_id == "not-seated-5-minutes"


@pytest.mark.parametrize("naive", ["assembly", "arrival"])
def test_a_time_without_offset_beside_one_with_is_refused_in_one_line(naive: str) -> None:
    plain = datetime(2026, 11, 28, 13, 6)
    pair = (ASSEMBLY.replace(tzinfo=None), ASSEMBLY) if naive == "assembly" else (ASSEMBLY, plain)
    with pytest.raises(InvalidInput) as refused:
        suggest_tardiness(*pair)
    assert str(refused.value) == (
        "the assembly and arrival times must both have a UTC offset, or neither"
    )


def test_two_times_without_offset_are_compared_as_they_are() -> None:
    suggestion = suggest_tardiness(datetime(2026, 11, 28, 13, 0), datetime(2026, 11, 28, 13, 10))
    assert suggestion.infraction_id == "not-seated-10-minutes"
