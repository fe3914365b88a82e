"""The round clock's rows as versions (records/sync/items.py): one kind per clock table, each
row's UUID the item id, its fields (all but the UUID and updated_at, which is the version's
saved_at) the body. The conflict rule is the records': the largest (stamp, device) wins.

Bodies (canonical JSON; every one has "created_at": ISO and "deleted": BOOL)::

    clock.event      {"round_minutes": M}
    clock.round      {"number": N, "minutes": M|null, "started_at": ISO|null}
    clock.mark       {"round": N, "kind": "pause"|"resume", "at": ISO}
    clock.extension  {"round": N, "table": T, "minutes": M, "record": UUID|null,
                      "finished": BOOL}

The per-event and per-round rows have UUIDs derived from the event's (records/clock_rows.py):
`check_item_id` refuses a version whose id is not the one its event and number make, so that
two devices' versions of round 3 are versions of one item.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from regulation.model import Regulation

from .. import validate
from ..clock import extension_minutes, round_minutes
from ..clock_rows import (
    EventClockRow,
    ExtensionRow,
    MarkRow,
    RoundRow,
    Stamp,
    event_row_id,
    round_row_id,
)
from ..errors import InvalidInput

CLOCK_EVENT = "clock.event"
CLOCK_ROUND = "clock.round"
CLOCK_MARK = "clock.mark"
CLOCK_EXTENSION = "clock.extension"
CLOCK_KINDS = (CLOCK_EVENT, CLOCK_ROUND, CLOCK_MARK, CLOCK_EXTENSION)

ClockRow = EventClockRow | RoundRow | MarkRow | ExtensionRow


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(timespec="microseconds")


def fields_of(row: ClockRow) -> tuple[str, dict[str, Any]]:
    """A stored row's kind and body fields."""
    common = {"created_at": _iso(row.stamp.created_at), "deleted": row.stamp.deleted}
    if isinstance(row, EventClockRow):
        return CLOCK_EVENT, {**common, "round_minutes": row.round_minutes}
    if isinstance(row, RoundRow):
        return CLOCK_ROUND, {
            **common,
            "number": row.number,
            "minutes": row.minutes,
            "started_at": _iso(row.started_at),
        }
    if isinstance(row, MarkRow):
        return CLOCK_MARK, {**common, "round": row.round, "kind": row.kind, "at": _iso(row.at)}
    return CLOCK_EXTENSION, {
        **common,
        "round": row.round,
        "table": row.table,
        "minutes": row.minutes,
        "record": row.record_id,
        "finished": row.finished,
    }


def row_of(kind: str, item_id: str, saved_at: datetime, body: dict[str, Any]) -> ClockRow:
    """The row a (checked) version's body describes; its updated_at is the version's saved_at."""
    stamp = Stamp(item_id, datetime.fromisoformat(body["created_at"]), saved_at, body["deleted"])
    if kind == CLOCK_EVENT:
        return EventClockRow(stamp, body["round_minutes"])
    if kind == CLOCK_ROUND:
        start = body["started_at"]
        return RoundRow(
            stamp, body["number"], body["minutes"], datetime.fromisoformat(start) if start else None
        )
    if kind == CLOCK_MARK:
        return MarkRow(stamp, body["round"], body["kind"], datetime.fromisoformat(body["at"]))
    return ExtensionRow(
        stamp,
        body["round"],
        body["table"],
        body["minutes"],
        body["record"],
        body["finished"],
    )


def derived_id(kind: str, event_id: str, body: dict[str, Any]) -> str | None:
    """The item id a per-event or per-round row must have in `event_id` (None: any UUID)."""
    if kind == CLOCK_EVENT:
        return event_row_id(event_id)
    if kind == CLOCK_ROUND:
        return round_row_id(event_id, body["number"])
    return None


def check_item_id(kind: str, item_id: str, event_id: str, body: Any, where: str) -> None:
    """Refuses a per-event or per-round version whose id is not the derived one."""
    derived = derived_id(kind, event_id, body) if isinstance(body, dict) else None
    if derived is not None and item_id != derived:
        raise InvalidInput(f"{where}.id: not this event's clock row id", f"{where}.id")


# -- checks (items.KINDS) ----------------------------------------------------------------------


def _common(body: Any, where: str) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise InvalidInput(f"{where}: must be an object", where)
    deleted = body.get("deleted")
    if not isinstance(deleted, bool):
        raise InvalidInput(f"{where}.deleted: must be true or false", f"{where}.deleted")
    created = validate.iso_datetime(body.get("created_at"), f"{where}.created_at")
    return {"created_at": _iso(created), "deleted": deleted}


def _number(value: Any, where: str) -> int:
    number = validate.round_number(value, where)
    if number is None:
        raise InvalidInput(f"{where}: required", where, "required")
    return number


def check_event(body: Any, where: str, regulation: Regulation) -> dict[str, Any]:
    common = _common(body, where)
    minutes = round_minutes(body.get("round_minutes"), f"{where}.round_minutes")
    return {**common, "round_minutes": minutes}


def check_round(body: Any, where: str, regulation: Regulation) -> dict[str, Any]:
    common = _common(body, where)
    for key in ("minutes", "started_at"):
        if key not in body:
            raise InvalidInput(f"{where}.{key}: missing (null when empty)", f"{where}.{key}")
    minutes, start = body["minutes"], body["started_at"]
    return {
        **common,
        "number": _number(body.get("number"), f"{where}.number"),
        "minutes": None if minutes is None else round_minutes(minutes, f"{where}.minutes"),
        "started_at": None
        if start is None
        else _iso(validate.iso_datetime(start, f"{where}.started_at")),
    }


def check_mark(body: Any, where: str, regulation: Regulation) -> dict[str, Any]:
    common = _common(body, where)
    kind = body.get("kind")
    if kind not in ("pause", "resume"):
        raise InvalidInput(f'{where}.kind: must be "pause" or "resume"', f"{where}.kind")
    return {
        **common,
        "round": _number(body.get("round"), f"{where}.round"),
        "kind": kind,
        "at": _iso(validate.iso_datetime(body.get("at"), f"{where}.at")),
    }


def check_extension(body: Any, where: str, regulation: Regulation) -> dict[str, Any]:
    common = _common(body, where)
    table = validate.table_label(body.get("table"), f"{where}.table")
    if table is None:
        raise InvalidInput(f"{where}.table: required", f"{where}.table", "required")
    if "record" not in body:
        raise InvalidInput(f"{where}.record: missing (null when none)", f"{where}.record")
    record = body["record"]
    if record is not None:
        try:
            record = str(uuid.UUID(record)) if isinstance(record, str) else None
        except ValueError:
            record = None
        if record is None:
            raise InvalidInput(f"{where}.record: not a record id (UUID)", f"{where}.record")
    finished = body.get("finished")
    if not isinstance(finished, bool):
        raise InvalidInput(f"{where}.finished: must be true or false", f"{where}.finished")
    return {
        **common,
        "round": _number(body.get("round"), f"{where}.round"),
        "table": table,
        "minutes": extension_minutes(body.get("minutes"), f"{where}.minutes"),
        "record": record,
        "finished": finished,
    }


CLOCK_CHECKS = {
    CLOCK_EVENT: check_event,
    CLOCK_ROUND: check_round,
    CLOCK_MARK: check_mark,
    CLOCK_EXTENSION: check_extension,
}
