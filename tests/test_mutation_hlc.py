"""The hybrid logical clock and the conflict rule (records/sync/hlc.py), at the edges mutation
testing found untested. A stamp is shared by every device, so its layout is part of the contract:
the wall clock's milliseconds above COUNTER_BITS, a counter below."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from records.sync import hlc
from records.sync.hlc import (
    COUNTER_BITS,
    EARLIEST,
    LATEST,
    HybridClock,
    clock_offset,
    legacy_stamp,
    next_stamp,
    orderable,
    stamp_of,
    wall_of,
    wins,
)

MOMENT = datetime(2026, 11, 28, 4, 5, 6, 789_000, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "offset"),
    [(None, 0.0), ("", 0.0), ("-900", -900.0), ("1.5", 1.5), ("soon", 0.0)],
)
def test_the_test_only_clock_offset(
    monkeypatch: pytest.MonkeyPatch, value: str | None, offset: float
) -> None:
    if value is None:
        monkeypatch.delenv(hlc.CLOCK_OFFSET_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(hlc.CLOCK_OFFSET_VARIABLE, value)
    assert clock_offset() == timedelta(seconds=offset)


def test_which_moments_can_be_stamped() -> None:
    assert orderable(EARLIEST)
    assert not orderable(EARLIEST - timedelta(microseconds=1))
    assert orderable(LATEST - timedelta(microseconds=1))
    assert not orderable(LATEST)
    assert orderable(MOMENT)
    # the latest orderable moment still fits SQLite's 63-bit INTEGER, with its counter
    assert stamp_of(LATEST - timedelta(milliseconds=1), (1 << COUNTER_BITS) - 1) <= hlc.MAX_STAMP


def test_a_stamp_is_milliseconds_above_a_counter() -> None:
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    assert stamp_of(epoch + timedelta(milliseconds=1)) == 1 << COUNTER_BITS
    assert stamp_of(epoch + timedelta(milliseconds=3), 5) == (3 << COUNTER_BITS) + 5
    assert stamp_of(MOMENT, 7) - stamp_of(MOMENT) == 7
    assert wall_of(stamp_of(MOMENT, 65_535)) == MOMENT
    assert wall_of(stamp_of(MOMENT + timedelta(microseconds=999))) == MOMENT  # ms only
    assert stamp_of(MOMENT + timedelta(milliseconds=1)) > stamp_of(MOMENT, 65_535)


def test_a_new_stamp_is_later_than_everything_seen_else_the_wall_clock() -> None:
    wall = stamp_of(MOMENT)
    assert next_stamp(MOMENT, 0) == wall
    assert next_stamp(MOMENT, wall - 2) == wall
    assert next_stamp(MOMENT, wall - 1) == wall
    assert next_stamp(MOMENT, wall) == wall + 1
    assert next_stamp(MOMENT, wall + 40) == wall + 41


def test_a_stamp_made_before_sync_keeps_the_microseconds_order() -> None:
    at = int(MOMENT.timestamp() * 1_000_000)
    assert legacy_stamp(at) == stamp_of(MOMENT)
    assert legacy_stamp(at + 1) == stamp_of(MOMENT, 1)
    assert legacy_stamp(at + 999) == stamp_of(MOMENT, 999)
    assert legacy_stamp(at + 1000) == stamp_of(MOMENT + timedelta(milliseconds=1))
    ordered = [legacy_stamp(at + step) for step in (0, 1, 998, 999, 1000, 1001, 2500)]
    assert ordered == sorted(set(ordered))


def test_the_larger_stamp_wins_then_the_larger_device() -> None:
    assert wins(11, "a", 10, "z")
    assert not wins(10, "z", 11, "a")
    assert wins(10, "b", 10, "a")
    assert not wins(10, "a", 10, "b")
    assert not wins(10, "a", 10, "a")  # a version never beats itself


def test_the_clock_only_moves_forward() -> None:
    wall = MOMENT
    clock = HybridClock(lambda: wall)
    first = clock.now()
    assert first == stamp_of(MOMENT)
    assert clock.now() == first + 1  # a stuck wall clock: the counter
    clock.observe(first + 100)
    assert clock.now() == first + 101
    clock.observe(5)  # an older stamp changes nothing
    assert clock.now() == first + 102
    wall = MOMENT + timedelta(seconds=1)
    assert clock.now() == stamp_of(wall)
    assert clock.highest == stamp_of(wall)


def test_a_clock_starts_after_the_highest_stamp_it_was_given() -> None:
    seen = stamp_of(MOMENT + timedelta(minutes=15))
    clock = HybridClock(lambda: MOMENT, seen)
    assert clock.highest == seen
    assert clock.now() == seen + 1
