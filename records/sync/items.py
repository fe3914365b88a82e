"""What sync and file exchange carry: saved versions of an event's shared things.

A version is (kind, item id, event id, stamp, device, judge, saved_at, body). Kinds today:
"record" (one penalty record; item id = the record's UUID), "event" (the event's name, date
and rounds; item id = the event's UUID) and the round clock's rows (clock_items.py: "clock.event",
"clock.round", "clock.mark", "clock.extension"). Each kind is one entry in `KINDS`: a function
that checks a body and returns it in canonical form. A body is stored and
sent as canonical JSON text (sorted keys, no spaces), so that two copies of a version are equal
byte for byte on every device and the conflict rule (hlc.py) can compare them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from regulation.model import Regulation

from .. import validate
from ..errors import InvalidInput
from ..model import Event, Player, Record, RecordedBy, Round
from ..record_check import RecordFields, checked_fields
from .clock_items import CLOCK_CHECKS

RECORD = "record"
EVENT = "event"


@dataclass(frozen=True, slots=True)
class ItemVersion:
    kind: str
    item_id: str  # UUID
    event_id: str  # UUID
    stamp: int  # hlc.py
    device: str  # the saving device's id
    judge: str | None  # the saving judge's name
    saved_at: datetime  # the saving device's clock (shown, never used for ordering)
    body: str  # canonical JSON
    # The body already parsed, where it was just checked (protocol.parse_item): equal to
    # json.loads(body), so that storing a page does not parse each body a second time (a
    # replace() of the body must set it to None).
    parsed: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.kind, self.item_id, self.stamp, self.device)

    @property
    def order(self) -> tuple[int, str, str, str, str, str]:
        """The conflict rule's order (hlc.py); the content last, so that even two different
        versions under one key (a broken device) are ordered the same everywhere."""
        return (
            self.stamp,
            self.device,
            self.body,
            self.judge or "",
            self.saved_at.isoformat(),
            self.event_id,
        )

    @property
    def saved_by(self) -> RecordedBy | None:
        return RecordedBy(self.judge or "", self.device) if self.device else None


def canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


# -- records -------------------------------------------------------------------------------


def record_body(record: Record) -> str:
    """A record's fields as a version's body (everything but its ids and updated_at)."""
    return canonical(record_fields(record))


def record_fields(record: Record) -> dict[str, Any]:
    return _body(record, record.created_at, record.deleted)


def _body(record: Record | RecordFields, created_at: datetime, deleted: bool) -> dict[str, Any]:
    """The one layout of a record's body (from a record, or from checked fields)."""
    by = record.recorded_by
    fields = {
        "created_at": _iso(created_at),
        "recorded_by": {"judge": by.judge, "device": by.device} if by else None,
        "round": record.round,
        "table": record.table,
        "player": {"name": record.player.name, "id": record.player.player_id},
        "infraction": record.infraction_id,
        "tier": record.tier_id,
        "note": record.note,
        "deleted": deleted,
    }
    # The evidence (issue 20, item 5), only where a record has it: the body of a record
    # without any stays as it was before these fields existed.
    if record.arrived_at is not None:
        fields["arrived_at"] = _iso(record.arrived_at)
    if record.late_seconds is not None:
        fields["late_seconds"] = record.late_seconds
    if record.occurrence is not None:
        fields["occurrence"] = record.occurrence
    return fields


def record_from(version: ItemVersion) -> Record:
    """The record a (checked) version describes; its updated_at is the version's saved_at."""
    body = version.parsed if version.parsed is not None else json.loads(version.body)
    by = body.get("recorded_by")
    return Record(
        id=version.item_id,
        event_id=version.event_id,
        created_at=datetime.fromisoformat(body["created_at"]),
        updated_at=version.saved_at,
        round=body["round"],
        table=body["table"],
        player=Player(body["player"]["name"], body["player"]["id"]),
        infraction_id=body["infraction"],
        tier_id=body["tier"],
        note=body["note"],
        deleted=body["deleted"],
        recorded_by=RecordedBy(by["judge"], by["device"]) if by else None,
        arrived_at=datetime.fromisoformat(body["arrived_at"]) if body.get("arrived_at") else None,
        late_seconds=body.get("late_seconds"),
        occurrence=body.get("occurrence"),
    )


def check_record_body(body: Any, where: str, regulation: Regulation) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise InvalidInput(f"{where}: must be an object", where)
    for key in ("round", "table", "note", "recorded_by"):
        if key not in body:
            raise InvalidInput(f"{where}.{key}: missing (null when empty)", f"{where}.{key}")
    player = body.get("player")
    if not isinstance(player, dict):
        raise InvalidInput(f"{where}.player: missing or not an object", f"{where}.player")
    deleted = body.get("deleted")
    if not isinstance(deleted, bool):
        raise InvalidInput(f"{where}.deleted: must be true or false", f"{where}.deleted")
    created_at = validate.iso_datetime(body.get("created_at"), f"{where}.created_at")
    return _body(checked_fields(body, player, where, regulation), created_at, deleted)


# -- the event's settings ----------------------------------------------------------------------


def event_body(event: Event) -> str:
    return canonical(event_fields(event))


def event_fields(event: Event) -> dict[str, Any]:
    return {
        "name": event.name,
        "date": event.date.isoformat() if event.date else None,
        "rounds": [
            {"number": r.number, "assembly_at": _iso(r.assembly_at) if r.assembly_at else None}
            for r in sorted(event.rounds, key=lambda r: r.number)
        ],
    }


def event_from(version: ItemVersion) -> Event:
    body = json.loads(version.body)
    return Event(
        id=version.item_id,
        name=body["name"],
        date=date.fromisoformat(body["date"]) if body["date"] else None,
        rounds=tuple(
            Round(
                r["number"], datetime.fromisoformat(r["assembly_at"]) if r["assembly_at"] else None
            )
            for r in body["rounds"]
        ),
    )


def check_event_body(body: Any, where: str, regulation: Regulation) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise InvalidInput(f"{where}: must be an object", where)
    name = validate.event_name(body.get("name"), f"{where}.name")
    day = validate.iso_date(body.get("date"), f"{where}.date")
    rounds = body.get("rounds")
    if not isinstance(rounds, list):
        raise InvalidInput(f"{where}.rounds: must be a list", f"{where}.rounds")
    parsed: dict[int, Round] = {}
    for index, entry in enumerate(rounds):
        at = f"{where}.rounds[{index}]"
        if not isinstance(entry, dict):
            raise InvalidInput(f"{at}: must be an object", at)
        number = validate.round_number(entry.get("number"), f"{at}.number")
        if number is None or number in parsed:
            raise InvalidInput(f"{at}.number: missing or given twice", f"{at}.number")
        assembly = entry.get("assembly_at")
        moment = None if assembly is None else validate.iso_datetime(assembly, f"{at}.assembly_at")
        parsed[number] = Round(number, moment)
    return event_fields(Event("", name, day, tuple(parsed.values())))


# -- every kind ------------------------------------------------------------------------------

BodyCheck = Callable[[Any, str, Regulation], dict[str, Any]]
KINDS: dict[str, BodyCheck] = {
    RECORD: check_record_body,
    EVENT: check_event_body,
    **CLOCK_CHECKS,
}


def check_body(kind: str, body: Any, where: str, regulation: Regulation) -> str:
    """The body in canonical form; InvalidInput when it is not exactly that already (a body a
    device would store differently from the sender would break "the same everywhere")."""
    check = KINDS.get(kind)
    if check is None:
        raise InvalidInput(f"{where}.kind: unknown kind {kind!r} (update the app)", f"{where}.kind")
    clean = check(body, f"{where}.body", regulation)
    if clean != body:
        raise InvalidInput(f"{where}.body: not in canonical form", f"{where}.body")
    return canonical(clean)
