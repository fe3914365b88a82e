"""The check of a record's fields that come from outside this device: an imported file's record
(records/exchange.py) and a synced version's body (records/sync/items.py) obey the same rules
(records/validate.py), checked here once for both.

What differs stays with each caller: the keys each one requires, its ids and times, and how a
deletion is given. Every field of every record is checked: nothing from a file or the network is
trusted. A value met again (the same judge, player or table on thousands of records) is found
checked already (`_once`): the same value gets the same answer, and a join of 10,000 records
stays within its time (bench/bench_sync.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from regulation.model import Regulation

from . import validate
from .errors import InvalidInput
from .model import Player, RecordedBy

MAX_JUDGE = 60
MAX_DEVICE = 64


@dataclass(frozen=True, slots=True)
class RecordFields:
    """A record's checked fields, other than its ids, its times and its deletion."""

    round: int | None
    table: str | None
    player: Player
    infraction_id: str
    tier_id: str
    note: str | None
    recorded_by: RecordedBy | None
    arrived_at: datetime | None
    late_seconds: int | None
    occurrence: int | None


def checked_fields(
    entry: dict[str, Any], player: dict[str, Any], where: str, regulation: Regulation
) -> RecordFields:
    """The fields of `entry` (a record's JSON object; `player` its "player" object), each
    checked in this order; InvalidInput names the first one at fault (`where`.field). An absent
    "round", "table" or "note" reads as null (callers that require the key check it first)."""
    arrived = entry.get("arrived_at")
    name, player_id, table = player.get("name"), player.get("id"), entry.get("table")
    return RecordFields(
        round=validate.round_number(entry.get("round"), f"{where}.round"),
        table=_once(lambda: validate.table_label(table, f"{where}.table"), "table", table),
        player=_once(
            lambda: validate.player_from(name, player_id, f"{where}.player"),
            "player",
            name,
            player_id,
        ),
        infraction_id=validate.infraction_id(
            regulation, entry.get("infraction"), f"{where}.infraction"
        ),
        tier_id=validate.tier_id(regulation, entry.get("tier"), f"{where}.tier"),
        note=validate.text(entry.get("note"), f"{where}.note", validate.MAX_NOTE, multiline=True),
        recorded_by=_recorded_by(entry.get("recorded_by"), where),
        arrived_at=None
        if arrived is None
        else validate.iso_datetime(arrived, f"{where}.arrived_at"),
        late_seconds=validate.late_seconds(entry.get("late_seconds"), f"{where}.late_seconds"),
        occurrence=validate.occurrence(entry.get("occurrence"), f"{where}.occurrence"),
    )


# Checked values met again (a judge's name and device on most records, the same players and
# tables over and over): value → its checked form. Only text and null are kept (hashable, and
# the checks are pure functions of them); a refusal is never kept, so it is made, with its
# place in the message, every time.
_CHECKED: dict[tuple[Any, ...], Any] = {}
_CHECKED_MAX = 4096


def _once(check: Callable[[], Any], *key: Any) -> Any:
    """`check()`, or its answer for `key` (a name for the check, then the values) kept from
    before."""
    for value in key:
        if value is not None and type(value) is not str:
            return check()
    found = _CHECKED.get(key)
    if found is None:
        found = check()
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.clear()
        _CHECKED[key] = found
    return found


def _recorded_by(value: Any, where: str) -> RecordedBy | None:
    if not isinstance(value, dict):
        return recorded_by_from(value, f"{where}.recorded_by")
    return _once(
        lambda: recorded_by_from(value, f"{where}.recorded_by"),
        "recorded_by",
        value.get("judge"),
        value.get("device"),
    )


def recorded_by_from(value: Any, where: str) -> RecordedBy | None:
    """Who recorded it: {"judge": STR|null, "device": STR} or null."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InvalidInput(f"{where}: must be an object or null", where)
    judge = validate.text(value.get("judge"), f"{where}.judge", MAX_JUDGE) or ""
    device = validate.text(value.get("device"), f"{where}.device", MAX_DEVICE, required=True)
    assert device is not None
    return RecordedBy(judge, device)
