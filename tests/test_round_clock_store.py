"""records/clock_store.py and the clock in exports: stored instants give the same remaining time
after a reload, a restart, and on another device that imported the event."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from records_support import JST, Clock, entry, open_store

from records.clock import DEFAULT_ROUND_MINUTES
from records.errors import InvalidInput
from records.exchange import event_export, json_bytes, parse_export
from records.store import LogStore
from regulation.model import Regulation

START = datetime(2026, 11, 28, 13, 0, tzinfo=JST)


def later(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


@pytest.fixture
def store(regulation: Regulation, tmp_path: Path) -> LogStore:
    opened = open_store(regulation, tmp_path / "a", Clock(START))
    yield opened
    opened.close()


def test_a_new_event_has_fifty_minute_rounds_not_started(store: LogStore) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    assert clocks.default_minutes(event.id) == DEFAULT_ROUND_MINUTES == 50
    assert not clocks.round(event.id, 1).started
    assert clocks.current(event.id) is None


def test_start_correct_and_lengths(store: LogStore) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    clocks.set_default_minutes(event.id, 40)
    clocks.start(event.id, 1, START)
    assert clocks.round(event.id, 1).ends_at(later(1)) == later(40)
    clocks.start(event.id, 1, later(2))  # corrected: it really started two minutes later
    assert clocks.round(event.id, 1).ends_at(later(3)) == later(42)
    clocks.set_round_minutes(event.id, 1, 55)
    assert clocks.round(event.id, 1).ends_at(later(3)) == later(57)
    clocks.set_round_minutes(event.id, 1, None)  # back to the event's length
    assert clocks.round(event.id, 1).minutes == 40
    clocks.start(event.id, 2, later(60), minutes=45)
    assert clocks.current(event.id).number == 2
    assert clocks.round(event.id, 2).minutes == 45


def test_pause_and_resume_are_checked(store: LogStore) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    with pytest.raises(InvalidInput, match="not started"):
        clocks.pause(event.id, 1, later(5))
    clocks.start(event.id, 1, START)
    with pytest.raises(InvalidInput, match="not paused"):
        clocks.resume(event.id, 1, later(5))
    with pytest.raises(InvalidInput, match="before round 1 started"):
        clocks.pause(event.id, 1, later(-5))
    clocks.pause(event.id, 1, later(10))
    with pytest.raises(InvalidInput, match="already paused"):
        clocks.pause(event.id, 1, later(11))
    clocks.resume(event.id, 1, later(14))
    assert clocks.round(event.id, 1).ends_at(later(20)) == later(54)


def test_extensions_need_a_started_round_and_add_up(store: LogStore) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    with pytest.raises(InvalidInput, match="has not started") as refused:
        clocks.extend(event.id, 1, "12", 3)
    # Placed under the round, for the same reason as a pause before the start (field, reason).
    assert (refused.value.field, refused.value.reason) == ("round", "not_started")
    assert clocks.rows(event.id).count == 0  # nothing changed
    clocks.start(event.id, 1, START)
    for bad_minutes in (0, -3, 24 * 60 + 1):
        with pytest.raises(InvalidInput):
            clocks.extend(event.id, 1, "12", bad_minutes)
    with pytest.raises(InvalidInput):
        clocks.extend(event.id, 1, " ", 3)
    clocks.extend(event.id, 1, "１２", 3)  # width-folded: one table, one spelling
    clocks.extend(event.id, 1, "12", 4)
    clocks.extend(event.id, 1, "3", 2)
    rows = clocks.round(event.id, 1).tables(later(50))
    assert [(r.table, r.minutes, r.ends_at) for r in rows] == [
        ("3", 2, later(52)),
        ("12", 7, later(57)),
    ]


def test_mark_finished_and_remove_an_extension(store: LogStore) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    clocks.start(event.id, 1, START)
    first = clocks.extend(event.id, 1, "5", 3)
    clocks.extend(event.id, 1, "5", 2)
    clocks.set_finished(event.id, 1, "5")
    (row,) = clocks.round(event.id, 1).tables(later(50))
    assert row.finished
    clocks.remove_extension(first.id)
    (row,) = clocks.round(event.id, 1).tables(later(50))
    assert (row.minutes, row.finished) == (2, True)
    assert any(e.stamp.deleted for e in clocks.rows(event.id).extensions)  # a tombstone


def test_an_extension_linked_to_a_record(store: LogStore) -> None:
    from records_support import entry

    event = store.create_event("大会")
    record = store.add_record(event.id, entry("山田", table="7"))
    clocks = store.round_clock
    clocks.start(event.id, 1, START)
    clocks.extend(event.id, 1, "7", 3, record_id=record.id)
    ((number, extension),) = clocks.extensions_of_record(record.id)
    assert (number, extension.table, extension.minutes) == (1, "7", 3)
    with pytest.raises(InvalidInput, match="not a record id"):
        clocks.extend(event.id, 1, "7", 3, record_id="nope")


def test_reload_and_restart_give_the_same_remaining_time(
    regulation: Regulation, tmp_path: Path
) -> None:
    folder = tmp_path / "a"
    with open_store(regulation, folder, Clock(START)) as first:
        event = first.create_event("大会")
        first.round_clock.start(event.id, 1, START)
        first.round_clock.pause(event.id, 1, later(10))
        first.round_clock.resume(event.id, 1, later(13))
        first.round_clock.extend(event.id, 1, "8", 4)
        before = first.round_clock.round(event.id, 1)
    with open_store(regulation, folder, Clock(later(30))) as again:  # a restart, later on
        after = again.round_clock.round(event.id, 1)
    assert after == before
    assert after.remaining_seconds(later(30)) == 23 * 60


def _export(store: LogStore, event_id: str) -> bytes:
    return json_bytes(event_export(store, event_id)[0])


def test_another_device_importing_the_export_shows_the_same_clock(
    regulation: Regulation, tmp_path: Path
) -> None:
    a = open_store(regulation, tmp_path / "a", Clock(START))
    b = open_store(regulation, tmp_path / "b", Clock(START))
    try:
        event = a.create_event("大会")
        a.round_clock.set_default_minutes(event.id, 45)
        a.round_clock.start(event.id, 1, START)
        a.round_clock.pause(event.id, 1, later(5))
        a.round_clock.resume(event.id, 1, later(7))
        a.round_clock.extend(event.id, 1, "12", 3)
        data = _export(a, event.id)
        assert json.loads(data)["clock"]["rounds"][0]["started_at"].startswith("2026-11-28T13:00")
        report = b.merge(parse_export(data, regulation))
        assert report.clock == (5, 0, 0)  # length, round, pause, resume, extension
        moment = later(33)
        assert b.round_clock.round(event.id, 1) == a.round_clock.round(event.id, 1)
        assert b.round_clock.round(event.id, 1).remaining_seconds(moment) == 14 * 60
        assert b.round_clock.default_minutes(event.id) == 45
        # Importing it again adds nothing.
        assert b.merge(parse_export(data, regulation)).clock == (0, 0, 5)
    finally:
        a.close()
        b.close()


def test_the_later_update_wins_item_by_item(regulation: Regulation, tmp_path: Path) -> None:
    a = open_store(regulation, tmp_path / "a", Clock(START))
    b = open_store(regulation, tmp_path / "b", Clock(later(1)))
    try:
        event = a.create_event("大会")
        a.round_clock.start(event.id, 1, START)
        extension = a.round_clock.extend(event.id, 1, "3", 2)
        b.merge(parse_export(_export(a, event.id), regulation))
        # b (later) corrects the start and removes the extension; a adds another one.
        b.round_clock.start(event.id, 1, later(1))
        b.round_clock.remove_extension(extension.id)
        a.round_clock.extend(event.id, 1, "9", 5)
        a.merge(parse_export(_export(b, event.id), regulation))
        b.merge(parse_export(_export(a, event.id), regulation))
        for device in (a, b):
            clock = device.round_clock.round(event.id, 1)
            assert clock.started_at == later(1)
            assert [(r.table, r.minutes) for r in clock.tables(later(5))] == [("9", 5)]
        assert a.round_clock.rows(event.id) == b.round_clock.rows(event.id)
    finally:
        a.close()
        b.close()


def test_an_event_matched_by_name_gets_the_clock_under_its_own_id(
    regulation: Regulation, tmp_path: Path
) -> None:
    a = open_store(regulation, tmp_path / "a", Clock(START))
    b = open_store(regulation, tmp_path / "b", Clock(START))
    try:
        event_a = a.create_event("同じ名前")
        event_b = b.create_event("同じ名前")
        a.round_clock.start(event_a.id, 2, START)
        b.merge(parse_export(_export(a, event_a.id), regulation))
        assert b.round_clock.round(event_b.id, 2).started_at == START
    finally:
        a.close()
        b.close()


def test_a_version_1_export_still_imports(regulation: Regulation, tmp_path: Path) -> None:
    with open_store(regulation, tmp_path / "a", Clock(START)) as a:
        event = a.create_event("古い形式")
        payload = event_export(a, event.id)[0]
    payload["version"] = 1
    del payload["clock"]
    imported = parse_export(json_bytes(payload), regulation)
    with open_store(regulation, tmp_path / "b", Clock(START)) as b:
        assert b.merge(imported).event.name == "古い形式"


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (lambda c: c["rounds"][0].update(minutes=0), "clock.rounds[0].minutes"),
        (lambda c: c["rounds"][0].update(started_at="13:00"), "clock.rounds[0].started_at"),
        (lambda c: c["extensions"][0].update(minutes=-1), "clock.extensions[0].minutes"),
        (lambda c: c["extensions"][0].update(record="x"), "clock.extensions[0].record"),
        (lambda c: c["marks"][0].update(kind="stop"), "clock.marks[0].kind"),
        (lambda c: c["marks"].append(dict(c["marks"][0])), "appears twice"),
        (lambda c: c.update(rounds="no"), "clock.rounds: must be a list"),
    ],
)
def test_a_bad_clock_in_an_export_is_refused_in_one_line(
    regulation: Regulation, tmp_path: Path, change, fault: str
) -> None:
    with open_store(regulation, tmp_path / "a", Clock(START)) as a:
        event = a.create_event("大会")
        a.round_clock.start(event.id, 1, START)
        a.round_clock.pause(event.id, 1, later(1))
        a.round_clock.extend(event.id, 1, "1", 2)
        payload = event_export(a, event.id)[0]
    change(payload["clock"])
    with pytest.raises(InvalidInput, match=r"import refused.*" + fault.replace("[", r"\[")) as err:
        parse_export(json_bytes(payload), regulation)
    assert "\n" not in str(err.value)


def test_the_clock_tables_refuse_impossible_rows(store: LogStore) -> None:
    event = store.create_event("大会")
    with pytest.raises(sqlite3.IntegrityError):
        store._db.execute(
            "INSERT INTO clock_rounds (uuid, event_uuid, number, minutes, created_at,"
            " updated_at, updated_us) VALUES ('x', ?, 1, 2000, '', '', 0)",
            (event.id,),
        )


def test_a_round_started_by_mistake_is_unstarted_here_and_on_other_devices(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Un-starting keeps the round's pauses and extensions, and another device that had the
    start hears of it: the round is not started there either."""
    a = open_store(regulation, tmp_path / "a", Clock(START))
    b = open_store(regulation, tmp_path / "b", Clock(later(30)))
    try:
        event = a.create_event("大会")
        other = a.create_event("別の大会")
        for started in (event, other):
            a.round_clock.start(started.id, 1, START)
        a.round_clock.pause(event.id, 1, later(2))
        a.round_clock.extend(event.id, 1, "4", 2)
        b.merge(parse_export(_export(a, event.id), regulation))
        cleared = b.round_clock.clear_start(event.id, 1)
        assert (cleared.number, cleared.started_at) == (1, None)
        assert cleared == b.round_clock.round(event.id, 1)
        assert len(cleared.marks) == 1 and len(cleared.extensions) == 1
        assert b.round_clock.current(event.id) is None
        assert a.merge(parse_export(_export(b, event.id), regulation)).clock == (0, 1, 2)
        assert not a.round_clock.round(event.id, 1).started
        assert a.round_clock.round(other.id, 1).started_at == START  # its own event only
    finally:
        a.close()
        b.close()


def test_an_unknown_extension_is_refused_and_a_removed_one_stays_gone(store: LogStore) -> None:
    event = store.create_event("大会")
    judged = store.add_record(event.id, entry("山田", table="4"))
    clocks = store.round_clock
    clocks.start(event.id, 1, START)
    kept = clocks.extend(event.id, 1, "4", 2, record_id=judged.id)
    clocks.set_finished(event.id, 1, "4")
    removed = clocks.extend(event.id, 1, "4", 5, record_id=judged.id)
    store.clock = Clock(START - timedelta(hours=1))  # the device's clock went back
    clocks.remove_extension(removed.id)
    ((number, extension),) = clocks.extensions_of_record(judged.id)
    assert number == 1
    assert (extension.id, extension.table, extension.minutes) == (kept.id, "4", 2)
    assert (extension.record_id, extension.finished) == (judged.id, True)
    assert extension.created_at == kept.created_at
    unknown = "6f1d2a9c-0000-4000-8000-0000000000ff"
    with pytest.raises(InvalidInput) as refused:
        clocks.remove_extension(unknown)
    assert (str(refused.value), refused.value.field, refused.value.reason) == (
        f"no extension {unknown!r}",
        "extension",
        "unknown_id",
    )
    (tombstone,) = [e for e in clocks.rows(event.id).extensions if e.stamp.id == removed.id]
    # still later than the extension it removes, so that a merge keeps it removed
    assert tombstone.stamp.deleted and tombstone.stamp.updated_at > tombstone.stamp.created_at


def test_the_rounds_of_an_event_are_its_own_with_their_lengths(store: LogStore) -> None:
    event = store.create_event("大会")
    other = store.create_event("別の大会")
    clocks = store.round_clock
    assert clocks.set_round_minutes(event.id, 2, 35).minutes == 35
    clocks.start(event.id, 1, START)
    clocks.start(other.id, 3, START)
    assert [(r.number, r.minutes, r.started_at) for r in clocks.rounds(event.id)] == [
        (1, 50, START),
        (2, 35, None),
    ]


def test_a_rounds_length_is_refused_under_its_field_and_saved_later_than_before(
    store: LogStore,
) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    for minutes, why, reason in (
        (0, "a round lasts 1 to 1440 minutes, not 0", "out_of_range"),
        ("50", "must be a whole number of minutes", "format"),
    ):
        with pytest.raises(InvalidInput) as refused:
            clocks.set_default_minutes(event.id, minutes)  # type: ignore[arg-type]
        assert (str(refused.value), refused.value.field, refused.value.reason) == (
            f"round_minutes: {why}",
            "round_minutes",
            reason,
        )
    clocks.start(event.id, 1, START)
    with pytest.raises(InvalidInput) as refused:
        clocks.extend(event.id, 1, "7", 3, record_id="nope")
    assert (str(refused.value), refused.value.field) == (
        "record: not a record id (UUID): 'nope'",
        "record",
    )
    assert clocks.set_default_minutes(event.id, 45) == 45
    first = clocks.rows(event.id).event
    store.clock = Clock(START - timedelta(hours=1))  # the device's clock went back
    clocks.set_default_minutes(event.id, 40)
    second = clocks.rows(event.id).event
    assert first is not None and second is not None and second.round_minutes == 40
    assert second.stamp.updated_at > first.stamp.updated_at  # still the later edit


def test_a_pause_or_resume_out_of_turn_is_refused_under_its_field_and_reason(
    store: LogStore,
) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock

    def refused(call: object, *args: object) -> tuple[str, str | None, str]:
        with pytest.raises(InvalidInput) as caught:
            call(*args)  # type: ignore[operator]
        return str(caught.value), caught.value.field, caught.value.reason

    assert refused(clocks.pause, event.id, 1, START) == (
        "round 1 has not started",
        "round",
        "not_started",
    )
    clocks.start(event.id, 1, later(1))
    assert refused(clocks.pause, event.id, 1, START) == (
        f"at: {START.isoformat(timespec='microseconds')} is before round 1 started",
        "at",
        "out_of_range",
    )
    assert refused(clocks.resume, event.id, 1, later(2)) == (
        "round 1 is not paused",
        "round",
        "not_paused",
    )
    paused = clocks.pause(event.id, 1, later(1))  # at the very start
    assert (paused.number, paused.marks[0].at) == (1, later(1))
    assert refused(clocks.pause, event.id, 1, later(3)) == (
        "round 1 is already paused",
        "round",
        "paused",
    )
    assert refused(clocks.extend, event.id, 1, " ", 2) == ("table: required", "table", "required")


def test_the_clock_read_back_names_the_rows_the_store_wrote(store: LogStore) -> None:
    """A pause and an extension read back with their own ids and times (the screens remove
    and finish them by id), and an extension is read back as it was given."""
    event = store.create_event("大会")
    judged = store.add_record(event.id, entry("山田", table="6"))
    clocks = store.round_clock
    clocks.start(event.id, 1, START)
    paused = clocks.pause(event.id, 1, later(4))
    given = clocks.extend(event.id, 1, "６", 3, record_id=judged.id)
    assert (given.table, given.minutes, given.record_id, given.finished) == (
        "6",
        3,
        judged.id,
        False,
    )
    ((stored_mark,), (stored_extension,)) = (
        clocks.rows(event.id).marks,
        clocks.rows(event.id).extensions,
    )
    assert paused.marks[0].id == stored_mark.stamp.id
    assert given.id == stored_extension.stamp.id
    assert given.created_at == stored_extension.stamp.created_at
    assert clocks.round(event.id, 1).extensions == (given,)
    assert clocks.round(event.id, 1).marks == paused.marks


def test_a_clock_started_or_paused_without_a_time_takes_the_devices_and_a_naive_time_is_refused(
    store: LogStore,
) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    store.clock = Clock(later(3), step=timedelta(0))
    assert clocks.start(event.id, 1).started_at == later(3)
    store.clock = Clock(later(8), step=timedelta(0))
    assert clocks.pause(event.id, 1).marks[0].at == later(8)
    naive = datetime(2026, 11, 28, 13, 30)
    for call in (clocks.start, clocks.resume):
        with pytest.raises(InvalidInput) as refused:
            call(event.id, 1, naive)
        assert (refused.value.field, refused.value.reason) == ("at", "format")
        assert str(refused.value) == "at: must be a date and time with a UTC offset"
    assert clocks.round(event.id, 1).started_at == later(3)  # nothing changed
    assert len(clocks.round(event.id, 1).marks) == 1


def test_a_table_marked_finished_after_the_clock_went_back_is_still_the_later_edit(
    store: LogStore,
) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    clocks.start(event.id, 1, START)
    clocks.extend(event.id, 1, "2", 4)
    (given,) = clocks.rows(event.id).extensions
    store.clock = Clock(START - timedelta(hours=1))  # the device's clock went back
    clocks.set_finished(event.id, 1, "2")
    (finished,) = clocks.rows(event.id).extensions
    assert finished.finished and finished.stamp.updated_at > given.stamp.updated_at


def test_a_round_removed_elsewhere_keeps_neither_its_start_nor_its_length(
    store: LogStore,
) -> None:
    """A round's tombstone (from another device) is read as a round never stored: not
    started, the event's length."""
    event = store.create_event("大会")
    clocks = store.round_clock
    clocks.start(event.id, 2, START, minutes=30)
    with store._db:  # as a merge of a removal leaves it
        store._db.execute("UPDATE clock_rounds SET deleted = 1 WHERE number = 2")
    removed = clocks.round(event.id, 2)
    assert (removed.started_at, removed.minutes) == (None, DEFAULT_ROUND_MINUTES)
    assert clocks.current(event.id) is None and clocks.rounds(event.id) == ()
    # stored again here, it starts afresh: neither the removed start nor the removed length
    assert clocks.set_round_minutes(event.id, 2, 40).started_at is None
    with store._db:
        store._db.execute("UPDATE clock_rounds SET deleted = 1 WHERE number = 2")
    assert clocks.start(event.id, 2, later(60)).minutes == DEFAULT_ROUND_MINUTES


def test_a_round_without_a_number_is_refused_under_its_field(store: LogStore) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    calls = ((clocks.round, ()), (clocks.start, (START,)), (clocks.set_round_minutes, (30,)))
    for call, rest in calls:
        args = (event.id, None, *rest)
        with pytest.raises(InvalidInput) as refused:
            call(*args)  # type: ignore[operator]
        assert (str(refused.value), refused.value.field, refused.value.reason) == (
            "round: required",
            "round",
            "required",
        )
    assert clocks.rows(event.id).count == 0  # nothing stored


def test_a_round_corrected_after_the_clock_went_back_is_still_the_later_edit(
    store: LogStore,
) -> None:
    event = store.create_event("大会")
    clocks = store.round_clock
    clocks.start(event.id, 1, START)
    (first,) = clocks.rows(event.id).rounds
    store.clock = Clock(START - timedelta(hours=1))  # the device's clock went back
    clocks.start(event.id, 1, later(2))  # corrected: so that a merge keeps the correction
    (second,) = clocks.rows(event.id).rounds
    assert second.started_at == later(2) and second.stamp.updated_at > first.stamp.updated_at
