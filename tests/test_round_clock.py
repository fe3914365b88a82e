"""records/clock.py: the round clock computed from stored instants, with a fake clock (`at`)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from records_support import JST, ROUND_START, at

from records.clock import (
    Extension,
    PauseMark,
    RoundClock,
    countdown,
    parse_instant,
    round_minutes,
    stopwatch_minutes,
    warning_level,
)
from records.errors import InvalidInput


def extension(table: str, minutes: int, created: float, finished: bool = False) -> Extension:
    return Extension(f"e-{table}-{created}", table, minutes, None, finished, at(created))


def test_not_started_has_no_end() -> None:
    clock = RoundClock(1, 50, None)
    assert clock.ends_at(at(0)) is None and clock.remaining_seconds(at(0)) is None
    assert clock.tables(at(0)) == () and clock.real_end(at(0)) is None


def test_start_gives_the_end_and_the_remaining_time_at_any_instant() -> None:
    clock = RoundClock(1, 50, ROUND_START)
    assert clock.ends_at(at(10)) == at(50)
    assert clock.remaining_seconds(at(0)) == 3000
    assert clock.remaining_seconds(at(49.5)) == 30
    assert clock.remaining_seconds(at(53)) == -180  # overtime


def test_a_pause_stops_the_clock_and_moves_the_end() -> None:
    marks = (PauseMark("p", "pause", at(20)), PauseMark("r", "resume", at(27)))
    clock = RoundClock(2, 50, ROUND_START, marks)
    assert clock.remaining_seconds(at(20)) == clock.remaining_seconds(at(26)) == 30 * 60
    assert clock.paused_at(at(21)) and not clock.paused_at(at(27))
    assert clock.paused_seconds(at(40)) == 7 * 60
    assert clock.ends_at(at(40)) == at(57)


def test_a_running_pause_keeps_the_remaining_time_still() -> None:
    clock = RoundClock(1, 50, ROUND_START, (PauseMark("p", "pause", at(45)),))
    assert clock.remaining_seconds(at(45)) == clock.remaining_seconds(at(90)) == 300
    assert clock.ends_at(at(90)) == at(95)


def test_marks_out_of_turn_are_ignored_the_same_way_on_every_device() -> None:
    marks = (
        PauseMark("b", "pause", at(12)),  # a second device paused too
        PauseMark("a", "pause", at(10)),
        PauseMark("c", "resume", at(15)),
        PauseMark("d", "resume", at(16)),  # and resumed too
    )
    clock = RoundClock(1, 50, ROUND_START, marks)
    assert clock.pauses() == ((at(10), at(15)),)
    assert clock.ends_at(at(30)) == at(55)
    assert RoundClock(1, 50, ROUND_START, marks[::-1]).pauses() == clock.pauses()


def test_a_pause_before_the_start_counts_from_the_start() -> None:
    marks = (PauseMark("a", "pause", at(-5)), PauseMark("b", "resume", at(3)))
    assert RoundClock(1, 50, ROUND_START, marks).ends_at(at(10)) == at(53)


def test_extensions_of_one_table_add_up_and_the_list_is_sorted_by_end() -> None:
    clock = RoundClock(
        1,
        50,
        ROUND_START,
        extensions=(
            extension("12", 3, 5),
            extension("4", 5, 6, finished=True),
            extension("12", 4, 20),
            extension("30", 2, 21),
        ),
    )
    rows = clock.tables(at(55))
    assert [(r.table, r.minutes, r.ends_at, r.finished) for r in rows] == [
        ("30", 2, at(52), False),
        ("4", 5, at(55), True),
        ("12", 7, at(57), False),
    ]
    assert clock.real_end(at(55)) == at(57)


def test_tables_ending_together_are_in_table_order_numbers_first() -> None:
    clock = RoundClock(
        1,
        50,
        ROUND_START,
        extensions=(extension("10", 3, 1), extension("9", 3, 2), extension("A", 3, 3)),
    )
    assert [r.table for r in clock.tables(at(0))] == ["9", "10", "A"]


def test_a_table_is_playing_again_when_given_more_time_after_it_finished() -> None:
    clock = RoundClock(
        1, 50, ROUND_START, extensions=(extension("7", 3, 1, finished=True), extension("7", 2, 40))
    )
    (row,) = clock.tables(at(50))
    assert (row.minutes, row.finished) == (5, False)


def test_a_round_crossing_midnight() -> None:
    late = datetime(2026, 11, 28, 23, 40, tzinfo=JST)
    clock = RoundClock(5, 50, late, extensions=(extension("1", 3, 0),))
    after_midnight = datetime(2026, 11, 29, 0, 20, tzinfo=JST)
    assert clock.remaining_seconds(after_midnight) == 600
    assert clock.ends_at(after_midnight) == datetime(2026, 11, 29, 0, 30, tzinfo=JST)
    assert clock.real_end(after_midnight) == datetime(2026, 11, 29, 0, 33, tzinfo=JST)


def test_a_device_that_changed_time_zone_since_the_start_shows_the_same_time() -> None:
    clock = RoundClock(1, 50, ROUND_START)  # started in Tokyo (+09:00)
    manila = timezone(timedelta(hours=8))
    now_in_manila = datetime(2026, 11, 28, 12, 20, tzinfo=manila)  # 13:20 in Tokyo
    assert clock.remaining_seconds(now_in_manila) == 30 * 60
    assert clock.ends_at(now_in_manila).astimezone(manila).strftime("%H:%M") == "12:50"


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (3000, "50:00"),
        (2999.4, "50:00"),
        (59.01, "01:00"),
        (0.2, "00:01"),
        (0, "00:00"),
        (-0.5, "+00:00"),
        (-185, "+03:05"),
        (3723, "1:02:03"),
    ],
)
def test_countdown_digits(seconds: float, shown: str) -> None:
    assert countdown(seconds) == shown


@pytest.mark.parametrize(
    ("seconds", "level"),
    [(None, 0), (601, 0), (600, 1), (301, 1), (300, 2), (1, 2), (0, 3), (-50, 3)],
)
def test_warning_levels_at_ten_five_and_time(seconds: float | None, level: int) -> None:
    assert warning_level(seconds) == level


@pytest.mark.parametrize(("seconds", "minutes"), [(0, 1), (59, 1), (60, 1), (61, 2), (150, 3)])
def test_a_call_is_rounded_up_to_the_minute(seconds: int, minutes: int) -> None:
    assert stopwatch_minutes(at(0), at(0) + timedelta(seconds=seconds)) == minutes


@pytest.mark.parametrize("bad", [0, -5, 24 * 60 + 1, True, "50", 2.5])
def test_a_bad_length_is_refused(bad: object) -> None:
    with pytest.raises(InvalidInput):
        round_minutes(bad)


def test_a_day_long_round_is_the_longest() -> None:
    assert round_minutes(24 * 60) == 1440


def test_typed_times() -> None:
    now = datetime(2026, 11, 28, 15, 42, 10, tzinfo=JST)
    assert parse_instant("13:05", now) == datetime(2026, 11, 28, 13, 5, tzinfo=JST)
    assert parse_instant("2026-11-28T13:05:00+08:00", now) == datetime(
        2026, 11, 28, 14, 5, tzinfo=JST
    )
    naive = parse_instant("2026-11-28T13:05", now)
    assert naive.tzinfo is not None and naive.replace(tzinfo=None) == datetime(2026, 11, 28, 13, 5)
    for bad in ("", "soon", "25:00", "13時", "2026-13-01T10:00"):
        with pytest.raises(InvalidInput):
            parse_instant(bad, now)
