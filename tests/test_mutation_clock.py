"""The round clock's arithmetic (records/clock.py), at the edges mutation testing found
untested: what the clock shows at and around time, the warning steps, the pauses two devices
read alike, the end-of-round list, and the one-line refusals of a length or a typed time (the
field and the reason a screen places the message by)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from records_support import JST, ROUND_START, at

from records.clock import (
    DEFAULT_ROUND_MINUTES,
    MAX_EXTENSION_MINUTES,
    MAX_ROUND_MINUTES,
    WARNING_MARKS_S,
    Extension,
    PauseMark,
    RoundClock,
    countdown,
    extension_minutes,
    parse_instant,
    round_minutes,
    stopwatch_minutes,
    warning_level,
)
from records.errors import InvalidInput


def refused(call, *args: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (3000, "50:00"),
        (2999.4, "50:00"),  # the 50th minute's last second is still left
        (0.2, "00:01"),
        (0, "00:00"),
        (-0.5, "+00:00"),
        (-185.9, "+03:05"),
        (3723, "1:02:03"),
        (3600, "1:00:00"),
        (-3600, "+1:00:00"),
        (-3661.5, "+1:01:01"),
    ],
)
def test_the_countdown_rounds_time_left_up_and_overtime_down(seconds: float, shown: str) -> None:
    assert countdown(seconds) == shown


def test_the_warning_steps_at_ten_minutes_five_minutes_and_time() -> None:
    assert WARNING_MARKS_S == (600, 300, 0)
    levels = [warning_level(s) for s in (None, 601, 600, 301, 300, 1, 0, -5)]
    assert levels == [0, 0, 1, 1, 2, 2, 3, 3]


def test_the_defaults_a_judge_meets() -> None:
    assert DEFAULT_ROUND_MINUTES == 50
    assert MAX_ROUND_MINUTES == MAX_EXTENSION_MINUTES == 24 * 60


def test_marks_of_one_instant_read_resume_first_on_every_device() -> None:
    # a resume and a pause of the same instant: the resume (out of turn) is ignored and the
    # pause runs, whichever order the marks arrived in and whatever their ids
    for first, second in (("a", "b"), ("b", "a")):
        marks = (PauseMark(first, "pause", at(10)), PauseMark(second, "resume", at(10)))
        assert RoundClock(1, 50, ROUND_START, marks).pauses() == ((at(10), None),)
        assert RoundClock(1, 50, ROUND_START, marks[::-1]).pauses() == ((at(10), None),)


def test_paused_from_the_pause_mark_to_just_before_the_resume() -> None:
    marks = (PauseMark("p", "pause", at(20)), PauseMark("r", "resume", at(27)))
    clock = RoundClock(1, 50, ROUND_START, marks)
    assert not clock.paused_at(at(19.99))
    assert clock.paused_at(at(20))
    assert clock.paused_at(at(26.99))
    assert not clock.paused_at(at(27))
    running = RoundClock(1, 50, ROUND_START, marks[:1])
    assert running.paused_at(at(500)) and not running.paused_at(at(19))
    assert RoundClock(1, 50, None, marks).pauses() == ()
    assert not RoundClock(1, 50, None, marks).paused_at(at(21))


def test_paused_time_counts_only_up_to_the_instant_asked_about() -> None:
    marks = (
        PauseMark("p1", "pause", at(10)),
        PauseMark("r1", "resume", at(12)),
        PauseMark("p2", "pause", at(30)),
    )
    clock = RoundClock(1, 50, ROUND_START, marks)
    assert clock.paused_seconds(at(5)) == 0
    assert clock.paused_seconds(at(11)) == 60
    assert clock.paused_seconds(at(20)) == 120
    assert clock.paused_seconds(at(30)) == 120
    assert clock.paused_seconds(at(33)) == 120 + 180
    assert clock.remaining_seconds(at(33)) == (50 + 2 + 3 - 33) * 60


def test_the_end_of_round_list_names_each_tables_records_and_extensions() -> None:
    calls = (
        Extension("x2", "5", 2, "rec-2", True, at(9)),
        Extension("x1", "5", 3, "rec-1", True, at(4)),
        Extension("x3", "5", 1, None, True, at(9)),  # by hand, no record
    )
    clock = RoundClock(1, 50, ROUND_START, extensions=calls)
    (row,) = clock.tables(at(0))
    assert row.table == "5"
    assert row.minutes == 6
    assert row.ends_at == at(56)
    assert row.finished
    assert row.record_ids == ("rec-1", "rec-2")  # in the order they were given
    assert row.extension_ids == ("x1", "x2", "x3")  # created_at, then id
    assert clock.real_end(at(0)) == at(56)
    assert RoundClock(1, 50, ROUND_START).real_end(at(0)) == at(50)


def test_tables_are_ordered_by_their_end_then_numbers_before_names() -> None:
    calls = (
        Extension("a", "B", 2, None, False, at(1)),
        Extension("b", "A", 2, None, False, at(2)),
        Extension("c", "100", 2, None, False, at(3)),
        Extension("d", "20", 2, None, False, at(4)),
        Extension("e", "3", 1, None, False, at(5)),
    )
    rows = RoundClock(1, 50, ROUND_START, extensions=calls).tables(at(0))
    assert [r.table for r in rows] == ["3", "20", "100", "A", "B"]


@pytest.mark.parametrize(
    ("seconds", "minutes"),
    [(0, 1), (1, 1), (60, 1), (60.001, 2), (120, 2), (121, 3), (3600, 60)],
)
def test_a_call_is_rounded_up_to_the_whole_minute(seconds: float, minutes: int) -> None:
    assert stopwatch_minutes(at(0), at(0) + timedelta(seconds=seconds)) == minutes


def test_a_float_minute_just_under_a_whole_one_is_that_minute() -> None:
    # 180 s computed from instants can come out a hair over 3 minutes in floating point
    assert stopwatch_minutes(at(0), at(0) + timedelta(minutes=3)) == 3
    assert stopwatch_minutes(at(0), at(0) - timedelta(minutes=3)) == 1  # never below one


@pytest.mark.parametrize("check", [round_minutes, extension_minutes])
def test_a_length_is_one_minute_to_a_day(check) -> None:
    assert check(1) == 1
    assert check(24 * 60) == 24 * 60
    for bad in (True, False, "50", 2.5, None):
        error = refused(check, bad)
        assert (error.field, error.reason) == ("minutes", "format")
        assert str(error) == "minutes: must be a whole number of minutes"
    for bad in (0, -5, 24 * 60 + 1):
        error = refused(check, bad)
        assert (error.field, error.reason) == ("minutes", "out_of_range")
        assert str(error).startswith("minutes: ") and str(error).endswith(f"not {bad}")
    error = refused(check, 0, "round_minutes")
    assert (error.field, error.reason) == ("round_minutes", "out_of_range")
    error = refused(check, "x", "round_minutes")
    assert (error.field, error.reason) == ("round_minutes", "format")
    assert str(error) == "round_minutes: must be a whole number of minutes"


def test_the_out_of_range_lines_say_what_a_round_and_an_extension_may_last() -> None:
    assert str(refused(round_minutes, 0)) == "minutes: a round lasts 1 to 1440 minutes, not 0"
    assert str(refused(extension_minutes, 1441)) == (
        "minutes: an extension is 1 to 1440 minutes, not 1441"
    )


def test_a_typed_time_of_day_is_today_in_the_zone_of_now() -> None:
    now = datetime(2026, 11, 28, 15, 42, 10, 123456, tzinfo=JST)
    assert parse_instant(" 13:05 ", now) == datetime(2026, 11, 28, 13, 5, tzinfo=JST)
    assert parse_instant("9:05:30", now) == datetime(2026, 11, 28, 9, 5, 30, tzinfo=JST)
    assert parse_instant("23:59:59", now) == datetime(2026, 11, 28, 23, 59, 59, tzinfo=JST)
    assert parse_instant("2026-11-28", now) == datetime(2026, 11, 28).astimezone()


def test_a_typed_instant_in_iso_basic_form_is_read_too() -> None:
    # no "-" and no ":" (or eight characters, like a time): still a date and time, not "HH:MM"
    now = datetime(2026, 11, 28, 15, 42, 10, tzinfo=JST)
    assert parse_instant("20261128T1305+0900", now) == datetime(2026, 11, 28, 13, 5, tzinfo=JST)
    assert parse_instant("20261128", now) == datetime(2026, 11, 28).astimezone()


def test_a_typed_time_that_is_not_one_is_refused_in_one_line() -> None:
    now = datetime(2026, 11, 28, 15, 42, 10, tzinfo=JST)
    error = refused(parse_instant, "  ", now)
    assert (str(error), error.field, error.reason) == ("time: required", "time", "required")
    error = refused(parse_instant, "soon", now, "started_at")
    assert (error.field, error.reason) == ("started_at", "format")
    assert str(error) == ("started_at: not a time: 'soon' (e.g. 13:05 or 2026-11-28T13:05+09:00)")
    error = refused(parse_instant, "", now, "at")
    assert (str(error), error.field, error.reason) == ("at: required", "at", "required")
    for bad in ("25:00", "12:60", "13:05:61", "1:2:3:4", "2026-13-01T10:00"):
        assert refused(parse_instant, bad, now).reason == "format", bad


def test_the_end_of_round_list_moves_on_with_a_running_pause() -> None:
    clock = RoundClock(
        1,
        50,
        ROUND_START,
        (PauseMark("p", "pause", at(20)),),
        (Extension("x", "7", 3, None, False, at(5)),),
    )
    (row,) = clock.tables(at(30))  # paused for 10 minutes so far
    assert row.ends_at == at(63)
    assert clock.real_end(at(30)) == at(63)
    (later,) = clock.tables(at(40))
    assert later.ends_at == at(73)
    assert clock.real_end(at(40)) == at(73)
    marks = (*clock.marks, PauseMark("r", "resume", at(25)))
    resumed = RoundClock(1, 50, ROUND_START, marks, clock.extensions)
    assert resumed.real_end(at(40)) == at(58)
    assert RoundClock(1, 50, ROUND_START, resumed.marks).real_end(at(40)) == at(55)


def test_a_typed_time_with_an_offset_keeps_it() -> None:
    now = datetime(2026, 11, 28, 15, 42, 10, tzinfo=JST)
    manila = timezone(timedelta(hours=8))
    typed = parse_instant("2026-11-28T13:05+08:00", now)
    assert typed == datetime(2026, 11, 28, 13, 5, tzinfo=manila)
    assert typed.utcoffset() == timedelta(hours=8)  # as typed, not the device's zone
    assert parse_instant("2026-11-28T13:05+09:00", now).utcoffset() == timedelta(hours=9)
