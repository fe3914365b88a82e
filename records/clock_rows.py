"""The round clock's stored rows as they travel between devices (export files, venue sync).

Each row is one item: its own UUID, the event's UUID, created/updated instants and a tombstone
(`deleted`) instead of a hard delete. Every save of a row is a version (records/sync/
clock_items.py) and the row is the version with the largest (stamp, device), as for records
(records/clock_merge.py), so any device that has seen the same versions shows the same clock.

The one row per event (its default round length) and the one row per round (length, start) have
UUIDs derived from the event's UUID (`event_row_id`, `round_row_id`): two devices that each set
round 3 write versions of one row, not two rows.

JSON (the export's `"clock"` object; records/exchange.py)::

    {"event": EVENT_ROW|null, "rounds": [ROUND_ROW…], "marks": [MARK_ROW…],
     "extensions": [EXTENSION_ROW…]}
    common to all: "id": UUID, "created_at": ISO, "updated_at": ISO, "deleted": BOOL
    EVENT_ROW: + "round_minutes": M
    ROUND_ROW: + "number": N, "minutes": M|null (null: the event's), "started_at": ISO|null
    MARK_ROW: + "round": N, "kind": "pause"|"resume", "at": ISO
    EXTENSION_ROW: + "round": N, "table": T, "minutes": M, "record": UUID|null, "finished": BOOL
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import validate
from .clock import extension_minutes, round_minutes
from .errors import InvalidInput

# Namespace of the derived row UUIDs (uuid5 of "clock" in the URL namespace, fixed forever).
_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "ocg-penalty-guide/round-clock")


def event_row_id(event_id: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{event_id}/event"))


def round_row_id(event_id: str, number: int) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"{event_id}/round/{number}"))


@dataclass(frozen=True, slots=True)
class Stamp:
    """What every clock row carries for merging."""

    id: str
    created_at: datetime
    updated_at: datetime
    deleted: bool = False


@dataclass(frozen=True, slots=True)
class EventClockRow:
    stamp: Stamp
    round_minutes: int


@dataclass(frozen=True, slots=True)
class RoundRow:
    stamp: Stamp
    number: int
    minutes: int | None
    started_at: datetime | None


@dataclass(frozen=True, slots=True)
class MarkRow:
    stamp: Stamp
    round: int
    kind: str  # "pause" | "resume"
    at: datetime


@dataclass(frozen=True, slots=True)
class ExtensionRow:
    stamp: Stamp
    round: int
    table: str
    minutes: int
    record_id: str | None
    finished: bool


@dataclass(frozen=True, slots=True)
class ClockData:
    """All of one event's clock rows, tombstones included."""

    event: EventClockRow | None = None
    rounds: tuple[RoundRow, ...] = ()
    marks: tuple[MarkRow, ...] = ()
    extensions: tuple[ExtensionRow, ...] = field(default=())

    @property
    def count(self) -> int:
        return (self.event is not None) + len(self.rounds) + len(self.marks) + len(self.extensions)


# -- JSON ---------------------------------------------------------------------------------------


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="microseconds")


def _stamp_json(stamp: Stamp) -> dict[str, Any]:
    return {
        "id": stamp.id,
        "created_at": _iso(stamp.created_at),
        "updated_at": _iso(stamp.updated_at),
        "deleted": stamp.deleted,
    }


def clock_json(data: ClockData) -> dict[str, Any]:
    return {
        "event": None
        if data.event is None
        else {**_stamp_json(data.event.stamp), "round_minutes": data.event.round_minutes},
        "rounds": [
            {
                **_stamp_json(r.stamp),
                "number": r.number,
                "minutes": r.minutes,
                "started_at": _iso(r.started_at),
            }
            for r in data.rounds
        ],
        "marks": [
            {**_stamp_json(m.stamp), "round": m.round, "kind": m.kind, "at": _iso(m.at)}
            for m in data.marks
        ],
        "extensions": [
            {
                **_stamp_json(e.stamp),
                "round": e.round,
                "table": e.table,
                "minutes": e.minutes,
                "record": e.record_id,
                "finished": e.finished,
            }
            for e in data.extensions
        ],
    }


def parse_clock(value: Any, where: str = "clock") -> ClockData:
    """The export's `"clock"` object, checked; raises InvalidInput naming the place."""
    if value is None:
        return ClockData()
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: must be an object", where)
    event = value.get("event")
    event_row = None
    if event is not None:
        _must_be_object(event, f"{where}.event")
        event_row = EventClockRow(
            _stamp(event, f"{where}.event"),
            round_minutes(event.get("round_minutes"), f"{where}.event.round_minutes"),
        )
    rounds = []
    for index, entry in enumerate(_rows(value, "rounds", where)):
        at = f"{where}.rounds[{index}]"
        number = validate.round_number(entry.get("number"), f"{at}.number")
        if number is None:
            raise InvalidInput(f"{at}.number: required", f"{at}.number", "required")
        minutes = entry.get("minutes")
        rounds.append(
            RoundRow(
                _stamp(entry, at),
                number,
                None if minutes is None else round_minutes(minutes, f"{at}.minutes"),
                _optional_time(entry.get("started_at"), f"{at}.started_at"),
            )
        )
    marks = []
    for index, entry in enumerate(_rows(value, "marks", where)):
        at = f"{where}.marks[{index}]"
        kind = entry.get("kind")
        if kind not in ("pause", "resume"):
            raise InvalidInput(f'{at}.kind: must be "pause" or "resume"', f"{at}.kind")
        marks.append(
            MarkRow(
                _stamp(entry, at),
                _round(entry, at),
                kind,
                validate.iso_datetime(entry.get("at"), f"{at}.at"),
            )
        )
    extensions = []
    for index, entry in enumerate(_rows(value, "extensions", where)):
        at = f"{where}.extensions[{index}]"
        table = validate.table_label(entry.get("table"), f"{at}.table")
        if table is None:
            raise InvalidInput(f"{at}.table: required", f"{at}.table", "required")
        record = entry.get("record")
        finished = entry.get("finished", False)
        if not isinstance(finished, bool):
            raise InvalidInput(f"{at}.finished: must be true or false", f"{at}.finished")
        extensions.append(
            ExtensionRow(
                _stamp(entry, at),
                _round(entry, at),
                table,
                extension_minutes(entry.get("minutes"), f"{at}.minutes"),
                None if record is None else _uuid(record, f"{at}.record"),
                finished,
            )
        )
    data = ClockData(event_row, tuple(rounds), tuple(marks), tuple(extensions))
    _no_repeats(data, where)
    return data


def _no_repeats(data: ClockData, where: str) -> None:
    seen: set[str] = set()
    numbers: set[int] = set()
    rows: list[Any] = [*data.rounds, *data.marks, *data.extensions]
    if data.event is not None:
        rows.append(data.event)
    for row in rows:
        if row.stamp.id in seen:
            raise InvalidInput(f"{where}: the row {row.stamp.id} appears twice", where, "duplicate")
        seen.add(row.stamp.id)
    for entry in data.rounds:
        if entry.number in numbers:
            raise InvalidInput(
                f"{where}.rounds: round {entry.number} given twice", where, "duplicate"
            )
        numbers.add(entry.number)


def _must_be_object(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: must be an object", where)


def _rows(parent: dict[str, Any], key: str, where: str) -> list[dict[str, Any]]:
    value = parent.get(key, [])
    if not isinstance(value, list):
        raise InvalidInput(f"{where}.{key}: must be a list", f"{where}.{key}")
    for index, entry in enumerate(value):
        _must_be_object(entry, f"{where}.{key}[{index}]")
    return value


def _stamp(entry: dict[str, Any], where: str) -> Stamp:
    deleted = entry.get("deleted", False)
    if not isinstance(deleted, bool):
        raise InvalidInput(f"{where}.deleted: must be true or false", f"{where}.deleted")
    return Stamp(
        _uuid(entry.get("id"), f"{where}.id"),
        validate.iso_datetime(entry.get("created_at"), f"{where}.created_at"),
        validate.iso_datetime(entry.get("updated_at"), f"{where}.updated_at"),
        deleted,
    )


def _round(entry: dict[str, Any], where: str) -> int:
    number = validate.round_number(entry.get("round"), f"{where}.round")
    if number is None:
        raise InvalidInput(f"{where}.round: required", f"{where}.round", "required")
    return number


def _optional_time(value: Any, where: str) -> datetime | None:
    return None if value is None else validate.iso_datetime(value, where)


def _uuid(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{where}: missing or not a UUID", where, "required")
    try:
        return str(uuid.UUID(value))
    except ValueError:
        raise InvalidInput(f"{where}: not a UUID: {value!r}", where) from None
