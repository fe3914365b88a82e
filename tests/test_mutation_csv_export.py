"""The CSV export (records/csv_export.py) cell by cell, at the edges mutation testing found
untested: every column of a full record and of a bare one, a deleted record between live ones,
formula characters in each text cell, the minutes and seconds late at their boundaries, and an
infraction or tier this regulation no longer has."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest
from records_support import JST

from records.csv_export import CSV_COLUMNS, export_csv
from records.model import Event, Player, Record, RecordedBy
from regulation.model import Regulation

EVENT = Event("e-uuid", "地区大会", date(2026, 11, 28))
AT = datetime(2026, 11, 28, 13, 5, 30, 123456, tzinfo=JST)


def record(number: int, **fields: object) -> Record:
    values: dict[str, object] = {
        "id": f"r-{number}",
        "event_id": EVENT.id,
        "created_at": AT + timedelta(minutes=number),
        "updated_at": AT + timedelta(minutes=number, seconds=7),
        "round": None,
        "table": None,
        "player": Player("山田"),
        "infraction_id": "bribery",
        "tier_id": "caution",
        "note": None,
    }
    values.update(fields)
    return Record(**values)  # type: ignore[arg-type]


def rows(data: bytes) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # the BOM a Japanese spreadsheet needs
    text = data[3:].decode("utf-8")
    assert text.startswith(",".join(CSV_COLUMNS) + "\r\n") and text.endswith("\r\n")  # CRLF rows
    table = list(csv.reader(io.StringIO(text, newline="")))
    assert tuple(table[0]) == CSV_COLUMNS
    return [dict(zip(CSV_COLUMNS, row, strict=True)) for row in table[1:]]


def test_every_column_of_a_full_record(regulation: Regulation) -> None:
    full = record(
        1,
        round=3,
        table="12",
        player=Player("山田太郎", "A-1"),
        tier_id="warning",
        note="一行目\n二行目",
        recorded_by=RecordedBy("佐藤", "device-1"),
        arrived_at=AT + timedelta(minutes=8, seconds=26),
        late_seconds=506,
        occurrence=2,
    )
    infraction = regulation.infraction("bribery")
    assert infraction is not None
    title = regulation.standalone_title(infraction)
    tier = regulation.tier("warning")
    assert tier is not None
    assert rows(export_csv(EVENT, (full,), regulation)) == [
        {
            "record_id": "r-1",
            "event": "地区大会",
            "created_at": "2026-11-28T13:06:30.123456+09:00",
            "updated_at": "2026-11-28T13:06:37.123456+09:00",
            "round": "3",
            "table": "12",
            "player_name": "山田太郎",
            "player_id": "A-1",
            "infraction_id": "bribery",
            "infraction_ja": title.ja,
            "infraction_en": title.en,
            "tier_id": "warning",
            "tier_ja": tier.title.ja,
            "tier_en": tier.title.en,
            "note": "一行目\n二行目",
            "recorded_by_judge": "佐藤",
            "recorded_by_device": "device-1",
            "arrived_at": "2026-11-28T13:13:56.123456+09:00",
            "late_minutes": "8",
            "late_seconds": "26",
            "occurrence": "2",
        }
    ]
    assert title.ja and title.en and tier.title.ja and tier.title.en


def test_a_bare_record_leaves_its_optional_cells_empty(regulation: Regulation) -> None:
    (row,) = rows(export_csv(EVENT, (record(1),), regulation))
    for column in (
        "round",
        "table",
        "player_id",
        "note",
        "recorded_by_judge",
        "recorded_by_device",
        "arrived_at",
        "late_minutes",
        "late_seconds",
        "occurrence",
    ):
        assert row[column] == "", column
    assert (row["player_name"], row["tier_id"]) == ("山田", "caution")


def test_deleted_records_are_left_out_and_the_rest_kept_in_order(regulation: Regulation) -> None:
    given = (
        record(1, deleted=True),
        record(2),
        record(3, deleted=True),
        record(4),
        record(5),
    )
    assert [r["record_id"] for r in rows(export_csv(EVENT, given, regulation))] == [
        "r-2",
        "r-4",
        "r-5",
    ]
    assert rows(export_csv(EVENT, (), regulation)) == []


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r", "＝", "＋", "－", "＠", "﹦"])
def test_a_text_cell_a_spreadsheet_would_run_gets_an_apostrophe(
    regulation: Regulation, start: str
) -> None:
    text = f"{start}1+1"
    event = Event("e", text, None)
    given = record(
        1,
        table=text,
        player=Player(text, text),
        note=text,
        recorded_by=RecordedBy(text, "=device"),
    )
    (row,) = rows(export_csv(event, (given,), regulation))
    for column in ("event", "table", "player_name", "player_id", "note", "recorded_by_judge"):
        assert row[column] == "'" + text, column
    assert row["recorded_by_device"] == "=device"  # the app's own id, never a formula


@pytest.mark.parametrize("text", ["1=1", "a+b", "山田-太郎", "x@y", "'quoted", "１"])
def test_other_text_is_left_as_it_is(regulation: Regulation, text: str) -> None:
    (row,) = rows(export_csv(Event("e", text, None), (record(1, note=text),), regulation))
    assert (row["event"], row["note"]) == (text, text)


@pytest.mark.parametrize(
    ("seconds", "minutes_cell", "seconds_cell"),
    [(0, "0", "0"), (59, "0", "59"), (60, "1", "0"), (61, "1", "1"), (3599, "59", "59")],
)
def test_minutes_and_seconds_late(
    regulation: Regulation, seconds: int, minutes_cell: str, seconds_cell: str
) -> None:
    (row,) = rows(export_csv(EVENT, (record(1, late_seconds=seconds),), regulation))
    assert (row["late_minutes"], row["late_seconds"]) == (minutes_cell, seconds_cell)


def test_an_infraction_and_tier_this_regulation_lacks_are_kept_by_id(
    regulation: Regulation,
) -> None:
    old = record(1, infraction_id="withdrawn-infraction", tier_id="withdrawn-tier")
    (row,) = rows(export_csv(EVENT, (old,), regulation))
    assert (row["infraction_id"], row["tier_id"]) == ("withdrawn-infraction", "withdrawn-tier")
    assert [row[c] for c in ("infraction_ja", "infraction_en", "tier_ja", "tier_en")] == [""] * 4


def test_times_keep_their_offset_and_microseconds(regulation: Regulation) -> None:
    utc = record(1, created_at=datetime(2026, 11, 28, 4, 0, tzinfo=UTC))
    (row,) = rows(export_csv(EVENT, (utc,), regulation))
    assert row["created_at"] == "2026-11-28T04:00:00.000000+00:00"
