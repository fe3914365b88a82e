"""Small modules of the log at the edges mutation testing found untested: the round clock's
rows as stored, versioned and merged (records/clock_tables.py, records/clock_merge.py) and the
clock in an export file (records/clock_rows.py). The faults' one line is in
tests/test_mutation_faults.py; the tiers' and the match slip's are in tests/test_records_tiers.py
and tests/test_records_slip.py."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from records_support import JST, ROUND_START, Clock, at, entry, open_store

from records.clock_rows import ClockData, clock_json, parse_clock
from records.clock_tables import (
    ClockRow,
    iso_or_none,
    parse_or_none,
)
from records.database import to_us
from records.errors import InvalidInput
from records.exchange import event_export, json_bytes, parse_export
from records.store import LogStore
from records.sync.hlc import legacy_stamp
from regulation.model import Regulation


def test_a_clock_moment_is_stored_to_the_microsecond_and_read_back_the_same() -> None:
    moment = datetime(2026, 12, 2, 13, 5, 0, tzinfo=JST)
    text = iso_or_none(moment)
    assert text == "2026-12-02T13:05:00.000000+09:00"  # whole seconds keep their digits
    assert parse_or_none(text) == moment
    assert iso_or_none(None) is None and parse_or_none(None) is None


# -- the round clock's rows: stored, versioned and merged ---------------------------------------


def a_round_with_everything(store: LogStore) -> str:
    """An event whose clock has a row of every kind: its length, round 1 (started, paused,
    resumed, one table extended for a record and finished, another removed) and round 2 set but
    not started."""
    event = store.create_event("大会")
    clocks = store.round_clock
    clocks.set_default_minutes(event.id, 45)
    clocks.start(event.id, 1, ROUND_START)
    clocks.pause(event.id, 1, at(5))
    clocks.resume(event.id, 1, at(7))
    judged = store.add_record(event.id, entry("山田", table="12"))
    clocks.extend(event.id, 1, "12", 3, record_id=judged.id)
    clocks.set_finished(event.id, 1, "12")
    removed = clocks.extend(event.id, 1, "A-4", 2)
    clocks.remove_extension(removed.id)
    clocks.set_round_minutes(event.id, 2, 40)
    return event.id


def clock_versions(path: Path) -> list[tuple[str, str, int, str, str, str, str]]:
    with closing(sqlite3.connect(path)) as db:
        return db.execute(
            "SELECT kind, item_uuid, stamp, device, saved_at, body, event_uuid FROM item_versions"
            " WHERE kind LIKE 'clock.%' ORDER BY kind, item_uuid, stamp"
        ).fetchall()


def test_a_log_from_before_clock_versions_gets_one_version_per_row_when_opened(
    regulation: Regulation, tmp_path: Path
) -> None:
    """The versions of a log made before clock versions: each row without one gets one,
    stamped from its updated_at with no device (the same on every device); a row that has
    versions keeps exactly them; and the log's clock reads the same before and after."""
    with open_store(regulation, tmp_path / "old", Clock(ROUND_START)) as old:
        event_id = a_round_with_everything(old)
        rows = old.round_clock.rows(event_id)
        path = old.path
    made = clock_versions(path)
    kept = [v for v in made if v[0] == "clock.event"]  # the event's length keeps its own
    assert len(kept) == 1
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("DELETE FROM item_versions WHERE kind LIKE 'clock.%' AND kind != 'clock.event'")
        db.execute("DELETE FROM settings WHERE key = 'sync.clock_backfilled'")
    with open_store(regulation, tmp_path / "old", Clock(at(60))) as reopened:
        assert reopened.round_clock.rows(event_id) == rows
    backfilled = clock_versions(path)
    every_row: list[ClockRow] = [*rows.rounds, *rows.marks, *rows.extensions]
    assert len(every_row) == 6  # 2 rounds, a pause, a resume, 2 extensions
    assert sorted(v[1] for v in backfilled if v[0] != "clock.event") == sorted(
        row.stamp.id for row in every_row
    )
    for version in backfilled:
        if version[0] != "clock.event":
            row = next(row for row in every_row if row.stamp.id == version[1])
            assert version[2:5] == (
                legacy_stamp(to_us(row.stamp.updated_at)),
                "",
                row.stamp.updated_at.isoformat(timespec="microseconds"),
            )
            assert version[6] == event_id
    assert [v for v in backfilled if v[0] == "clock.event"] == kept
    with open_store(regulation, tmp_path / "old", Clock(at(90))):
        pass
    assert clock_versions(path) == backfilled  # once: opening again adds nothing


def test_an_import_lands_every_clock_row_as_it_was_and_counts_each_once(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Another device's clock, rows of every kind (a finished extension, a removed one, a round
    not started), lands as it was; imported again after one row changed and one was added there,
    the clock says 1 added, 1 updated, the rest unchanged (its records are not clock rows)."""
    with (
        open_store(regulation, tmp_path / "a", Clock(ROUND_START)) as a,
        open_store(regulation, tmp_path / "b", Clock(ROUND_START)) as b,
    ):
        event_id = a_round_with_everything(a)
        a.add_record(event_id, entry("鈴木", table="3"))
        first = b.merge(parse_export(json_bytes(event_export(a, event_id)[0]), regulation))
        assert (first.added, first.clock) == (2, (7, 0, 0))
        assert b.round_clock.rows(event_id) == a.round_clock.rows(event_id)
        assert b.round_clock.rounds(event_id) == a.round_clock.rounds(event_id)
        (judged,) = (r for r in b.records(event_id) if r.player.name == "山田")
        linked = {row.table: row.record_id for row in b.round_clock.rows(event_id).extensions}
        assert linked == {"12": judged.id, "A-4": None}
        a.round_clock.set_round_minutes(event_id, 2, 35)
        a.round_clock.extend(event_id, 1, "3", 4)
        again = b.merge(parse_export(json_bytes(event_export(a, event_id)[0]), regulation))
        assert (again.unchanged, again.clock) == (2, (1, 1, 6))
        assert b.round_clock.rows(event_id) == a.round_clock.rows(event_id)
        assert b.round_clock.round(event_id, 2).minutes == 35


def test_a_clock_without_versions_lands_whole_and_the_same_on_every_device(
    regulation: Regulation, tmp_path: Path
) -> None:
    """A file from before the clock had versions, with a row of every kind (the event's length
    first among them): every row lands, and two devices that import it make the same versions
    (stamped from each row's updated_at, no device), so they merge with each other later."""
    with open_store(regulation, tmp_path / "a", Clock(ROUND_START)) as a:
        event_id = a_round_with_everything(a)
        rows = a.round_clock.rows(event_id)
        payload = event_export(a, event_id)[0]
    del payload["clock"]["versions"]
    made = []
    for device in ("b", "c"):
        with open_store(regulation, tmp_path / device, Clock(at(30))) as store:
            report = store.merge(parse_export(json_bytes(payload), regulation))
            assert report.clock == (7, 0, 0)
            assert store.round_clock.rows(event_id) == rows
            assert store.round_clock.default_minutes(event_id) == 45
            path = store.path
        made.append(clock_versions(path))
    assert made[0] == made[1]
    assert len(made[0]) == 7
    assert {(version[3], version[6]) for version in made[0]} == {("", event_id)}


def test_an_older_clock_edit_from_elsewhere_loses_and_counts_as_unchanged(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Both devices changed the event's length and round 2's, this one later: the other's edits
    arrive, are kept as versions, lose, and count as unchanged, and the rows that sort after
    them (a new extension there) are still merged."""
    with (
        open_store(regulation, tmp_path / "a", Clock(ROUND_START)) as a,
        open_store(regulation, tmp_path / "b", Clock(at(60))) as b,
    ):
        event_id = a_round_with_everything(a)
        b.merge(parse_export(json_bytes(event_export(a, event_id)[0]), regulation))
        a.round_clock.set_default_minutes(event_id, 40)
        a.round_clock.set_round_minutes(event_id, 2, 35)
        a.round_clock.extend(event_id, 1, "5", 2)
        b.round_clock.set_default_minutes(event_id, 55)
        b.round_clock.set_round_minutes(event_id, 2, 38)
        report = b.merge(parse_export(json_bytes(event_export(a, event_id)[0]), regulation))
        assert report.clock == (1, 0, 7)  # the new extension; the 7 rows b had, 2 of them lost
        assert b.round_clock.default_minutes(event_id) == 55
        assert b.round_clock.round(event_id, 2).minutes == 38
        assert [row.table for row in b.round_clock.rows(event_id).extensions] == ["12", "A-4", "5"]


def test_a_clock_row_stays_in_its_event_when_its_next_version_comes_under_another(
    regulation: Regulation, tmp_path: Path
) -> None:
    """Device b merged a's event into its own of the same name, so a's extension lives there
    under b's event; c has it under a's event, since renamed. When b's later edit of it reaches
    c (b's event is new to c), the edit applies to the row where c has it: it never moves."""
    with (
        open_store(regulation, tmp_path / "a", Clock(ROUND_START)) as a,
        open_store(regulation, tmp_path / "b", Clock(at(30))) as b,
        open_store(regulation, tmp_path / "c", Clock(at(60))) as c,
    ):
        event_a = a.create_event("大会").id
        a.round_clock.start(event_a, 1, ROUND_START)
        extension = a.round_clock.extend(event_a, 1, "8", 3)
        from_a = json_bytes(event_export(a, event_a)[0])
        event_b = b.create_event("大会").id
        b.merge(parse_export(from_a, regulation))  # into b's own 大会
        c.merge(parse_export(from_a, regulation))  # a's 大会 itself
        c.update_event(event_a, "大会（午前）", None)
        b.round_clock.remove_extension(extension.id)
        c.merge(parse_export(json_bytes(event_export(b, event_b)[0]), regulation))
        (kept,) = c.round_clock.rows(event_a).extensions
        assert (kept.stamp.id, kept.stamp.deleted) == (extension.id, True)
        assert c.round_clock.rows(event_b).extensions == ()


# -- the clock in an export file (records/clock_rows.py) ----------------------------------------

IDS = [f"6f1d2a9c-0000-4000-8000-00000000000{n}" for n in range(8)]
AT_1300 = "2026-11-28T13:00:00.000000+09:00"


def stamped(n: int, **fields: object) -> dict[str, object]:
    return {"id": IDS[n], "created_at": AT_1300, "updated_at": AT_1300, "deleted": False, **fields}


def a_clock() -> dict[str, Any]:
    """A file's clock as the app writes it: a row of every kind, a round of its own length
    that was removed (a tombstone), an extension for a record, finished."""
    return {
        "event": stamped(0, round_minutes=45),
        "rounds": [
            stamped(1, number=1, minutes=None, started_at=AT_1300),
            {**stamped(4, number=2, minutes=40, started_at=None), "deleted": True},
        ],
        "marks": [stamped(2, round=1, kind="pause", at="2026-11-28T13:05:00.000000+09:00")],
        "extensions": [stamped(3, round=1, table="12", minutes=3, record=IDS[5], finished=True)],
    }


def test_a_files_clock_reads_back_as_written() -> None:
    data = parse_clock(a_clock())
    assert data.count == 5 and clock_json(data) == a_clock()
    assert data.rounds[1].stamp.deleted and data.rounds[1].minutes == 40
    assert parse_clock(None) == ClockData() == parse_clock({})
    assert clock_json(ClockData()) == {"event": None, "rounds": [], "marks": [], "extensions": []}
    bare = a_clock()
    for row in (*bare["rounds"], *bare["marks"], *bare["extensions"]):
        row.pop("deleted")
    del bare["extensions"][0]["finished"]
    bare["extensions"][0]["id"] = IDS[3].upper()  # any spelling of a UUID, kept in one
    read = parse_clock(bare)
    assert (read.extensions[0].stamp.id, read.extensions[0].stamp.deleted) == (IDS[3], False)
    assert not read.extensions[0].finished and not read.rounds[1].stamp.deleted


DROP = object()  # the key left out
ISO = "not an ISO 8601 date and time: 'x'"
MINUTES = "must be a whole number of minutes"


@pytest.mark.parametrize(
    ("where", "value", "why", "reason"),
    [
        ("event", [], "must be an object", "format"),
        ("event.round_minutes", 0, "a round lasts 1 to 1440 minutes, not 0", "out_of_range"),
        ("event.id", DROP, "missing or not a UUID", "required"),
        ("rounds", {}, "must be a list", "format"),
        ("rounds[0].number", DROP, "required", "required"),
        ("rounds[0].minutes", "50", MINUTES, "format"),
        ("rounds[0].started_at", "x", ISO, "format"),
        ("rounds[0].created_at", "x", ISO, "format"),
        ("rounds[0].updated_at", "x", ISO, "format"),
        ("marks[0]", 1, "must be an object", "format"),
        ("marks[0].kind", "stop", 'must be "pause" or "resume"', "format"),
        ("marks[0].round", DROP, "required", "required"),
        ("marks[0].round", 0, "must be 1 to 999", "out_of_range"),
        ("extensions[0].round", "2", "must be a whole number", "format"),
        ("rounds[0].number", 0, "must be 1 to 999", "out_of_range"),
        ("marks[0].at", "x", ISO, "format"),
        ("marks[0].id", "x", "not a UUID: 'x'", "format"),
        ("extensions", {}, "must be a list", "format"),
        ("extensions[0].table", " ", "required", "required"),
        ("extensions[0].table", "x" * 33, "longer than 32 characters", "too_long"),
        ("extensions[0].finished", "yes", "must be true or false", "format"),
        ("extensions[0].deleted", 0, "must be true or false", "format"),
        ("extensions[0].minutes", 0, "an extension is 1 to 1440 minutes, not 0", "out_of_range"),
        ("extensions[0].record", "x", "not a UUID: 'x'", "format"),
        ("extensions[0].record", 5, "missing or not a UUID", "required"),
    ],
)
def test_a_bad_clock_in_a_file_is_refused_naming_the_place(
    where: str, value: object, why: str, reason: str
) -> None:
    clock = a_clock()
    *path, key = where.replace("[0]", ".0").split(".")
    parent: Any = clock
    for step in path:
        parent = parent[int(step) if step.isdigit() else step]
    if value is DROP:
        del parent[key]
    else:
        parent[int(key) if key.isdigit() else key] = value
    with pytest.raises(InvalidInput) as refused:
        parse_clock(clock)
    found = (str(refused.value), refused.value.field, refused.value.reason)
    assert found == (f"clock.{where}: {why}", f"clock.{where}", reason)


def test_a_clock_row_given_twice_or_a_round_twice_is_refused() -> None:
    twice = a_clock()
    twice["marks"][0]["id"] = IDS[0]  # the event row's id
    repeated = a_clock()
    repeated["rounds"].append(stamped(6, number=1, minutes=40, started_at=None))
    for clock, message in (
        (twice, f"clock: the row {IDS[0]} appears twice"),
        (repeated, "clock.rounds: round 1 given twice"),
    ):
        with pytest.raises(InvalidInput) as refused:
            parse_clock(clock)
        assert (str(refused.value), refused.value.field, refused.value.reason) == (
            message,
            "clock",
            "duplicate",
        )
    with pytest.raises(InvalidInput) as elsewhere:
        parse_clock("a clock", "file.clock")
    assert (str(elsewhere.value), elsewhere.value.field) == (
        "file.clock: must be an object",
        "file.clock",
    )
